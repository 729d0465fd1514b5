package graph

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"engram/backend/memory"
)

// sharpBody names languages whose '#' is part of the name beside the names without it, and an
// Obsidian heading link, which stays a link to the note's entity.
const sharpBody = "- [[Alice]] uses [[C#]]\n- [[Bob]] uses [[C]]\n- [[Carol]] uses [[F#]]\n- [[Dave]] uses [[F]]\n" +
	"- [[Erin]] uses [[C#/.NET]]\n- [[Frank]] reads [[Acme#History]]\n- [[Gina]] works_at [[Acme]]\n" +
	"- [[Hal]] uses [[C++/CLI]]\n- [[Ivy]] uses [[Node.js]]\n- [[Jo]] uses [[NodeJS]]"

// checkSharpNames asserts C# is not C, F# is not F, and a heading link still reaches Acme.
func checkSharpNames(t *testing.T, ctx context.Context, s *Service) {
	t.Helper()
	all := View{All: true}
	for _, tc := range []struct {
		from, to string
		found    bool
	}{
		{"Bob", "Alice", false}, // C# was C
		{"Dave", "Carol", false},
		{"Erin", "Bob", false},
		{"Erin", "Alice", false},
		{"Frank", "Gina", true}, // [[Acme#History]] is a heading of Acme
		{"Ivy", "Jo", true},     // Node.js and NodeJS are one name
		{"c#", "Alice", true},
		{"c #", "Alice", true},
	} {
		p, err := s.Path(ctx, all, tc.from, tc.to, 0, Filter{})
		if err != nil {
			t.Fatalf("path %s → %s: %v", tc.from, tc.to, err)
		}
		if p.Found != tc.found {
			t.Errorf("path %s → %s: found %v %+v, want %v", tc.from, tc.to, p.Found, p.Nodes, tc.found)
		}
	}
	for name, want := range map[string]string{"C#": "Alice", "F#": "Carol", "C#/.NET": "Erin", "C": "Bob", "C++/CLI": "Hal"} {
		n, err := s.Neighbors(ctx, all, name, 1, Filter{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(n.Nodes) != 2 || n.Nodes[0].Name != name || n.Nodes[1].Name != want {
			t.Errorf("neighbours of %s: %+v, want %s and %s", name, n.Nodes, name, want)
		}
	}
}

func TestSharpNamesAreTheirOwnEntities(t *testing.T) {
	st, ctx := openStore(t)
	write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "langs", Body: sp(sharpBody)})
	checkSharpNames(t, ctx, New(st))
}

// An index built before names kept their '#' (migration 26) held C# as C: opening it rebuilds
// the graph from the files. The old graph is stood for by an emptied one, which only that
// rebuild fills again (the files are unchanged, so a reconcile reads none of them).
func TestOpeningAnOldIndexRebuildsSharpNames(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	st, err := memory.Open(ctx, home, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "langs", Body: sp(sharpBody)})
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(home, "memory", "index.sqlite3")+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DELETE FROM graph_entities`, `DELETE FROM schema_migrations WHERE version >= 26`,
		`DROP INDEX session_turns_scope`, `ALTER TABLE session_turns DROP COLUMN scope_key`,
		`ALTER TABLE session_turns DROP COLUMN workdir`} { // step 28 runs again too
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	st, err = memory.Open(ctx, home, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	checkSharpNames(t, ctx, New(st))
}
