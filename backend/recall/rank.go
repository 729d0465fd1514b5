package recall

import (
	"context"
	"math"
	"sort"
	"time"

	"engram/backend/memory"
)

// rank turns candidates into the final list.
func (s *Service) rank(ctx context.Context, a Analysis, cands map[int64]*cand, workdir string, now time.Time, limit int) ([]Hit, error) {
	t := s.t
	if len(cands) == 0 {
		return []Hit{}, nil
	}
	// Sessions holding most of the relevance lift all their turns a little.
	if t.Session > 0 {
		per := map[string][]float64{}
		for _, c := range cands {
			if sess := c.m.Source.Session; sess != "" {
				per[sess] = append(per[sess], c.rel)
			}
		}
		sum := map[string]float64{}
		best := 0.0
		for sess, v := range per {
			sort.Sort(sort.Reverse(sort.Float64Slice(v)))
			total := 0.0
			for i := 0; i < len(v) && i < 3; i++ {
				total += v[i]
			}
			sum[sess] = total
			best = math.Max(best, total)
		}
		if best > 0 {
			for _, c := range cands {
				if sess := c.m.Source.Session; sess != "" {
					c.rel *= 1 + t.Session*sum[sess]/best
				}
			}
		}
	}
	ids := make([]string, 0, len(cands))
	for _, c := range cands {
		ids = append(ids, c.m.ID)
	}
	access, err := s.store.AccessStats(ctx, ids)
	if err != nil {
		return nil, err
	}
	subjects := querySubjects(a.Query)
	loc := s.store.Location()
	// The user memories that answer an identity or preference question (facetQuery.boosts).
	facets := newFacetQuery(a, s.reads)
	if len(facets.kinds) > 0 && (facets.avoidQ || facets.permit) {
		ms := make([]*memory.Memory, 0, len(cands))
		for _, c := range cands {
			ms = append(ms, c.m)
		}
		facets.kindHeld = holdsKindAsked(facets.kinds, ms)
	}
	for _, c := range cands {
		m := c.m
		sc := c.rel
		if interrogative(m.Body) {
			sc *= t.QuestionPenalty
		}
		if a.TimeQuestion && hasTemporalMarker(m.Body) {
			sc *= 1 + t.TimeBoost
		}
		if facets.boosts(m) {
			sc *= 1 + t.FacetBoost
			if facets.labels(m) {
				sc *= titledFacetBoost
			}
			if facets.constrains(m) {
				sc *= constraintBoost
			}
			if facets.leans(m) {
				sc *= leanFacetBoost
			}
		}
		if mentionsSubject(subjects, m) {
			sc *= 1 + t.SubjectBoost
		}
		if a.Time != nil && !a.Time.Relative && a.Time.Near(m.Created, t.DateLead, t.DateSlack, loc) {
			sc *= 1 + t.DateBoost
		}
		sc *= typeWeight(a.Intent, m.Type)
		if a.Identity && readsType(m.Type, a.Facets) {
			// Who the person is lives in user memories (how to talk to them in feedback, their
			// contacts in references: facetTypes).
			sc *= 1.3
		}
		sc *= scopeWeight(m.Scope)
		if !m.Reviewed {
			sc *= 0.9
		}
		sc *= s.decayWeight(m, access[m.ID], now)
		if m.Type == memory.TypeDaily {
			age := now.Sub(m.Updated).Hours() / 24
			sc *= math.Max(math.Exp(-math.Max(age, 0)/30), 0.05)
		}
		c.score = sc
	}
	// An unreviewed memory marked conflicting with a newer one ranks below it (conflicts.go).
	s.demoteConflicting(ctx, cands)
	list := make([]*cand, 0, len(cands))
	best := 0.0
	for _, c := range cands {
		if !c.evidence || c.score <= 0 {
			continue
		}
		list = append(list, c)
		best = math.Max(best, c.score)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].rid < list[j].rid
	})
	// The floor: what scores far below the best hit is noise, not an answer.
	cut := len(list)
	for i, c := range list {
		if c.score < t.MinRelative*best {
			cut = i
			break
		}
	}
	list = list[:cut]
	list, err = s.unshadow(ctx, list, workdir)
	if err != nil {
		return nil, err
	}
	if len(list) > limit {
		list = list[:limit]
	}
	hits := make([]Hit, len(list))
	for i, c := range list {
		hits[i] = Hit{Memory: c.m, Score: c.score, Via: c.via}
	}
	return hits, nil
}

// unshadow drops global hits whose slug a live memory of the current project also uses: the
// project entry is the one that holds there.
func (s *Service) unshadow(ctx context.Context, list []*cand, workdir string) ([]*cand, error) {
	if workdir == "" {
		return list, nil
	}
	var slugs []string
	for _, c := range list {
		if c.m.Scope == memory.ScopeGlobal {
			slugs = append(slugs, c.m.Slug)
		}
	}
	if len(slugs) == 0 {
		return list, nil
	}
	shadowed, err := s.store.ShadowedSlugs(ctx, workdir, slugs)
	if err != nil {
		return nil, err
	}
	out := list[:0]
	for _, c := range list {
		if c.m.Scope == memory.ScopeGlobal && shadowed[c.m.Slug] {
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

func scopeWeight(sc memory.Scope) float64 {
	switch sc {
	case memory.ScopeProject:
		return 1.1
	case memory.ScopeAgent:
		return 1.05
	}
	return 1
}

// decayWeight is LibreFang's confidence decay: conf·e^(−rate·days since last access), boosted
// by 1+log2(access count) and capped at 1; memories never recalled count from their last
// update, and the first day is free. It maps to a weight in [0.7, 1] so that decay orders
// near-ties without burying a strong match.
func (s *Service) decayWeight(m *memory.Memory, ac memory.Access, now time.Time) float64 {
	return 0.7 + 0.3*s.DecayedConfidence(m, ac, now)
}

// DecayedConfidence is the confidence in [0, 1] after decay: high 1, medium 0.8, low 0.6, times
// e^(−rate·days since last access or update, the first day free), times 1+log2(count) for
// memories recalled more than once, capped at 1.
func (s *Service) DecayedConfidence(m *memory.Memory, ac memory.Access, now time.Time) float64 {
	base := 0.8
	switch m.Confidence {
	case memory.ConfidenceHigh:
		base = 1
	case memory.ConfidenceLow:
		base = 0.6
	}
	last := m.Updated
	if ac.Last.After(last) {
		last = ac.Last
	}
	days := now.Sub(last).Hours()/24 - 1
	c := base
	if days > 0 {
		c *= math.Exp(-s.opts.DecayRate * days)
	}
	if ac.Count > 1 {
		c *= 1 + math.Log2(float64(ac.Count))
	}
	return math.Min(c, 1)
}
