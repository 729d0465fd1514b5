package recall

import (
	"context"
	"math"
	"sort"
	"strings"

	"engram/backend/memory"
)

// profileFallback answers an identity question that found little from the person's profile:
// user memories, those named like a profile first, then the newest.
func (s *Service) profileFallback(ctx context.Context, f memory.Filter, have []Hit, limit int) ([]Hit, error) {
	if f.Type != "" && f.Type != memory.TypeUser {
		return nil, nil
	}
	uf := f
	uf.Type = memory.TypeUser
	uf.Limit = 200
	items, _, err := s.store.List(ctx, uf)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	low := 1.0
	for _, h := range have {
		seen[h.Memory.ID] = true
		low = math.Min(low, h.Score)
	}
	isProfile := func(m *memory.Memory) bool {
		if strings.Contains(m.Slug, "profile") || strings.Contains(m.Slug, "about-me") || strings.Contains(m.Slug, "identity") {
			return true
		}
		for _, t := range m.Tags {
			if t == "profile" || t == "identity" || t == "画像" || t == "身份" {
				return true
			}
		}
		return false
	}
	sort.SliceStable(items, func(i, j int) bool {
		pi, pj := isProfile(items[i]), isProfile(items[j])
		if pi != pj {
			return pi
		}
		if items[i].Reviewed != items[j].Reviewed {
			return items[i].Reviewed
		}
		return items[i].Updated.After(items[j].Updated)
	})
	var out []Hit
	for i, m := range items {
		if len(have)+len(out) >= limit {
			break
		}
		if seen[m.ID] {
			continue
		}
		out = append(out, Hit{Memory: m, Score: low * 0.5 / float64(i+1), Via: []string{"profile"}})
	}
	return out, nil
}
