package vector

import "slices"

type cand struct {
	i int
	s float32
}

// better orders candidates: the higher score, and on a tie the lower row, so that the result
// does not depend on how the rows were split between goroutines.
func better(a, b cand) bool { return a.s > b.s || (a.s == b.s && a.i < b.i) }

// topK keeps the limit best candidates offered, in a min-heap whose root is the worst kept.
type topK struct {
	items []cand
	limit int
}

func newTopK(limit int) topK { return topK{items: make([]cand, 0, limit), limit: limit} }

// admits reports whether a candidate scoring s at row i would be kept: always while the heap
// is not full, else when it beats the worst kept. A scan asks this before anything costlier.
func (t *topK) admits(i int, s float32) bool {
	return len(t.items) < t.limit || better(cand{i, s}, t.items[0])
}

func (t *topK) offer(i int, s float32) {
	c := cand{i, s}
	if len(t.items) < t.limit {
		t.items = append(t.items, c)
		t.up(len(t.items) - 1)
		return
	}
	if t.limit > 0 && better(c, t.items[0]) {
		t.items[0] = c
		t.down(0)
	}
}

func (t *topK) up(j int) {
	h := t.items
	for j > 0 {
		p := (j - 1) / 2
		if !better(h[p], h[j]) {
			break
		}
		h[p], h[j] = h[j], h[p]
		j = p
	}
}

func (t *topK) down(j int) {
	h := t.items
	n := len(h)
	for {
		l := 2*j + 1
		if l >= n {
			return
		}
		w := l // the worse child
		if r := l + 1; r < n && better(h[l], h[r]) {
			w = r
		}
		if !better(h[j], h[w]) {
			return
		}
		h[j], h[w] = h[w], h[j]
		j = w
	}
}

// sorted returns the kept candidates best first (the heap is left unordered).
func (t *topK) sorted() []cand {
	out := slices.Clone(t.items)
	slices.SortFunc(out, func(a, b cand) int {
		if better(a, b) {
			return -1
		}
		if better(b, a) {
			return 1
		}
		return 0
	})
	return out
}
