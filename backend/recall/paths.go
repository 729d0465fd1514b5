package recall

import (
	"context"
	"sort"
	"strings"

	"engram/backend/embed"
	"engram/backend/memory"
	"engram/backend/text"
	"engram/backend/vector"
)

// The retrieval paths. Each returns its ranked rows, best first, or nothing when the query
// does not call for it; retrieve fuses them in the order they appear here.

// wordsPath is BM25 over the word index (stemmed English words, CJK bigrams, singles and
// variants), leaving out the keywords the budget skips; when even the kept keywords are broad
// it takes the newest matches instead of scoring them all.
func (s *Service) wordsPath(ctx context.Context, a Analysis, stats kwStats, f memory.Filter, w memory.TimeWindow) ([]memory.RankedRID, error) {
	t := s.t
	m := ftsWords(a, false, stats.skip)
	if m == "" {
		return nil, nil
	}
	if stats.broad && len(a.Singles) == 0 && len(a.Variants) == 0 {
		return s.store.RecentWords(ctx, m, f, w, t.Depth)
	}
	return s.store.RankWords(ctx, m, t.ColumnWeights, f, w, t.Depth)
}

// cjkPath gives the CJK part of a mixed-language query its own list, so that frequent English
// words cannot drown it.
func (s *Service) cjkPath(ctx context.Context, a Analysis, stats kwStats, f memory.Filter, w memory.TimeWindow) ([]memory.RankedRID, error) {
	hasCJK, hasLatin := false, false
	for _, k := range a.Keywords {
		if k.CJK {
			hasCJK = true
		} else {
			hasLatin = true
		}
	}
	if !hasCJK || !hasLatin {
		return nil, nil
	}
	t := s.t
	return s.store.RankWords(ctx, ftsWords(a, true, stats.skip), t.ColumnWeights, f, w, t.Depth)
}

// expansionPath is BM25 over the query's expansions (synonyms and related words).
func (s *Service) expansionPath(ctx context.Context, a Analysis, f memory.Filter, w memory.TimeWindow) ([]memory.RankedRID, error) {
	if len(a.Expansions) == 0 {
		return nil, nil
	}
	t := s.t
	return s.store.RankWords(ctx, ftsTerms(a.Expansions), t.ColumnWeights, f, w, t.Depth)
}

// trigramPath matches keywords of three characters or more as substrings; it runs for code
// queries, and for others only when the word path found fewer than TrigramBelow rows.
func (s *Service) trigramPath(ctx context.Context, a Analysis, wordRows int, f memory.Filter, w memory.TimeWindow) ([]memory.RankedRID, error) {
	t := s.t
	var parts []string
	for _, k := range a.Keywords {
		if len([]rune(k.Text)) >= 3 {
			parts = append(parts, memory.QuotePhrase(k.Text))
		}
	}
	if len(parts) == 0 || (a.Intent != IntentCode && wordRows >= t.TrigramBelow) {
		return nil, nil
	}
	return s.store.RankTrigrams(ctx, strings.Join(parts, " OR "), f, w, t.Depth)
}

// trigramWeight is the trigram path's weight: higher for code, where substrings matter.
func trigramWeight(t Tuning, a Analysis) float64 {
	if a.Intent == IntentCode {
		return t.WTrigramCode
	}
	return t.WTrigram
}

// substringPath scans for a query with no keyword at all: a lone CJK character, or a query of
// no word ("=>", "C++") searched as the text itself. A query of stop words only ("what is it")
// asks nothing and finds nothing.
func (s *Service) substringPath(ctx context.Context, q string, a Analysis, f memory.Filter, w memory.TimeWindow) ([]memory.RankedRID, error) {
	if len(a.Keywords) > 0 {
		return nil, nil
	}
	needles := a.Singles
	if len(needles) == 0 && len(a.Expansions) == 0 && len(text.Split(q)) == 0 {
		needles = []string{q}
	}
	if len(needles) == 0 {
		return nil, nil
	}
	return s.store.RankSubstrings(ctx, needles, f, w, s.t.Depth)
}

// vectorHits runs the vector path when there is an embedder and the query has something to
// embed. A backend failure fails the search, or with bestEffort becomes a warning and the
// lexical results stand alone.
func (s *Service) vectorHits(ctx context.Context, q string, a Analysis, f memory.Filter, bestEffort bool) ([]memory.RankedRID, []Warning, error) {
	emb, vec := s.vectors()
	if emb == nil || vec == nil || a.relaxed || (len(a.Keywords) == 0 && len(a.Singles) == 0) {
		return nil, nil, nil
	}
	s.vmu.RLock()
	catchUp := s.catchUp
	s.vmu.RUnlock()
	if catchUp != nil {
		catchUp(ctx)
	}
	list, err := s.vectorPath(ctx, emb, vec, q, f)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, nil, err // the search was cancelled or failed elsewhere: nothing to warn about
	case err != nil && bestEffort:
		code, args := codeOf(err)
		s.log.Warn("recall: vector search failed; lexical results only", "err", err)
		return nil, []Warning{{Code: code, Args: args}}, nil
	case err != nil:
		return nil, nil, err
	}
	return list, nil, nil
}

// addVectors fuses the vector path's rows by absolute cosine and notes each row's cosine.
func (s *Service) addVectors(fu *fusion, list []memory.RankedRID) {
	fu.add("vector", s.t.WVector, list, true, false)
	for _, it := range list {
		if c := fu.cands[it.RID]; c != nil {
			c.vecCos = it.Score
		}
	}
}

// vectorPath embeds the query and asks the vector searcher; matches become index rows, and
// ids that the index does not know are dropped.
func (s *Service) vectorPath(ctx context.Context, emb embed.Embedder, vec vector.Searcher, q string, f memory.Filter) ([]memory.RankedRID, error) {
	vecs, err := emb.Embed(ctx, []string{q})
	if err != nil {
		return nil, err
	}
	if len(vecs) != 1 {
		return nil, nil
	}
	matches, err := vec.Search(ctx, vecs[0], s.t.Depth, f)
	if err != nil {
		return nil, err
	}
	var unknown []string
	for _, m := range matches {
		if m.RID == 0 {
			unknown = append(unknown, m.ID)
		}
	}
	byID := map[string]int64{}
	if len(unknown) > 0 {
		if byID, err = s.store.RIDsOfIDs(ctx, unknown); err != nil {
			return nil, err
		}
	}
	out := make([]memory.RankedRID, 0, len(matches))
	seen := map[int64]bool{}
	for _, m := range matches {
		rid := m.RID
		if rid == 0 {
			rid = byID[m.ID]
		}
		if rid == 0 || seen[rid] || m.Score <= 0 {
			continue
		}
		seen[rid] = true
		out = append(out, memory.RankedRID{RID: rid, Score: m.Score})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out, nil
}

// ftsWords renders the keywords and variants as an OR query over the word index: English words
// quoted (the index stems them), CJK chunks as their bigrams plus the whole chunk as a phrase,
// and one-character chunks as bigram prefixes.
func ftsWords(a Analysis, cjkOnly bool, skip map[string]bool) string {
	var parts []string
	seen := map[string]bool{}
	add := func(e string) {
		if e != "" && !seen[e] {
			seen[e] = true
			parts = append(parts, e)
		}
	}
	for _, k := range a.Keywords {
		if skip[k.Text] {
			continue
		}
		if !k.CJK {
			if !cjkOnly {
				add(memory.QuoteWords(k.Text))
			}
			continue
		}
		rs := []rune(k.Text)
		for i := 0; i+1 < len(rs); i++ {
			add(memory.QuoteWords(string(rs[i : i+2])))
		}
		if len(rs) > 2 {
			add(memory.QuoteWords(strings.TrimSpace(text.SegmentCJK(k.Text))))
		}
	}
	for _, sg := range a.Singles {
		add(memory.QuoteWords(sg) + "*")
	}
	if !cjkOnly {
		for _, v := range a.Variants {
			add(memory.QuoteWords(v))
		}
	}
	return strings.Join(parts, " OR ")
}

func ftsTerms(terms []string) string {
	var parts []string
	for _, t := range terms {
		if token := strings.TrimSpace(t); token != "" {
			if text.HasCJK(token) {
				token = strings.TrimSpace(text.SegmentCJK(token))
			}
			parts = append(parts, memory.QuoteWords(token))
		}
	}
	return strings.Join(parts, " OR ")
}
