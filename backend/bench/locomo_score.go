//go:build bench

package bench

// locomoScore accumulates ranks per category.
type locomoScore struct {
	byCat map[string]*LocomoMetrics
	all   LocomoMetrics
}

func newLocomoScore() *locomoScore { return &locomoScore{byCat: map[string]*LocomoMetrics{}} }

// add records one question whose first evidence hit is at rank (0-based), or -1 for none.
func (s *locomoScore) add(cat string, rank int) {
	m := s.byCat[cat]
	if m == nil {
		m = &LocomoMetrics{}
		s.byCat[cat] = m
	}
	for _, x := range []*LocomoMetrics{m, &s.all} {
		x.N++
		if rank < 0 {
			continue
		}
		if rank < 1 {
			x.R1++
		}
		if rank < 5 {
			x.R5++
		}
		if rank < 10 {
			x.R10++
		}
		if rank < 20 {
			x.R20++
			x.MRR += 1 / float64(rank+1)
		}
	}
}

func (s *locomoScore) set() LocomoSet {
	norm := func(m LocomoMetrics) LocomoMetrics {
		if m.N == 0 {
			return m
		}
		n := float64(m.N)
		return LocomoMetrics{R1: m.R1 / n, R5: m.R5 / n, R10: m.R10 / n, R20: m.R20 / n, MRR: m.MRR / n, N: m.N}
	}
	out := LocomoSet{Overall: norm(s.all), ByCategory: map[string]LocomoMetrics{}}
	for c, m := range s.byCat {
		out.ByCategory[c] = norm(*m)
	}
	return out
}
