package memory

import (
	"fmt"
	"testing"
)

func TestHydrateRIDs(t *testing.T) {
	// Long lists are loaded in two halves at once: the answer must be the same as one query's,
	// with the filter applied to every row and unknown rows left out, whatever the length.
	e := newEnv(t)
	var items []Item
	for i := 0; i < 150; i++ {
		it := wr(fmt.Sprintf("note-%03d", i), fmt.Sprintf("Note %d", i), fmt.Sprintf("body of note %d", i))
		if i%3 == 0 {
			it.Scope, it.Workdir = ScopeProject, "/work/alpha"
		}
		if i%10 == 0 {
			it.Tags = []string{"tagged", fmt.Sprint(i)}
		}
		items = append(items, it)
	}
	res := e.batch(ActorUser, items...)
	if res.Failed != 0 {
		t.Fatalf("%d failed", res.Failed)
	}
	ids := make([]string, len(res.Results))
	for i, r := range res.Results {
		ids[i] = r.ID
	}
	byID, err := e.s.RIDsOfIDs(e.ctx, ids)
	if err != nil || len(byID) != len(ids) {
		t.Fatalf("RIDsOfIDs: %d of %d, %v", len(byID), len(ids), err)
	}
	for _, n := range []int{0, 1, hydrateSplitFrom - 1, hydrateSplitFrom, len(ids)} {
		for _, f := range []Filter{{}, {Scope: ScopeProject, Workdir: "/work/alpha"}} {
			rids := []int64{987654321} // no such row
			want := map[int64]int{}
			for i := 0; i < n; i++ {
				rid := byID[ids[i]]
				rids = append(rids, rid)
				if f.Scope == "" || i%3 == 0 {
					want[rid] = i
				}
			}
			got, err := e.s.HydrateRIDs(e.ctx, rids, f, TimeWindow{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d rows, filter %+v: %d loaded, want %d", n, f, len(got), len(want))
			}
			for rid, i := range want {
				m := got[rid]
				if m == nil || m.ID != ids[i] || m.Slug != fmt.Sprintf("note-%03d", i) {
					t.Fatalf("%d rows: rid %d loaded as %+v, want note %d", n, rid, m, i)
				}
				if i%10 == 0 && (len(m.Tags) != 2 || m.Tags[0] != "tagged") {
					t.Fatalf("note %d tags %q", i, m.Tags)
				}
				// An empty list stays an empty list (it encodes as [], not null).
				if m.Aliases == nil || (i%10 != 0 && m.Tags == nil) {
					t.Fatalf("note %d: empty lists came back nil: aliases %v tags %v", i, m.Aliases, m.Tags)
				}
			}
		}
	}
}
