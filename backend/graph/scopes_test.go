package graph

import (
	"errors"
	"strings"
	"testing"

	"engram/backend/memory"
)

// One name in two scope instances (global Alice, project A's Alice). Relations never cross
// instances, so a path joins two entities of one instance: the ends are tried in each instance
// both answer in (a project's Alice was taken for every "Alice", and a path to a global entity
// was "not found"). A person's view of everything names no project, so a name is the global
// entity first. Nothing of another project is ever reached.
func TestNamesInSeveralScopesResolveWhereAPathCanBe(t *testing.T) {
	st, ctx := openStore(t)
	wdA, wdB := t.TempDir(), t.TempDir()
	write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "acme-people",
		Body: sp("- [[Alice]] works_at [[Acme]]\n- [[Acme]] located_in [[Berlin]]")})
	write(t, st, ctx, memory.Item{Scope: memory.ScopeProject, Workdir: wdA, Type: memory.TypeReference, Slug: "a-team",
		Body: sp("- [[Alice]] knows [[Mallory]]\n- [[Alice]] uses [[Vault]]\n- [[Alice]] knows [[Trent]]")})
	write(t, st, ctx, memory.Item{Scope: memory.ScopeProject, Workdir: wdB, Type: memory.TypeReference, Slug: "b-team",
		Body: sp("- [[Alice]] knows [[Oscar]]")})
	keyA, err := st.Projects().Key(wdA)
	if err != nil {
		t.Fatal(err)
	}
	keyB, _ := st.Projects().Key(wdB)
	s := New(st)
	all := View{All: true}
	inA := View{Instances: []Instance{{Scope: memory.ScopeProject, Key: keyA}, {Scope: memory.ScopeGlobal}}}
	inB := View{Instances: []Instance{{Scope: memory.ScopeProject, Key: keyB}, {Scope: memory.ScopeGlobal}}}

	for _, tc := range []struct {
		name     string
		v        View
		from, to string
		want     string // the path's names, "" when none
		notFound bool
	}{
		{"person: global names first", all, "Alice", "Berlin", "Alice>Acme>Berlin", false},
		{"person: a project's entity still reached", all, "Alice", "Mallory", "Alice>Mallory", false},
		{"project A: its Alice first, global Alice for a global end", inA, "Alice", "Berlin", "Alice>Acme>Berlin", false},
		{"project A: its own", inA, "alice", "Trent", "Alice>Trent", false},
		{"project B: A's entity is not there", inB, "Alice", "Mallory", "", true},
		{"project B: its own", inB, "Alice", "Oscar", "Alice>Oscar", false},
		{"no path across instances", all, "Oscar", "Berlin", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := s.Path(ctx, tc.v, tc.from, tc.to, 0, Filter{})
			var ge *Error
			if tc.notFound {
				if !errors.As(err, &ge) || ge.Code != CodeEntityNotFound {
					t.Fatalf("path: %+v %v, want %s", p, err, CodeEntityNotFound)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, n := range p.Nodes {
				names = append(names, n.Name)
			}
			if got := strings.Join(names, ">"); got != tc.want || p.Found != (tc.want != "") {
				t.Fatalf("path %s → %s: %q found %v, want %q", tc.from, tc.to, got, p.Found, tc.want)
			}
		})
	}
	// A person naming Alice means the global one, though project A's is busier.
	n, err := s.Neighbors(ctx, all, "Alice", 1, Filter{}, 0)
	if err != nil || n.Nodes[0].Scope != memory.ScopeGlobal || len(n.Nodes) != 2 {
		t.Fatalf("person's Alice: %+v %v", n.Nodes, err)
	}
	// In project A, Alice is the project's.
	n, err = s.Neighbors(ctx, inA, "Alice", 1, Filter{}, 0)
	if err != nil || n.Nodes[0].Scope != memory.ScopeProject || len(n.Nodes) != 4 {
		t.Fatalf("project A's Alice: %+v %v", n.Nodes, err)
	}
}
