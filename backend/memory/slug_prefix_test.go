package memory

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestSlugsNamed: a word finds the slugs that are it or start with it and a dash, only in the
// scope instances the filter makes visible, never archived ones.
func TestSlugsNamed(t *testing.T) {
	e := newEnv(t)
	a, b := filepath.Join(e.home, "a"), filepath.Join(e.home, "b")
	ids := map[string]string{}
	put := func(it Item) { ids[e.ok(it).ID] = it.Slug }
	put(wr("coffee", "Coffee", "Black."))
	put(wr("coffee-habit", "Coffee habit", "Two cups."))
	put(wr("coffees", "Coffees", "Plural is another word."))
	put(wr("my-coffee", "My coffee", "Does not start with it."))
	put(wr("coffeeshop", "Coffeeshop", "Another word."))
	proj := func(wd, slug string) Item {
		it := wr(slug, slug, "project note")
		it.Scope, it.Workdir, it.Type = ScopeProject, wd, TypeProject
		return it
	}
	put(proj(a, "coffee-in-a"))
	put(proj(b, "coffee-in-b"))
	old := e.ok(wr("coffee-archived", "Old coffee", "Archived."))
	e.ok(Item{Op: OpArchive, ID: old.ID})
	for _, tc := range []struct {
		name string
		f    Filter
		want []string
	}{
		{"global", Filter{}, []string{"coffee", "coffee-habit"}},
		{"project a", Filter{Workdir: a}, []string{"coffee", "coffee-habit", "coffee-in-a"}},
		{"project b only", Filter{Scope: ScopeProject, Workdir: b}, []string{"coffee-in-b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := e.s.SlugsNamed(e.ctx, []string{"Coffee"}, tc.f, 10)
			if err != nil {
				t.Fatal(err)
			}
			var rids []int64
			for _, r := range got {
				rids = append(rids, r.RID)
			}
			mems, err := e.s.HydrateRIDs(e.ctx, rids, Filter{Scope: ""}, TimeWindow{})
			if err != nil {
				t.Fatal(err)
			}
			var slugs []string
			for _, r := range rids {
				if m := mems[r]; m != nil {
					slugs = append(slugs, ids[m.ID])
				} else {
					slugs = append(slugs, "(hidden)")
				}
			}
			slices.Sort(slugs)
			if !slices.Equal(slugs, tc.want) {
				t.Fatalf("got %v, want %v", slugs, tc.want)
			}
		})
	}
}
