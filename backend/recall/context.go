package recall

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"engram/backend/memory"
	"engram/backend/prompts"
	"engram/backend/text"
)

// EstimateTokens is a deliberately pessimistic token count: one per CJK or other non-ASCII
// character and one per three ASCII bytes (tokenizers average about four). Budgets are kept
// against this estimate, so a rendered context never exceeds its budget by a real tokenizer's
// count either, in practice.
func EstimateTokens(s string) int {
	ascii, other := 0, 0
	for _, r := range s {
		if r < utf8.RuneSelf {
			ascii++
		} else {
			other++
		}
	}
	return other + (ascii+2)/3
}

// Budget limits of build_context.
const (
	MinContextTokens     = 16
	MaxContextTokens     = 32000
	DefaultContextTokens = 1500
	// minEntryTokens is the smallest cut-down entry worth adding.
	minEntryTokens = 40
)

// ContextParams asks for the memories relevant to Query rendered within MaxTokens.
type ContextParams struct {
	Query     string       `json:"query"`
	MaxTokens int          `json:"max_tokens,omitempty"`
	Scope     memory.Scope `json:"scope,omitempty"`
	Workdir   string       `json:"workdir,omitempty"`
	Agent     string       `json:"agent,omitempty"`
	Type      memory.Type  `json:"type,omitempty"`
	// Limit is how many hits are considered (default 20).
	Limit int `json:"limit,omitempty"`
	// NoTouch leaves access counts alone: the person previewing what an agent would be given
	// ("What my agents see") is not a recall. Set by Go callers only.
	NoTouch bool `json:"-"`
}

// ContextEntry says which memory went into the context and whether it was cut.
type ContextEntry struct {
	ID        string `json:"id"`
	Slug      string `json:"slug"`
	Title     string `json:"title"`
	Truncated bool   `json:"truncated,omitempty"`
}

// ContextResult is the rendered block (empty when nothing relevant fits) and its estimate.
type ContextResult struct {
	Text     string         `json:"text"`
	Tokens   int            `json:"tokens"`
	Entries  []ContextEntry `json:"entries"`
	Omitted  int            `json:"omitted"`
	Warnings []Warning      `json:"warnings,omitempty"`
}

// BuildContext retrieves memories for a request and renders them within the token budget, best
// first, from what the caller (Workdir, Agent) sees: global, its project and its agent; an
// empty caller gets global memories only. It never exceeds MaxTokens (by EstimateTokens); an entry that does not fit whole is cut
// if enough room is left, and everything after it is left out. A vector backend failure does
// not fail prompt assembly: the lexical results are used and the failure is reported.
func (s *Service) BuildContext(ctx context.Context, p ContextParams) (ContextResult, error) {
	res := ContextResult{Entries: []ContextEntry{}}
	budget := p.MaxTokens
	if budget == 0 {
		budget = DefaultContextTokens
	}
	if budget < MinContextTokens || budget > MaxContextTokens {
		return res, codeErr(CodeInvalidBudget, map[string]any{"Min": MinContextTokens, "Max": MaxContextTokens, "Value": p.MaxTokens},
			"max_tokens must be between %d and %d", MinContextTokens, MaxContextTokens)
	}
	limit := p.Limit
	if limit <= 0 {
		limit = 20
	}
	// Workdir and Agent are the caller's; Scope may only narrow what it sees.
	vis, err := NewVisibility(Caller{Workdir: p.Workdir, Agent: p.Agent}, s.store.Projects())
	if err != nil {
		return res, err
	}
	if vis, err = vis.Narrow(p.Scope, "", ""); err != nil {
		return res, err
	}
	sr, err := s.Search(ctx, vis.Search(SearchParams{Query: p.Query, Type: p.Type, Limit: limit, BestEffort: true, NoTouch: p.NoTouch}))
	if err != nil {
		return res, err
	}
	res.Warnings = sr.Warnings
	visible := sr.Hits[:0]
	for _, h := range sr.Hits {
		if vis.Allows(h.Memory) {
			visible = append(visible, h)
		}
	}
	sr.Hits = visible
	if len(sr.Hits) == 0 {
		return res, nil
	}
	var b strings.Builder
	b.WriteString(prompts.ContextHeader)
	fixed := EstimateTokens(prompts.ContextHeader + prompts.ContextFooter)
	if fixed >= budget {
		res.Omitted = len(sr.Hits)
		return res, nil
	}
	used := fixed
	for i, h := range sr.Hits {
		open, closeTag, text := contextParts(h.Memory)
		whole := open + text + "\n" + closeTag
		if cost := EstimateTokens(whole); used+cost <= budget {
			b.WriteString(whole)
			used += cost
			res.Entries = append(res.Entries, ContextEntry{ID: h.Memory.ID, Slug: h.Memory.Slug, Title: h.Memory.Title})
			continue
		}
		room := budget - used - EstimateTokens(open+closeTag+prompts.ContextCut+"\n")
		if room >= minEntryTokens {
			cut := cutToTokens(text, room)
			part := open + cut + prompts.ContextCut + "\n" + closeTag
			if EstimateTokens(part)+used <= budget {
				b.WriteString(part)
				used += EstimateTokens(part)
				res.Entries = append(res.Entries, ContextEntry{ID: h.Memory.ID, Slug: h.Memory.Slug, Title: h.Memory.Title, Truncated: true})
				i++
			}
		}
		res.Omitted = len(sr.Hits) - i
		break
	}
	if len(res.Entries) == 0 {
		res.Omitted = len(sr.Hits)
		return res, nil
	}
	b.WriteString(prompts.ContextFooter)
	res.Text = b.String()
	res.Tokens = EstimateTokens(res.Text)
	// The parts were costed one by one; the whole is checked once more so that the promise
	// holds whatever the estimator does at the seams.
	if res.Tokens > budget {
		return s.shrinkContext(ctx, p, budget)
	}
	return res, nil
}

// shrinkContext is the slow path for the (theoretical) case where the assembled text costs more
// than its parts: entries are dropped from the end until it fits.
func (s *Service) shrinkContext(ctx context.Context, p ContextParams, budget int) (ContextResult, error) {
	p.MaxTokens = budget - 8
	if p.MaxTokens < MinContextTokens {
		return ContextResult{Entries: []ContextEntry{}}, nil
	}
	return s.BuildContext(ctx, p)
}

// WrapMemory renders one memory whole inside build_context's wrapper: the notice that
// memories are data, not instructions, and its title and body escaped so that they can neither
// close the wrapper nor forge a tag. For paths that hand a model one memory outside
// build_context (an MCP resource).
func WrapMemory(m *memory.Memory) string {
	open, closeTag, text := contextParts(m)
	return prompts.ContextHeader + open + text + "\n" + closeTag + prompts.ContextFooter
}

// contextParts renders one memory's wrapper and escaped text.
func contextParts(m *memory.Memory) (open, closeTag, text string) {
	reviewed := "yes"
	if !m.Reviewed {
		reviewed = "no"
	}
	open = fmt.Sprintf(prompts.ContextEntry, Escape(m.Slug), m.Scope, m.Type, m.Updated.Format("2006-01-02"),
		Escape(string(m.Confidence)), reviewed)
	text = Escape(oneLine(m.Title)) + "\n" + Escape(strings.TrimSpace(m.Body))
	return open, prompts.ContextEnd, text
}

// cutToTokens returns the longest prefix of s (cut at a rune, preferably at a space) whose
// estimate is at most n.
func cutToTokens(s string, n int) string {
	if EstimateTokens(s) <= n {
		return s
	}
	rs := []rune(s)
	lo, hi := 0, len(rs)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if EstimateTokens(string(rs[:mid])) <= n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	out := string(rs[:lo])
	if i := strings.LastIndexAny(out, " \n"); i > len(out)/2 && !text.HasCJK(out[i:]) {
		out = out[:i]
	}
	// A cut must not leave half an escape sequence ("&am").
	if i := strings.LastIndex(out, "&"); i >= 0 && !strings.Contains(out[i:], ";") {
		out = out[:i]
	}
	return strings.TrimRight(out, " \n")
}
