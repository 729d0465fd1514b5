package graph

import (
	"errors"
	"strings"
	"testing"

	"engram/backend/memory"
)

// Renaming an entity to a name another entity of its scope instance already answers to (its
// name or an alias, however it is cased or spaced) is a merge in disguise: it would turn
// "- [[Alice]] knows [[Bob]]" into "- [[Alice]] knows [[Alice]]", drop the relation and lose
// the old name. It is refused with graph_name_taken, naming both, and nothing is rewritten.
func TestRenameOntoAnExistingEntityIsRefused(t *testing.T) {
	st, ctx := openStore(t)
	wd := t.TempDir()
	aliceJob := write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeUser, Slug: "alice-job",
		Body: sp("- [[Alice]] knows [[Bob]]")})
	bobTools := write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "bob-tools",
		Body: sp("- [[Bob]] uses [[Postgres]]\n- [[Postgres]] alias [[PG]]\n- [[Mary Ann]] knows [[Bob]]")})
	// The same names in a project: another scope instance, never merged with the global ones.
	write(t, st, ctx, memory.Item{Scope: memory.ScopeProject, Workdir: wd, Type: memory.TypeProject, Slug: "proj",
		Body: sp("- [[Carol]] knows [[Dave]]")})
	s := New(st)
	body := func(id string) string {
		m, err := st.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return m.Body
	}
	before := map[string]string{aliceJob: body(aliceJob), bobTools: body(bobTools)}

	for _, tc := range []struct{ ref, name, taken string }{
		{"Bob", "Alice", "Alice"},
		{"Bob", "  ALICE ", "Alice"},         // case and spacing as the graph compares names
		{"Bob", "mary-ann", "Mary Ann"},      // punctuation too
		{"Alice", "pg", "Postgres"},          // an alias of another entity
		{"Mary Ann", "Postgres", "Postgres"}, // the other entity's name, not its alias
	} {
		changed, err := s.Rename(ctx, View{All: true}, memory.ActorUser, tc.ref, tc.name)
		var ge *Error
		if !errors.As(err, &ge) || ge.Code != CodeNameTaken || len(changed) != 0 {
			t.Fatalf("rename %s → %q: %+v %v, want %s", tc.ref, tc.name, changed, err, CodeNameTaken)
		}
		if ge.Args["Entity"] != tc.taken || ge.Args["From"] == "" || ge.Args["Name"] == "" {
			t.Fatalf("rename %s → %q: args %v, want Entity %s", tc.ref, tc.name, ge.Args, tc.taken)
		}
	}
	for id, b := range before {
		if got := body(id); got != b {
			t.Fatalf("a refused rename rewrote %s: %q, was %q", id, got, b)
		}
	}

	// Still a rename: its own spelling, its own alias, a free name, and a name that only an
	// entity of another scope instance has.
	if _, err := s.Rename(ctx, View{All: true}, memory.ActorUser, "Postgres", "postgres"); err != nil {
		t.Fatalf("respelling an entity: %v", err)
	}
	if _, err := s.Rename(ctx, View{All: true}, memory.ActorUser, "Bob", "Carol"); err != nil {
		t.Fatalf("a name only a project entity has: %v", err)
	}
	if got := body(aliceJob); got != "- [[Alice]] knows [[Carol]]" {
		t.Fatalf("alice-job after rename: %q", got)
	}
	if _, err := s.Rename(ctx, View{All: true}, memory.ActorUser, "Mary Ann", "Marianne"); err != nil {
		t.Fatalf("rename to a free name: %v", err)
	}
	// A merged entity's old name lives on as an alias ([[Alice|Marianne]]): renaming another
	// entity to it is refused too.
	if _, err := s.Merge(ctx, View{All: true}, memory.ActorUser, "Alice", []string{"Marianne"}); err != nil {
		t.Fatal(err)
	}
	global := View{Instances: []Instance{{Scope: memory.ScopeGlobal}}}
	changed, err := s.Rename(ctx, global, memory.ActorUser, "Carol", "Marianne")
	var ge *Error
	if !errors.As(err, &ge) || ge.Code != CodeNameTaken || ge.Args["Entity"] != "Alice" || len(changed) != 0 {
		t.Fatalf("rename onto a merged name: %+v %v", changed, err)
	}
	// Renamed to the name one of its links shows: [[Alice|Marianne]] reads [[Marianne]], not
	// [[Marianne|Marianne]].
	if _, err := s.Rename(ctx, View{All: true}, memory.ActorUser, "Alice", "Marianne"); err != nil {
		t.Fatalf("rename to its own alias: %v", err)
	}
	for id := range before {
		if got := body(id); strings.Contains(got, "[[Marianne|Marianne]]") {
			t.Fatalf("%s: %q", id, got)
		}
	}
}

// Merging two entities whose links share one memory keeps both old names: each becomes a label
// ([[Alice|Bob]], [[Alice|Robert]]) and each still finds the merged entity. Only the memory's
// first label was kept, so "Robert" found nothing after the merge.
func TestMergeKeepsEveryOldNameOfOneMemory(t *testing.T) {
	st, ctx := openStore(t)
	write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "mem-one",
		Body: sp("- [[Alice]] knows [[Zoe]]\n- [[Bob]] knows [[Carol]]\n- [[Robert]] knows [[Dave]]\n- [[bob]] knows [[Erin]]")})
	s := New(st)
	all := View{All: true}
	if _, err := s.Merge(ctx, all, memory.ActorUser, "Alice", []string{"Bob", "Robert"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Alice", "Bob", "Robert", "bob"} {
		n, err := s.Neighbors(ctx, all, name, 1, Filter{}, 0)
		if err != nil || n.Nodes[0].Name != "Alice" || len(n.Nodes) != 5 {
			t.Fatalf("%s after the merge: %+v %v", name, n.Nodes, err)
		}
	}
	es, err := s.Entities(ctx, all, "Alice", nil, 0)
	if err != nil || len(es) != 1 || strings.Join(es[0].Aliases, ",") != "Bob,Robert,bob" {
		t.Fatalf("aliases: %+v %v", es, err)
	}
}
