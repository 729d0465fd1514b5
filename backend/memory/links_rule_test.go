package memory

import (
	"testing"

	"engram/backend/text/wikilink"
)

// The reader (ResolveLinks) and the graph (GraphData's Links) follow one rule for which memory
// a [[name]] names. The reader compared slugs exactly and titles in ASCII case and looked in
// the global scope too; the graph folded names (case, width, punctuation) and looked only in
// the link's own scope instance, taking the first row among equals: "[[ＤＥＰＬＯＹ ＧＵＩＤＥ]]"
// linked a memory in the graph and none in the reader, a project's "[[Deploy Guide]]" opened
// the global memory in the reader and an entity in the graph, and after a retitle made a title
// fold to another memory's slug the two opened different memories.
func TestReaderAndGraphResolveLinksAlike(t *testing.T) {
	e := newEnv(t)
	wdP, wdQ := t.TempDir(), t.TempDir()
	glob := func(slug, title string) string {
		return e.ok(wr(slug, title, "About "+title)).ID
	}
	proj := func(wd, slug, title, body string) *Memory {
		it := wr(slug, title, body)
		it.Scope, it.Workdir, it.Type = ScopeProject, wd, TypeProject
		m, err := e.s.Get(e.ctx, e.ok(it).ID)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	guide := glob("deploy-guide", "Deploy Guide")
	habits := glob("habits", "Habits")
	zh := glob("notes-zh", "川菜偏好")
	checklist := glob("release-checklist", "Checklist")
	renamed := glob("old-name", "Old Name")
	// Retitled onto the folded form of another memory's slug: the slug keeps the name.
	e.ok(Item{Op: OpUpdate, Scope: ScopeGlobal, Slug: "old-name", Title: sp("Release Checklist")})
	retitled := glob("ops-notes", "Pager Duty")
	e.ok(Item{Op: OpUpdate, Scope: ScopeGlobal, Slug: "ops-notes", Title: sp("On-Call Runbook")})

	// A keeper of a merge: the merged-away memory's title is an alias, its slug superseded.
	keeperIt := wr("uses-neovim", "Uses Neovim", "Neovim with lazy.nvim.")
	keeperIt.Aliases, keeperIt.Supersedes = []string{"Uses Vim", "Deploy Guide"}, []string{"uses-vim"}
	keeper := e.ok(keeperIt).ID

	const links = "[[Uses Vim]] [[uses-vim]] [[USES VIM]] [[deploy-guide]] [[ＤＥＰＬＯＹ ＧＵＩＤＥ]] [[HABITS]] [[ｈａｂｉｔｓ]] [[川菜偏好]] [[Old Name]] " +
		"[[release checklist]] [[Release Checklist]] [[on-call runbook]] [[Pager Duty]] [[OPS notes]] [[deploy]] [[billing]] [[Acme]]"
	e.ok(wr("linker", "Linker", links))
	deploy := proj(wdP, "deploy", "Deploy", "Helm.")
	inP := proj(wdP, "p-links", "P Links", links)
	proj(wdQ, "billing", "Billing", "Stripe.")

	global := LinkFrom{Scope: ScopeGlobal}
	project := LinkFrom{Scope: ScopeProject, ScopeKey: inP.ScopeKey()}
	for _, tc := range []struct {
		from LinkFrom
		name string
		want string // the memory's id, "" for none (an entity)
	}{
		{global, "Uses Vim", keeper}, // an alias
		{global, "USES VIM", keeper},
		{global, "uses-vim", keeper},  // a superseded slug
		{project, "uses-vim", keeper}, // a global memory's alias from a project
		{global, "deploy-guide", guide},
		{global, "ＤＥＰＬＯＹ ＧＵＩＤＥ", guide}, // full width; a title beats another memory's alias
		{global, "HABITS", habits},      // case
		{global, "ｈａｂｉｔｓ", habits},
		{global, "川菜偏好", zh},
		{global, "Old Name", renamed},            // its slug still names it
		{global, "Release Checklist", checklist}, // a slug beats the retitled title
		{global, "release checklist", checklist},
		{global, "on-call runbook", retitled}, // the new title
		{global, "Pager Duty", ""},            // the old title names nothing after the retitle
		{global, "OPS notes", retitled},       // the slug stays
		{global, "deploy", ""},                // project P's memory: never from global
		{global, "billing", ""},
		{global, "Acme", ""},
		{project, "deploy", deploy.ID},   // the project's own
		{project, "ＤＥＰＬＯＹ ＧＵＩＤＥ", guide}, // a global memory from a project
		{project, "ｈａｂｉｔｓ", habits},
		{project, "billing", ""}, // project Q's memory: never across projects
		{project, "Release Checklist", checklist},
		{project, "Pager Duty", ""},
		{project, "on-call runbook", retitled},
	} {
		found, err := e.s.ResolveLinks(e.ctx, tc.from, []string{tc.name})
		if err != nil {
			t.Fatal(err)
		}
		reader := found[tc.name].ID
		d, err := e.s.GraphData(e.ctx)
		if err != nil {
			t.Fatal(err)
		}
		graph, entity := "", false
		norm := wikilink.Norm(tc.name)
		for _, en := range d.Entities {
			if en.Scope != tc.from.Scope || en.ScopeKey != tc.from.ScopeKey || en.Norm != norm {
				continue
			}
			entity = true
			for _, l := range d.Links {
				if l.Entity == en.ID {
					for _, m := range d.Memories {
						if m.RID == l.MemoryRID {
							graph = m.ID
						}
					}
				}
			}
		}
		if !entity {
			t.Errorf("%s [[%s]]: no entity in the graph", tc.from.Scope, tc.name)
		}
		if reader != tc.want || graph != tc.want {
			t.Errorf("%s [[%s]]: reader opens %q, graph links %q, want %q", tc.from.Scope, tc.name, reader, graph, tc.want)
		}
	}
	// The reader's cached names follow a retitle at once (the graph generation moves).
	if found, _ := e.s.ResolveLinks(e.ctx, global, []string{"Billing Notes"}); found["Billing Notes"].ID != "" {
		t.Fatalf("[[Billing Notes]] before the retitle: %+v", found)
	}
	e.ok(Item{Op: OpUpdate, ID: habits, Title: sp("Billing Notes")})
	if found, _ := e.s.ResolveLinks(e.ctx, global, []string{"Billing Notes", "Habits"}); found["Billing Notes"].ID != habits || found["Habits"].ID != habits {
		t.Fatalf("after the retitle: %+v", found)
	}
}
