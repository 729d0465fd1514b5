//go:build bench

package vector

import (
	"context"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"engram/backend/embed"
	"engram/backend/memory"
)

// TestFirstStageOnHome measures the two-stage search on the vectors of a real home
// (ENGRAM_VECTOR_HOME, embedded with the local model, e.g. the 100k home of
// TestRecallScaleDev): how often the exact top 100 survive the first stage, against the exact
// scan and against the float32 folded first stage it replaced, and the CPU time of each.
func TestFirstStageOnHome(t *testing.T) {
	home := os.Getenv("ENGRAM_VECTOR_HOME")
	if home == "" {
		t.Skip("set ENGRAM_VECTOR_HOME to a home with local vectors")
	}
	ctx := context.Background()
	s, err := memory.Open(ctx, home, memory.Options{Logger: quiet, QuotaLimit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l := embed.NewLocal(0)
	x := NewIndex(s, l.Model())
	x.mu.Lock()
	err = x.refresh(ctx)
	x.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	// Queries like the scale bench's: two words of a stored title.
	var titles []string
	if err := s.ScanMemories(ctx, memory.Filter{}, "", func(m *memory.Memory) bool {
		titles = append(titles, m.Title)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	folded := floatFolds(x)
	all := allowAll(x)
	const limit, queries = 100, 300
	var exactT, twoT, floatT time.Duration
	var lost, lostFloat, top10Diff, top10DiffFloat int
	for q := 0; q < queries; q++ {
		w := strings.Fields(titles[r.IntN(len(titles))])
		text := strings.Join(w[:min(2, len(w))], " ")
		vec := l.Vector(text)
		c := cpuNanos()
		exact := x.exact(vec, limit, all)
		c1 := cpuNanos()
		two := x.twoStage(vec, limit, all)
		c2 := cpuNanos()
		ref := floatTwoStage(x, folded, vec, limit)
		c3 := cpuNanos()
		exactT += time.Duration(c1 - c)
		twoT += time.Duration(c2 - c1)
		floatT += time.Duration(c3 - c2)
		lost += missing(exact, two)
		lostFloat += missing(exact, ref)
		if missing(exact[:10], two[:10]) > 0 {
			if top10Diff < 3 {
				t.Logf("%q\n exact %v\n two   %v", text, exact[:12], two[:12])
			}
			top10Diff++
		}
		if missing(exact[:10], ref[:10]) > 0 {
			top10DiffFloat++
		}
	}
	t.Logf("%d rows, %d queries of two title words, limit %d", len(x.meta), queries, limit)
	t.Logf("exact top %d missed by the int8 first stage: %d of %d (float32 folded: %d); queries whose top 10 changed: %d (float32: %d)",
		limit, lost, limit*queries, lostFloat, top10Diff, top10DiffFloat)
	t.Logf("CPU per search: exact %v, two stages int8 %v, two stages float32 %v",
		exactT/queries, twoT/queries, floatT/queries)
}

func missing(want, got []cand) int {
	in := map[int]bool{}
	for _, c := range got {
		in[c.i] = true
	}
	n := 0
	for _, c := range want {
		if !in[c.i] {
			n++
		}
	}
	return n
}

// floatFolds is the float32 folded copy of every row, the first stage before quantization.
func floatFolds(x *Index) []float32 {
	out := make([]float32, len(x.meta)*foldDim)
	for i := range x.meta {
		fold(x.slab[i*x.dim:(i+1)*x.dim], out[i*foldDim:(i+1)*foldDim])
	}
	return out
}

// floatTwoStage is the two-stage search as it was with float32 folded rows.
func floatTwoStage(x *Index, folded, vec []float32, limit int) []cand {
	qf := make([]float32, foldDim)
	fold(vec, qf)
	first := newTopK(max(8*limit, 400))
	for i := range x.meta {
		first.offer(i, embed.Dot(qf, folded[i*foldDim:(i+1)*foldDim]))
	}
	second := newTopK(limit)
	for _, c := range first.items {
		second.offer(c.i, embed.Dot(vec, x.slab[c.i*x.dim:(c.i+1)*x.dim]))
	}
	out := second.sorted()
	sort.SliceStable(out, func(i, j int) bool { return better(out[i], out[j]) })
	return out
}
