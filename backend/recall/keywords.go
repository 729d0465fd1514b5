package recall

import (
	"context"
	"math"
	"sort"
	"strings"

	"engram/backend/memory"
	"engram/backend/text"
)

// kwStats are the document frequencies of a query's keywords.
type kwStats struct {
	text []string  // lower-cased keywords
	idf  []float64 // their inverse document frequencies
	sum  float64
	// skip are keywords left out of the word query: so common that scoring every memory they
	// occur in would cost more than their low weight is worth (see WordBudget).
	skip map[string]bool
	// broad is set when even the kept keywords each match more memories than the budget: the
	// word path then takes the newest matches instead of scoring them all.
	broad bool
}

// keywordStats counts each keyword's memories and picks the common ones to leave out of the
// BM25 query, rarest first, once the memories matched would exceed the budget. The rarest
// keyword is always kept. A common one left out still counts where it is found verbatim
// (addSurface), so among the rarer word's memories those holding both come first; scoring
// BM25 over every memory the common word is in read each one's column sizes (at 100k
// memories, "tonvine evening" took 36 ms, most of it there).
func (s *Service) keywordStats(ctx context.Context, a Analysis) (kwStats, error) {
	st := kwStats{skip: map[string]bool{}}
	if len(a.Keywords) == 0 {
		return st, nil
	}
	n, err := s.store.IndexSizeHint(ctx)
	if err != nil {
		return st, err
	}
	dfs := make([]int, len(a.Keywords))
	for i, k := range a.Keywords {
		match := memory.QuoteWords(k.Text)
		if k.CJK {
			match = memory.QuoteWords(strings.TrimSpace(text.SegmentCJK(k.Text)))
		}
		df, err := s.store.WordDocCount(ctx, match)
		if err != nil {
			return st, err
		}
		dfs[i] = df
		idf := math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
		st.text = append(st.text, strings.ToLower(k.Text))
		st.idf = append(st.idf, idf)
		st.sum += idf
	}
	budget := max(s.t.WordBudget, n/s.t.WordBudgetShare)
	order := make([]int, len(dfs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return dfs[order[i]] < dfs[order[j]] })
	total := 0
	st.broad = true
	for rank, i := range order {
		total += dfs[i]
		if rank >= 1 && total > budget {
			st.skip[a.Keywords[i].Text] = true
			continue
		}
		if dfs[i] <= budget {
			st.broad = false
		}
	}
	return st, nil
}

// addSurface credits candidates that hold the query's keywords verbatim (case-folded), each
// keyword weighted by its inverse document frequency.
func addSurface(st kwStats, cands map[int64]*cand, weight float64) {
	if st.sum <= 0 {
		return
	}
	for _, c := range cands {
		hay := strings.ToLower(c.m.Title + "\n" + c.m.Body)
		got := 0.0
		for i, k := range st.text {
			if strings.Contains(hay, k) {
				got += st.idf[i]
			}
		}
		c.rel += weight * got / st.sum
	}
}
