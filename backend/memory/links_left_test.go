package memory

import "testing"

// A rename or retitle that left [[links]] behind said nothing: every memory linking to the old
// slug or title now showed an entity where it opened the memory. The update now warns with
// how many memories link by the old name and which names; links by a name the memory keeps,
// or that opened another memory already, do not count; an agent is told only of its own
// scope's and global memories, never another project's.
func TestRenameWarnsOfLinksLeftBehind(t *testing.T) {
	e := newEnv(t)
	wdB := t.TempDir()
	target := e.ok(wr("丽江-notes", "Lijiang trip", "Old town."))
	e.ok(wr("by-slug", "By slug", "See [[丽江-notes]]."))
	e.ok(wr("by-title", "By title", "See [[LIJIANG TRIP]] and [[丽江-notes]]."))
	inB := wr("in-b", "In B", "Project B reads [[Lijiang Trip]].")
	inB.Scope, inB.Workdir, inB.Type = ScopeProject, wdB, TypeProject
	e.ok(inB)

	left := func(r ItemResult) (int, string) {
		for _, w := range r.Warnings {
			if w.Code == WarnLinksLeft || w.Code == WarnLinksLeftDeleted {
				return w.Args["Count"].(int), w.Args["Names"].(string)
			}
		}
		return 0, ""
	}
	// The slug changes: two global memories linked by it (project B links by the title, kept).
	r := e.ok(Item{Op: OpUpdate, ID: target.ID, NewSlug: "lijiang"})
	if n, names := left(r); n != 2 || names != "[[丽江-notes]]" {
		t.Errorf("slug rename: %d %q (%+v)", n, names, r.Warnings)
	}
	// The title changes, by an agent in project A: the global memory counts, project B's does not.
	it := Item{Op: OpUpdate, ID: target.ID, Title: sp("Lijiang 2024")}
	res := e.batch(ActorTool, it).Results[0]
	if !res.OK {
		t.Fatalf("retitle: %s %s", res.Code, res.Message)
	}
	if n, names := left(res); n != 1 || names != "[[Lijiang trip]]" {
		t.Errorf("retitle by an agent: %d %q (%+v)", n, names, res.Warnings)
	}
	// A retitle that keeps every linked name (case only) warns of nothing.
	if n, _ := left(e.ok(Item{Op: OpUpdate, ID: target.ID, Title: sp("LIJIANG 2024")})); n != 0 {
		t.Errorf("a case-only retitle warned of %d", n)
	}
	// The person is told of project B's link too.
	e.ok(Item{Op: OpUpdate, ID: target.ID, Title: sp("Lijiang trip")})
	if n, _ := left(e.ok(Item{Op: OpUpdate, ID: target.ID, Title: sp("Yunnan")})); n != 2 {
		t.Errorf("retitle by the person: %d, want 2", n)
	}
	// Deleted: the links by any of its names are left, and said so.
	e.ok(wr("to-yunnan", "To Yunnan", "See [[YUNNAN]] and [[lijiang]]."))
	e.ok(wr("to-lijiang", "To Lijiang", "See [[Lijiang]]."))
	d := e.ok(Item{Op: OpDelete, ID: target.ID})
	if n, names := left(d); n != 2 || names != "[[Yunnan]], [[lijiang]]" {
		t.Errorf("delete: %d %q (%+v)", n, names, d.Warnings)
	}
}

// A merge's links: the organizer folds "Uses Vim" into "Uses Neovim", filing the old title as
// an alias and the old slug under supersedes, then deletes the old memory. Links written to the
// old memory fell to an entity and the delete warned that they were left; they now open the
// keeper and nothing is left. Dropping the alias afterwards leaves them, and says so.
func TestLinksFollowAMergedAwayMemoryToItsKeeper(t *testing.T) {
	e := newEnv(t)
	old := e.ok(wr("vim-setup", "Uses Vim", "Vim with plugins."))
	e.ok(wr("linker", "Linker", "Editor: [[vim-setup]], see [[Uses Vim]]."))
	keeper := e.ok(wr("uses-neovim", "Uses Neovim", "Neovim."))
	e.ok(Item{Op: OpUpdate, ID: keeper.ID, Aliases: []string{"Uses Vim"}, Supersedes: []string{"vim-setup"}})
	d := e.ok(Item{Op: OpDelete, ID: old.ID})
	for _, w := range d.Warnings {
		if w.Code == WarnLinksLeftDeleted {
			t.Errorf("the delete after the merge warned of links left: %+v", w)
		}
	}
	found, err := e.s.ResolveLinks(e.ctx, LinkFrom{Scope: ScopeGlobal}, []string{"vim-setup", "Uses Vim"})
	if err != nil {
		t.Fatal(err)
	}
	if found["vim-setup"].ID != keeper.ID || found["Uses Vim"].ID != keeper.ID {
		t.Fatalf("links to the merged-away memory: %+v, want the keeper %s", found, keeper.ID)
	}
	r := e.ok(Item{Op: OpUpdate, ID: keeper.ID, Mode: "replace", Body: sp("Neovim."), Aliases: []string{}, Supersedes: []string{}})
	var left string
	for _, w := range r.Warnings {
		if w.Code == WarnLinksLeft {
			left, _ = w.Args["Names"].(string)
		}
	}
	if left != "[[Uses Vim]], [[vim-setup]]" {
		t.Errorf("dropping the aliases: links left %q (%+v)", left, r.Warnings)
	}
}
