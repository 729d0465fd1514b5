package recall

import (
	"context"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"engram/backend/memory"
)

// Grep limits.
const (
	MaxPatternBytes  = 1024
	defaultGrepLimit = 50
	maxGrepLimit     = 500
	maxGrepLines     = 20
	maxGrepLineRunes = 240
)

// GrepParams is an exact-pattern search beside ranked recall: a regular expression (RE2 syntax:
// linear time, no catastrophic backtracking) over titles and bodies.
type GrepParams struct {
	Pattern    string       `json:"pattern"`
	IgnoreCase bool         `json:"ignore_case,omitempty"`
	Scope      memory.Scope `json:"scope,omitempty"`
	Workdir    string       `json:"workdir,omitempty"`
	Agent      string       `json:"agent,omitempty"`
	Type       memory.Type  `json:"type,omitempty"`
	// Limit is the number of memories returned (default 50, at most 500).
	Limit int `json:"limit,omitempty"`
	// MaxLines bounds the matching lines shown per memory (default 5, at most 20).
	MaxLines int `json:"max_lines,omitempty"`
}

// GrepLine is one matching line (1-based; line 0 is the title).
type GrepLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// GrepHit is a memory with its matching lines.
type GrepHit struct {
	Memory *memory.Memory `json:"memory"`
	Lines  []GrepLine     `json:"lines"`
	Count  int            `json:"count"`
}

// GrepResult lists matches in index order.
type GrepResult struct {
	Hits      []GrepHit `json:"hits"`
	Scanned   int       `json:"scanned"`
	Truncated bool      `json:"truncated,omitempty"`
}

// Grep scans the visible memories for a pattern. When the pattern requires a literal of three
// or more characters, the trigram index narrows the scan first.
func (s *Service) Grep(ctx context.Context, p GrepParams) (GrepResult, error) {
	res := GrepResult{Hits: []GrepHit{}}
	if strings.TrimSpace(p.Pattern) == "" || len(p.Pattern) > MaxPatternBytes {
		return res, codeErr(CodeInvalidPattern, map[string]any{"Max": MaxPatternBytes, "Detail": "empty or too long", "DetailKey": "detail.pattern_empty_or_long"},
			"pattern must be 1 to %d bytes", MaxPatternBytes)
	}
	if p.Scope == memory.ScopeProject && strings.TrimSpace(p.Workdir) == "" {
		return res, codeErr(CodeMissingField, map[string]any{"Field": "workdir"}, "project scope needs the workdir")
	}
	expr := p.Pattern
	if p.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return res, codeErr(CodeInvalidPattern, map[string]any{"Max": MaxPatternBytes, "Detail": err.Error()},
			"invalid pattern: %v", err)
	}
	limit := p.Limit
	if limit <= 0 {
		limit = defaultGrepLimit
	}
	limit = min(limit, maxGrepLimit)
	maxLines := p.MaxLines
	if maxLines <= 0 {
		maxLines = 5
	}
	maxLines = min(maxLines, maxGrepLines)
	f := memory.Filter{Scope: p.Scope, Workdir: p.Workdir, Agent: p.Agent, Type: p.Type}
	err = s.store.ScanMemories(ctx, f, requiredLiteral(expr), func(m *memory.Memory) bool {
		res.Scanned++
		hit := GrepHit{Memory: m}
		lines := append([]string{m.Title}, strings.Split(m.Body, "\n")...)
		for i, l := range lines {
			if !re.MatchString(l) {
				continue
			}
			hit.Count++
			if len(hit.Lines) < maxLines {
				hit.Lines = append(hit.Lines, GrepLine{Line: i, Text: clipLine(l, re)})
			}
		}
		if hit.Count > 0 {
			if len(res.Hits) >= limit {
				res.Truncated = true
				return false
			}
			res.Hits = append(res.Hits, hit)
		}
		return true
	})
	if err != nil {
		return res, err
	}
	return res, nil
}

// clipLine shortens a long line around its first match.
func clipLine(l string, re *regexp.Regexp) string {
	if utf8.RuneCountInString(l) <= maxGrepLineRunes {
		return l
	}
	loc := re.FindStringIndex(l)
	start := 0
	if loc != nil && loc[0] > maxGrepLineRunes/3 {
		start = loc[0] - maxGrepLineRunes/3
	}
	for start > 0 && !utf8.RuneStart(l[start]) {
		start--
	}
	rs := []rune(l[start:])
	out := string(rs[:min(len(rs), maxGrepLineRunes)])
	if start > 0 {
		out = "…" + out
	}
	if len(rs) > maxGrepLineRunes {
		out += "…"
	}
	return out
}

// requiredLiteral returns a literal of at least three characters that every match must contain
// ("" when there is none), for the trigram prefilter. The trigram index folds case, so a
// case-insensitive literal works as well.
func requiredLiteral(expr string) string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return ""
	}
	re = re.Simplify()
	best := ""
	consider := func(r *syntax.Regexp) {
		if r.Op == syntax.OpLiteral {
			if lit := string(r.Rune); utf8.RuneCountInString(lit) > utf8.RuneCountInString(best) {
				best = lit
			}
		}
	}
	switch re.Op {
	case syntax.OpLiteral:
		consider(re)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			consider(sub)
		}
	}
	if utf8.RuneCountInString(best) < 3 || strings.ContainsAny(best, "\n\"") {
		return ""
	}
	return best
}
