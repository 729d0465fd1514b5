package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"testing"

	"engram/backend/embed"
)

// TestGloveDenseRanks: where the dense half alone ranks the evidence (experiment).
func TestGloveDenseRanks(t *testing.T) {
	path := os.Getenv("ENGRAM_LOCOMO")
	g, err := experimentGlove()
	if path == "" || g == nil || err != nil {
		t.Skip(err)
	}
	data, _ := os.ReadFile(path)
	var smps []locomoSample
	if err := json.Unmarshal(data, &smps); err != nil {
		t.Fatal(err)
	}
	local := embed.NewLocal(0)
	type acc struct{ n, d10, h10, either int }
	var all acc
	for _, smp := range smps {
		docs, err := locomoDocs(smp.Conversation)
		if err != nil {
			t.Fatal(err)
		}
		dv := make([][]float32, len(docs))
		hv := make([][]float32, len(docs))
		for i, d := range docs {
			dv[i] = g.Dense(d.text)
			hv[i] = local.Vector(d.text)
		}
		rank := func(q []float32, vs [][]float32, ev map[string]bool) int {
			type sc struct {
				i int
				s float32
			}
			s := make([]sc, len(vs))
			for i, v := range vs {
				s[i] = sc{i, embed.Dot(q, v)}
			}
			sort.Slice(s, func(a, b int) bool { return s[a].s > s[b].s })
			for r, x := range s {
				if ev[docs[x.i].dia] {
					return r + 1
				}
			}
			return 1 << 30
		}
		for _, qa := range smp.QA {
			cat := locomoCategory(qa.Category)
			if cat < "1" || cat > "4" || len(qa.Evidence) == 0 {
				continue
			}
			ev := map[string]bool{}
			for _, e := range qa.Evidence {
				ev[e] = true
			}
			rd := rank(g.Dense(qa.Question), dv, ev)
			rh := rank(local.Vector(qa.Question), hv, ev)
			all.n++
			if rd <= 10 {
				all.d10++
			}
			if rh <= 10 {
				all.h10++
			}
			if rd <= 10 || rh <= 10 {
				all.either++
			}
		}
	}
	fmt.Printf("questions %d: dense R@10 %.3f, hashed R@10 %.3f, either %.3f\n", all.n,
		float64(all.d10)/float64(all.n), float64(all.h10)/float64(all.n), float64(all.either)/float64(all.n))
}
