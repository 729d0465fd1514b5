package memory

import (
	"slices"
	"testing"
	"time"
)

// TestListVersionsMatchesList checks that ListVersions selects and orders rows as List does
// (the facet path relies on it), and that LoadRIDs loads what it names.
func TestListVersionsMatchesList(t *testing.T) {
	e := newEnv(t)
	for _, it := range []Item{wr("home-a", "A", "I live in Porto."), wr("drink-b", "B", "I drink tea."), wr("born-c", "C", "Born in 1990.")} {
		e.ok(it)
		e.clock.Advance(time.Minute)
	}
	proj := wr("build-p", "P", "The build runs vet first.")
	proj.Type = TypeProject
	e.ok(proj)
	f := Filter{Type: TypeUser, Limit: 2}
	list, _, err := e.s.List(e.ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := e.s.ListVersions(e.ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || len(list) != 2 {
		t.Fatalf("ListVersions %d rows, List %d, want 2 each", len(rows), len(list))
	}
	var rids []int64
	for i, r := range rows {
		if r.ID != list[i].ID || r.Version != list[i].Version || r.Version == "" {
			t.Fatalf("row %d: %+v, List has %s %s", i, r, list[i].ID, list[i].Version)
		}
		rids = append(rids, r.RID)
	}
	loaded, err := e.s.LoadRIDs(e.ctx, append(rids, 999999))
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded) != 2 {
		t.Fatalf("LoadRIDs loaded %d rows, want 2 (an unknown rid is absent)", len(loaded))
	}
	var bodies []string
	for _, m := range loaded {
		bodies = append(bodies, m.Body)
	}
	slices.Sort(bodies)
	if !slices.Equal(bodies, []string{"Born in 1990.", "I drink tea."}) {
		t.Fatalf("loaded %q: want the two most recent user memories", bodies)
	}
	if _, err := e.s.ListVersions(e.ctx, Filter{Type: "nonsense"}); err == nil {
		t.Fatal("an invalid type was accepted")
	}
}
