package memory

import (
	"strings"
	"unicode/utf8"
)

// lexicalHit is one memory the lexical primitives found for a test query.
type lexicalHit struct {
	Memory *Memory
	// Score is the score of the first path that found it (BM25 as RankWords returns it, higher
	// is better, for the word path).
	Score float64
	Via   []string
}

// testWeights are recall's default BM25 weights of the title, body and aliases columns.
var testWeights = [3]float64{3, 1, 2}

// lexical searches the index the way recall composes the store's primitives, so that the store
// tests exercise exactly the SQL recall runs: RankWords over BuildFTSQuery's expression,
// RankTrigrams over TrigramQuery's when the words found fewer than 20 rows, RankSubstrings for
// lone CJK characters and for text with no word at all, then HydrateRIDs through the filter.
// Each path goes depth rows deep (f.Limit, default 200) and the hits, words first, are cut to
// f.Limit.
func (e *env) lexical(q string, f Filter) ([]lexicalHit, error) {
	depth := f.Limit
	if depth <= 0 {
		depth = 200
	}
	var lists [][]RankedRID
	var paths []string
	add := func(path string, list []RankedRID, err error) error {
		if err == nil && len(list) > 0 {
			lists, paths = append(lists, list), append(paths, path)
		}
		return err
	}
	words := 0
	if fq := BuildFTSQuery(q, "OR"); fq != "" {
		list, err := e.s.RankWords(e.ctx, fq, testWeights, f, TimeWindow{}, depth)
		if err := add("words", list, err); err != nil {
			return nil, err
		}
		words = len(list)
	}
	if tq := TrigramQuery(q); tq != "" && words < 20 {
		list, err := e.s.RankTrigrams(e.ctx, tq, f, TimeWindow{}, depth)
		if err := add("trigram", list, err); err != nil {
			return nil, err
		}
	}
	var needles []string
	for _, t := range SplitQuery(q) {
		if t.CJK && utf8.RuneCountInString(t.Text) == 1 {
			needles = append(needles, t.Text)
		}
	}
	if len(SplitQuery(q)) == 0 && TrigramQuery(q) == "" && strings.TrimSpace(q) != "" {
		needles = append(needles, strings.TrimSpace(q))
	}
	list, err := e.s.RankSubstrings(e.ctx, needles, f, TimeWindow{}, depth)
	if err := add("substring", list, err); err != nil {
		return nil, err
	}
	var order []int64
	byRID := map[int64]*lexicalHit{}
	for i, list := range lists {
		for _, r := range list {
			h := byRID[r.RID]
			if h == nil {
				h = &lexicalHit{Score: r.Score}
				byRID[r.RID] = h
				order = append(order, r.RID)
			}
			h.Via = append(h.Via, paths[i])
		}
	}
	mems, err := e.s.HydrateRIDs(e.ctx, order, f, TimeWindow{})
	if err != nil {
		return nil, err
	}
	var out []lexicalHit
	for _, rid := range order {
		if m := mems[rid]; m != nil {
			h := byRID[rid]
			h.Memory = m
			out = append(out, *h)
		}
	}
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out, nil
}
