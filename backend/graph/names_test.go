package graph

import (
	"testing"

	"engram/backend/memory"
)

// Names are compared folded (case, width, spacing, punctuation aside) but a name is not its
// letters alone: "C++" and "C" were one entity, so a memory saying Bob uses C drew Bob as a
// user of C++ and a path joined two people who share nothing.
func TestEntityNamesMeetOnlyWhenTheySayTheSame(t *testing.T) {
	st, ctx := openStore(t)
	write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "langs",
		Body: sp("- [[Alice]] uses [[C++]]\n- [[Bob]] uses [[C]]\n- [[Carol]] uses [[Notepad++]]\n- [[Dave]] uses [[Notepad]]\n" +
			"- [[Erin]] knows [[ＡＬＩＣＥ]]\n- [[张 三]] 认识 [[李四]]\n- [[张三]] 认识 [[王五]]")})
	s := New(st)
	all := View{All: true}
	for _, tc := range []struct {
		from, to string
		found    bool
	}{
		{"Bob", "Alice", false},
		{"Dave", "Carol", false},
		{"c++", "Alice", true},
		{"Erin", "C++", true}, // ＡＬＩＣＥ is Alice
		{"李四", "王五", true},    // 张 三 is 张三
		{"notepad ++", "Carol", true},
	} {
		p, err := s.Path(ctx, all, tc.from, tc.to, 0, Filter{})
		if err != nil {
			t.Fatalf("path %s → %s: %v", tc.from, tc.to, err)
		}
		if p.Found != tc.found {
			t.Errorf("path %s → %s: found %v %+v, want %v", tc.from, tc.to, p.Found, p.Nodes, tc.found)
		}
	}
	n, err := s.Neighbors(ctx, all, "C", 1, Filter{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Nodes) != 2 || n.Nodes[0].Name != "C" || n.Nodes[1].Name != "Bob" {
		t.Fatalf("neighbours of C: %+v", n.Nodes)
	}
}
