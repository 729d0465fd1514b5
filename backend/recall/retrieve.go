package recall

import (
	"context"
	"sort"
	"time"

	"engram/backend/memory"
)

// cand is a candidate while ranking.
type cand struct {
	rid      int64
	m        *memory.Memory
	rel      float64
	vecCos   float64
	lexical  bool
	evidence bool
	via      []string
	score    float64
}

func (c *cand) addVia(p string) {
	for _, v := range c.via {
		if v == p {
			return
		}
	}
	c.via = append(c.via, p)
}

// fusion sums the paths' ranked lists into candidates: each row gets the path's weight times a
// blend of its max-normalised score (absolute: the score as it is, for cosines) and its
// reciprocal rank. Paths are added in a fixed order, so equal inputs give equal sums.
type fusion struct {
	t     Tuning
	cands map[int64]*cand
}

func (fu *fusion) add(path string, weight float64, list []memory.RankedRID, absolute, lexical bool) {
	t, cands := fu.t, fu.cands
	if len(list) == 0 || weight <= 0 {
		return
	}
	top := list[0].Score
	for r, it := range list {
		norm := 0.0
		switch {
		case absolute:
			norm = it.Score
		case top > 0:
			norm = it.Score / top
		}
		contrib := weight * (t.ScoreShare*norm + (1-t.ScoreShare)*(t.RRFK+1)/(t.RRFK+float64(r)+1))
		c := cands[it.RID]
		if c == nil {
			c = &cand{rid: it.RID}
			cands[it.RID] = c
		}
		c.rel += contrib
		c.addVia(path)
		if lexical {
			c.lexical = true
		}
	}
}

// retrieve runs the paths and fuses them into hydrated candidates: each path in turn (see
// paths.go), then the best Keep candidates are loaded through the filter, credited for the
// keywords they hold verbatim, and pass relevance to their neighbouring turns. The vector path
// needs nothing the lexical ones find, so it runs beside them (on another core when there is
// one) and joins the fusion in its fixed place. Each step is reported to the trace hook under
// its name; "vector" is the time spent waiting for the vector path after the lexical ones.
func (s *Service) retrieve(ctx context.Context, q string, a Analysis, f memory.Filter, w memory.TimeWindow, bestEffort bool) (map[int64]*cand, []Warning, error) {
	t := s.t
	fu := &fusion{t: t, cands: map[int64]*cand{}}
	vec := s.startVectors(ctx, q, a, f, bestEffort)
	defer vec.stop()
	t0 := time.Now()
	stats, err := s.keywordStats(ctx, a)
	if err != nil {
		return nil, nil, err
	}
	t0 = s.step("stats", t0)
	words, err := s.wordsPath(ctx, a, stats, f, w)
	if err != nil {
		return nil, nil, err
	}
	fu.add("words", t.WWords, words, false, true)
	t0 = s.step("words", t0)
	cjk, err := s.cjkPath(ctx, a, stats, f, w)
	if err != nil {
		return nil, nil, err
	}
	fu.add("cjk", t.WCJK, cjk, false, true)
	expansions, err := s.expansionPath(ctx, a, f, w)
	if err != nil {
		return nil, nil, err
	}
	fu.add("expansion", t.WExpansion, expansions, false, true)
	t0 = s.step("expansion", t0)
	trigrams, err := s.trigramPath(ctx, a, len(words), f, w)
	if err != nil {
		return nil, nil, err
	}
	fu.add("trigram", trigramWeight(t, a), trigrams, false, true)
	t0 = s.step("trigram", t0)
	substrings, err := s.substringPath(ctx, q, a, f, w)
	if err != nil {
		return nil, nil, err
	}
	fu.add("substring", t.WSubstring, substrings, false, true)
	facets, err := s.facetPath(ctx, a, f)
	if err != nil {
		return nil, nil, err
	}
	// Each facet hit is a list of its own: they answer the question equally, and a rank among
	// them (the store's order) would decide between two of the person's preferences before
	// the words of the question do.
	for _, it := range facets {
		fu.add("facet", t.WFacet, []memory.RankedRID{it}, true, true)
	}
	if !a.relaxed {
		hops, err := s.graphPath(ctx, q, f, w)
		if err != nil {
			return nil, nil, err
		}
		fu.add("graph", t.WGraph, hops, false, true)
	}
	t0 = s.step("substring", t0)
	vlist, warns, err := vec.wait()
	if err != nil {
		return nil, nil, err
	}
	s.addVectors(fu, vlist)
	t0 = s.step("vector", t0)
	cands := fu.cands
	if len(cands) == 0 {
		return cands, warns, nil
	}
	if err := s.hydrate(ctx, cands, keepBest(cands, t.Keep), f, w); err != nil {
		return nil, nil, err
	}
	t0 = s.step("hydrate", t0)
	if t.WSurface > 0 {
		addSurface(stats, cands, t.WSurface)
	}
	t0 = s.step("surface", t0)
	if err := s.addContext(ctx, cands, f, w); err != nil {
		return nil, nil, err
	}
	s.step("context", t0)
	return cands, warns, nil
}

// pendingVectors is a vector path running beside the lexical ones.
type pendingVectors struct {
	done   chan struct{}
	cancel context.CancelFunc
	list   []memory.RankedRID
	warns  []Warning
	err    error
}

// startVectors starts the vector path on its own goroutine.
func (s *Service) startVectors(ctx context.Context, q string, a Analysis, f memory.Filter, bestEffort bool) *pendingVectors {
	vctx, cancel := context.WithCancel(ctx)
	p := &pendingVectors{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(p.done)
		p.list, p.warns, p.err = s.vectorHits(vctx, q, a, f, bestEffort)
	}()
	return p
}

// wait returns the vector path's answer once it is there.
func (p *pendingVectors) wait() ([]memory.RankedRID, []Warning, error) {
	<-p.done
	return p.list, p.warns, p.err
}

// stop cancels the vector path if it still runs (a lexical path failed) and waits for it, so
// that nothing of a search outlives it.
func (p *pendingVectors) stop() {
	p.cancel()
	<-p.done
}

// keepBest drops all but the keep candidates of highest relevance (ties by row id) and returns
// the row ids left. Only those are loaded: the ranking multipliers reorder near-ties, they do
// not lift the tail of a long list into the top.
func keepBest(cands map[int64]*cand, keep int) []int64 {
	rids := make([]int64, 0, len(cands))
	for rid := range cands {
		rids = append(rids, rid)
	}
	if keep > 0 && len(rids) > keep {
		sort.Slice(rids, func(i, j int) bool {
			ci, cj := cands[rids[i]], cands[rids[j]]
			if ci.rel != cj.rel {
				return ci.rel > cj.rel
			}
			return rids[i] < rids[j]
		})
		for _, rid := range rids[keep:] {
			delete(cands, rid)
		}
		rids = rids[:keep]
	}
	return rids
}

// hydrate loads the candidates' memories through the filter again and marks which count as
// evidence (a lexical match, or a cosine above VecFloor).
func (s *Service) hydrate(ctx context.Context, cands map[int64]*cand, rids []int64, f memory.Filter, w memory.TimeWindow) error {
	mems, err := s.store.HydrateRIDs(ctx, rids, f, w)
	if err != nil {
		return err
	}
	for rid, c := range cands {
		m := mems[rid]
		if m == nil {
			// Gone, or outside the filter (a vector backend may name anything): dropped.
			delete(cands, rid)
			continue
		}
		c.m = m
		c.evidence = c.lexical || c.vecCos >= s.t.VecFloor
	}
	return nil
}
