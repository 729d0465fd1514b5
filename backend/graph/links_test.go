package graph

import (
	"errors"
	"testing"

	"engram/backend/memory"
)

// A link to a heading or block of a note ([[Alice#History]], [[Alice#^b1|there]]) names the
// entity Alice; renaming or merging Alice rewrote the whole link to [[Alicia]], so which part
// of the note it pointed at was lost, and deleting Alice left "Alice" where the reader showed
// "Alice#History". The heading is kept by every rewrite.
func TestEditsKeepLinkHeadings(t *testing.T) {
	st, ctx := openStore(t)
	id := write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "notes",
		Body: sp("See [[Alice#History]], [[Alice#^b1|there]] and [[Bob#Work]].\n\n- [[Alice]] knows [[Carol#Team]]")})
	s := New(st)
	all := View{All: true}
	body := func() string {
		m, err := st.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return m.Body
	}
	steps := []struct {
		name string
		do   func() error
		want string
	}{
		{"rename", func() error { _, err := s.Rename(ctx, all, memory.ActorUser, "Alice", "Alicia"); return err },
			"See [[Alicia#History]], [[Alicia#^b1|there]] and [[Bob#Work]].\n\n- [[Alicia]] knows [[Carol#Team]]"},
		{"merge", func() error { _, err := s.Merge(ctx, all, memory.ActorUser, "Alicia", []string{"Bob"}); return err },
			"See [[Alicia#History]], [[Alicia#^b1|there]] and [[Alicia#Work|Bob]].\n\n- [[Alicia]] knows [[Carol#Team]]"},
		{"delete", func() error { _, err := s.Delete(ctx, all, memory.ActorUser, "Carol"); return err },
			"See [[Alicia#History]], [[Alicia#^b1|there]] and [[Alicia#Work|Bob]].\n\n- [[Alicia]] knows Carol#Team"},
	}
	for _, step := range steps {
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if got := body(); got != step.want {
			t.Fatalf("%s:\n got %q\nwant %q", step.name, got, step.want)
		}
	}
}

// An entity whose name is a memory's slug or title is that memory to every link naming it: the
// reader opens the memory, the graph lists it. Renaming the entity rewrote [[uses-neovim]] to
// [[Helix notes]], a name no memory has, so every link to the memory broke and nothing said
// so; merging it into another entity did the same. Both are refused (graph_names_memory,
// naming the memory) and nothing is rewritten; merging another entity into it still works,
// and its links then open the memory.
func TestEditsNeverBreakLinksToAMemory(t *testing.T) {
	st, ctx := openStore(t)
	write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "uses-neovim",
		Title: sp("Uses Neovim"), Body: sp("The person edits with Neovim.")})
	linker := write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "editor-setup",
		Body: sp("See [[uses-neovim]] and [[Uses Neovim#Keys]].\n\n- [[Vim]] knows [[Helix]]")})
	s := New(st)
	all := View{All: true}
	before, err := st.Get(ctx, linker)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		do   func() ([]MemoryRef, error)
	}{
		{"rename by slug", func() ([]MemoryRef, error) { return s.Rename(ctx, all, memory.ActorUser, "uses-neovim", "Helix notes") }},
		{"rename by title", func() ([]MemoryRef, error) { return s.Rename(ctx, all, memory.ActorUser, "Uses Neovim", "Helix notes") }},
		{"merge it away", func() ([]MemoryRef, error) {
			return s.Merge(ctx, all, memory.ActorUser, "Vim", []string{"uses-neovim"})
		}},
	} {
		changed, err := tc.do()
		var ge *Error
		if !errors.As(err, &ge) || ge.Code != CodeNamesMemory || len(changed) != 0 {
			t.Fatalf("%s: %+v %v, want %s", tc.name, changed, err, CodeNamesMemory)
		}
		if ge.Args["Slug"] != "uses-neovim" || ge.Args["Title"] != "Uses Neovim" {
			t.Fatalf("%s: args %v", tc.name, ge.Args)
		}
		if m, _ := st.Get(ctx, linker); m.Body != before.Body {
			t.Fatalf("%s rewrote the links: %q", tc.name, m.Body)
		}
	}
	// Other entities are renamed as before, and one merged into the memory's entity links to it.
	if _, err := s.Rename(ctx, all, memory.ActorUser, "Helix", "Helix Editor"); err != nil {
		t.Fatalf("rename an entity that is no memory: %v", err)
	}
	if _, err := s.Merge(ctx, all, memory.ActorUser, "uses-neovim", []string{"Vim"}); err != nil {
		t.Fatalf("merge into the memory's entity: %v", err)
	}
	mem, err := s.EntityMemories(ctx, all, "Vim")
	if err != nil || len(mem) != 2 {
		t.Fatalf("after the merge Vim names the memory's entity: %+v %v", mem, err)
	}
}

// A body that ends inside a fenced code block never closed (CommonMark runs it to the end)
// took an added relation line in as code: AddRelation said one memory was rewritten and the
// graph showed no relation. The block is closed where it ended, then the line follows, and the
// graph has the relation; a closed block, or none, is left as it was.
func TestAddRelationAfterAnOpenCodeBlock(t *testing.T) {
	st, ctx := openStore(t)
	s := New(st)
	all := View{All: true}
	for i, tc := range []struct{ body, want string }{
		{"Run this:\n\n```sh\nmake ship", "Run this:\n\n```sh\nmake ship\n```\n\n- [[Alice]] knows [[Bob]]"},
		{"Run this:\n\n~~~~\n- [[Zed]] knows [[Yan]]\n", "Run this:\n\n~~~~\n- [[Zed]] knows [[Yan]]\n~~~~\n\n- [[Alice]] knows [[Bob]]"},
		{"Run this:\n\n```\nmake\n```", "Run this:\n\n```\nmake\n```\n\n- [[Alice]] knows [[Bob]]"},
		{"Notes.\n\n- [[Alice]] knows [[Carol]]", "Notes.\n\n- [[Alice]] knows [[Carol]]\n- [[Alice]] knows [[Bob]]"},
	} {
		id := write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference,
			Slug: "fence-case-" + string(rune('a'+i)), Body: sp(tc.body)})
		if _, err := s.AddRelation(ctx, all, memory.ActorUser, id, "Alice", "knows", "Bob"); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		m, err := st.Get(ctx, id)
		if err != nil || m.Body != tc.want {
			t.Fatalf("%d:\n got %q\nwant %q (%v)", i, m.Body, tc.want, err)
		}
		p, err := s.Path(ctx, all, "Alice", "Bob", 1, Filter{})
		if err != nil || !p.Found {
			t.Fatalf("%d: the added relation is not in the graph: %+v %v", i, p, err)
		}
		if _, err := s.DeleteRelation(ctx, all, memory.ActorUser, p.Hops[0].Edge.ID); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
	}
}

// A path search that found nothing within its hops said only "no path", the same as for two
// entities nothing joins: Longer now gives the hops of the shortest path there is (over the
// relation types asked for), 0 when there is none.
func TestPathSaysWhenItIsOnlyTooFar(t *testing.T) {
	st, ctx := openStore(t)
	write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "chain",
		Body: sp("- [[A]] knows [[B]]\n- [[B]] knows [[C]]\n- [[C]] knows [[D]]\n- [[D]] knows [[E]]\n- [[E]] knows [[F]]\n- [[F]] uses [[G]]\n- [[Island]] knows [[Isle]]")})
	s := New(st)
	all := View{All: true}
	for _, tc := range []struct {
		from, to string
		hops     int
		rels     []string
		found    bool
		longer   int
	}{
		{"A", "F", 0, nil, false, 5},               // the default walks 4
		{"A", "F", 5, nil, true, 0},                // found when asked to walk 5
		{"A", "G", 4, nil, false, 6},               // the relation type changes nothing here...
		{"A", "G", 4, []string{"knows"}, false, 0}, // ...but only knows never reaches G
		{"A", "Island", 6, nil, false, 0},          // nothing joins them
	} {
		p, err := s.Path(ctx, all, tc.from, tc.to, tc.hops, Filter{RelationTypes: tc.rels})
		if err != nil || p.Found != tc.found || p.Longer != tc.longer {
			t.Errorf("path %s → %s (hops %d, %v): found %v longer %d (%v), want %v %d", tc.from, tc.to, tc.hops, tc.rels, p.Found, p.Longer, err, tc.found, tc.longer)
		}
	}
}

// Renaming an entity to the slug or title of a memory of its scope turned every mention of it
// into a link to that memory (the reader opened it, the graph listed it as the entity's), a
// memory about something else, without a word. It is refused (graph_name_is_memory, naming
// the memory) and nothing is rewritten; a memory of another scope does not count.
func TestRenameOntoAMemorysNameIsRefused(t *testing.T) {
	st, ctx := openStore(t)
	wd := t.TempDir()
	write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "release-notes",
		Title: sp("Release notes"), Body: sp("Ship on Fridays.")})
	write(t, st, ctx, memory.Item{Scope: memory.ScopeProject, Workdir: wd, Type: memory.TypeProject, Slug: "runbook",
		Title: sp("Runbook"), Body: sp("Restart the pods.")})
	id := write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "tools",
		Body: sp("We use [[Deploy bot]].\n\n- [[Ann]] uses [[Deploy bot]]")})
	s := New(st)
	all := View{All: true}
	for _, name := range []string{"Release notes", "release-notes", "RELEASE NOTES"} {
		changed, err := s.Rename(ctx, all, memory.ActorUser, "Deploy bot", name)
		var ge *Error
		if !errors.As(err, &ge) || ge.Code != CodeNameIsMemory || len(changed) != 0 || ge.Args["Slug"] != "release-notes" || ge.Args["From"] != "Deploy bot" {
			t.Fatalf("rename to %q: %+v %v, want %s", name, changed, err, CodeNameIsMemory)
		}
	}
	if m, _ := st.Get(ctx, id); m.Body != "We use [[Deploy bot]].\n\n- [[Ann]] uses [[Deploy bot]]" {
		t.Fatalf("a refused rename rewrote the body: %q", m.Body)
	}
	// A project memory's title is no name in the global scope.
	if _, err := s.Rename(ctx, all, memory.ActorUser, "Deploy bot", "Runbook"); err != nil {
		t.Fatalf("rename to another scope's memory title: %v", err)
	}
}
