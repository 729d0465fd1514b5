package memory

import (
	"context"
	"fmt"
	"strings"
)

// find.go is the person's search of the memory list: search as you type over 10,000+ memories.
// It is one lexical query, not recall: recall runs half a dozen paths, hydrates, passes
// relevance along conversations and reweighs (tens of milliseconds, tuned for agents'
// questions), while a list search runs on every pause in typing and must answer a half-typed
// word ("po" for postgres, "数" for 数据库) in a few milliseconds.

// Find limits.
const (
	// findMaxTerms bounds the terms of one query: more words narrow nothing a person reads.
	findMaxTerms = 8
	// findCountCap bounds the count of matches: past it the list says "more than".
	findCountCap = 1000
	// findRankCap is the most matches ordered by BM25; broader queries list newest first.
	findRankCap = 1000
	// FindMaxQueryBytes bounds a list search.
	FindMaxQueryBytes = 1024
)

// FindResult is one page of a list search, best first, and how many match in all (at most
// findCountCap; More is set when there are more).
type FindResult struct {
	Items []*Memory
	Total int
	More  bool
}

// findPlan is a query rendered for the index: an FTS5 expression over the word index (every
// Latin term a prefix, every CJK run of two or more characters the phrase of its bigrams, a
// lone CJK character a prefix: every character of a memory begins one of its tokens, see
// text.SegmentCJKDoc) and substring conditions for what the word index cannot express (a
// query of no word at all, such as "C++" or "=>").
type findPlan struct {
	match string
	likes []string
}

// planFind renders q. User text reaches FTS5 only as quoted string literals, so operators a
// person types (", *, NEAR(, AND, -, :) are searched as text, never parsed.
func planFind(q string) findPlan {
	q = strings.TrimSpace(strings.ReplaceAll(q, "\x00", " "))
	var p findPlan
	var parts []string
	seen := map[string]bool{}
	for _, t := range SplitQuery(q) {
		if len(parts)+len(p.likes) >= findMaxTerms {
			break
		}
		key := strings.ToLower(t.Text)
		if seen[key] {
			continue
		}
		seen[key] = true
		switch rs := []rune(t.Text); {
		case !t.CJK, len(rs) == 1:
			parts = append(parts, QuoteWords(t.Text)+"*")
		default:
			parts = append(parts, FTSTerm(t))
		}
	}
	p.match = strings.Join(parts, " AND ")
	if p.match == "" && len(p.likes) == 0 && q != "" {
		p.likes = []string{q}
	}
	return p
}

// Find searches the memories f selects for q: every term must match (a prefix for words, a
// phrase or substring for Chinese and Japanese), best BM25 first (title counts most), newest
// first among equals; f.Limit and f.Offset page the result. An empty query finds nothing.
func (s *Store) Find(ctx context.Context, q string, f Filter) (FindResult, error) {
	var res FindResult
	if len(q) > FindMaxQueryBytes {
		return res, codeErr(CodeInvalidQuery, map[string]any{"Max": FindMaxQueryBytes}, "query is longer than %d bytes", FindMaxQueryBytes)
	}
	p := planFind(q)
	if p.match == "" && len(p.likes) == 0 {
		return res, nil
	}
	where, args, err := f.where(s.projects)
	if err != nil {
		return res, err
	}
	for _, l := range p.likes {
		where += ` AND (m.title LIKE ? ESCAPE '\' OR m.body LIKE ? ESCAPE '\')`
		pat := "%" + escapeLike(l) + "%"
		args = append(args, pat, pat)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	// With words to match, the word index is walked first and each match looks its row up by
	// id (CROSS JOIN keeps that order; NOT INDEXED keeps the planner from scanning the scope
	// index and probing the word index once per row). Up to findRankCap matches are ordered by
	// BM25; a broader query ("m", "memory" over every row) would spend its time scoring rows
	// nobody scrolls to, so it lists its matches newest first, walking the index backwards and
	// stopping at the page.
	from, order := `memory_meta m`, `m.updated DESC, m.rid DESC`
	var matchArgs []any
	if p.match != "" {
		var broad int
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)`,
			p.match, findRankCap+1).Scan(&broad); err != nil {
			return res, fmt.Errorf("memory: unable to count matches: %w", err)
		}
		if broad > findRankCap {
			from = `(SELECT rowid AS rid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rowid DESC) hits
			CROSS JOIN memory_meta m NOT INDEXED ON m.rid = hits.rid`
			order = `hits.rid DESC`
		} else {
			from = `(SELECT rowid AS rid, bm25(memory_fts, 4.0, 1.0, 2.0) AS score FROM memory_fts WHERE memory_fts MATCH ?) hits
			CROSS JOIN memory_meta m NOT INDEXED ON m.rid = hits.rid`
			order = `hits.score, ` + order
		}
		matchArgs = []any{p.match}
	}
	all := append(matchArgs, args...)
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM `+from+` WHERE `+where+` LIMIT ?)`,
		append(all, findCountCap+1)...).Scan(&n); err != nil {
		return res, fmt.Errorf("memory: unable to count matches: %w", err)
	}
	res.Total, res.More = min(n, findCountCap), n > findCountCap
	if n == 0 || f.Offset >= n {
		return res, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+prefixed(metaColumns)+` FROM `+from+` WHERE `+where+
		` ORDER BY `+order+` LIMIT ? OFFSET ?`, append(all, limit, max(f.Offset, 0))...)
	if err != nil {
		return res, fmt.Errorf("memory: unable to search: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		m, _, err := scanMemory(rows)
		if err != nil {
			return res, fmt.Errorf("memory: unable to scan: %w", err)
		}
		res.Items = append(res.Items, m)
	}
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("memory: unable to search: %w", err)
	}
	return res, nil
}

// prefixed qualifies a column list with the alias m (memory_fts has a body column too).
func prefixed(cols string) string {
	fields := strings.Split(cols, ",")
	for i, c := range fields {
		fields[i] = "m." + strings.TrimSpace(c)
	}
	return strings.Join(fields, ", ")
}
