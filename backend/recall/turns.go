package recall

import (
	"context"
	"sort"

	"engram/backend/memory"
)

// addContext passes relevance along recorded conversations: the turn after a hit often holds
// the answer (most of all when the hit is a question), the turn before it the setting. The
// neighbours are loaded through the same filter.
func (s *Service) addContext(ctx context.Context, cands map[int64]*cand, f memory.Filter, w memory.TimeWindow) error {
	t := s.t
	if t.Fwd == 0 && t.FwdQuestion == 0 && t.Back == 0 {
		return nil
	}
	// The best ContextTop turns pass relevance on; weaker ones would only add noise and cost.
	var top []*cand
	for _, c := range cands {
		if c.rel > 0 && c.m.Source.Session != "" && c.m.Source.Turn > 0 {
			top = append(top, c)
		}
	}
	sort.Slice(top, func(i, j int) bool {
		if top[i].rel != top[j].rel {
			return top[i].rel > top[j].rel
		}
		return top[i].rid < top[j].rid
	})
	if t.ContextTop > 0 && len(top) > t.ContextTop {
		top = top[:t.ContextTop]
	}
	var keys []memory.TurnKey
	for _, c := range top {
		src := c.m.Source
		keys = append(keys, memory.TurnKey{Session: src.Session, Turn: src.Turn - 1},
			memory.TurnKey{Session: src.Session, Turn: src.Turn + 1})
	}
	if len(keys) == 0 {
		return nil
	}
	byTurn, err := s.store.TurnRIDs(ctx, keys)
	if err != nil {
		return err
	}
	var missing []int64
	for _, rid := range byTurn {
		if cands[rid] == nil {
			missing = append(missing, rid)
		}
	}
	more, err := s.store.HydrateRIDs(ctx, missing, f, w)
	if err != nil {
		return err
	}
	base := make(map[int64]float64, len(top))
	evid := make(map[int64]bool, len(top))
	for _, c := range top {
		base[c.rid] = c.rel
		evid[c.rid] = c.evidence
	}
	for rid, m := range more {
		cands[rid] = &cand{rid: rid, m: m}
	}
	give := func(from *cand, key memory.TurnKey, share float64) {
		rid, ok := byTurn[key]
		if !ok || share <= 0 {
			return
		}
		to := cands[rid]
		if to == nil || to == from {
			return
		}
		to.rel += share * base[from.rid]
		to.addVia("context")
		if evid[from.rid] {
			to.evidence = true
		}
	}
	for _, c := range top {
		src := c.m.Source
		fwd := t.Fwd
		if interrogative(c.m.Body) {
			fwd = t.FwdQuestion
		}
		give(c, memory.TurnKey{Session: src.Session, Turn: src.Turn + 1}, fwd)
		give(c, memory.TurnKey{Session: src.Session, Turn: src.Turn - 1}, t.Back)
	}
	return nil
}
