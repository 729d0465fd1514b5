package graph

import (
	"context"
	"sort"
	"strings"
	"testing"

	"engram/backend/memory"
	"engram/backend/text/wikilink"
)

func openStore(t *testing.T) (*memory.Store, context.Context) {
	t.Helper()
	ctx := context.Background()
	st, err := memory.Open(ctx, t.TempDir(), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, ctx
}

func write(t *testing.T, st *memory.Store, ctx context.Context, it memory.Item) string {
	t.Helper()
	it.Op, it.Confidence = memory.OpWrite, memory.ConfidenceLow
	if it.Title == nil {
		title := it.Slug
		it.Title = &title
	}
	res, err := st.ApplyBatch(ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{it}})
	if err != nil || !res.Results[0].OK {
		t.Fatalf("write %s: %v %+v", it.Slug, err, res)
	}
	return res.Results[0].ID
}

func sp(s string) *string { return &s }

// ids renders every visible node and edge with its id, sorted.
func ids(t *testing.T, s *Service, ctx context.Context) string {
	t.Helper()
	sg, err := s.Subgraph(ctx, View{All: true}, "", 0, Filter{}, MaxLimit)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range sg.Nodes {
		out = append(out, n.ID+" "+n.Name+" "+strings.Join(n.Aliases, "/"))
	}
	for _, e := range sg.Edges {
		out = append(out, e.ID+" "+e.Source+" "+e.Type+" "+e.Target)
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// Entity and edge ids survive a rebuild of the index from the files. The memories are written
// in the reverse of the order a rebuild reads them, so row ids come out different.
func TestIDsSurviveReindex(t *testing.T) {
	st, ctx := openStore(t)
	wd := t.TempDir()
	write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "zeta",
		Body: sp("- [[Zed]] knows [[Yara]]\n- [[Zed]] alias [[Zeddy]]\n- [[Yara]] works_at [[Acme]]")})
	write(t, st, ctx, memory.Item{Scope: memory.ScopeProject, Workdir: wd, Type: memory.TypeProject, Slug: "mid",
		Body: sp("- uses [[Go]]\n- [[Acme]] located_in [[Berlin]]")})
	write(t, st, ctx, memory.Item{Scope: memory.ScopeAgent, Agent: "codex", Type: memory.TypeReference, Slug: "beta",
		Body: sp("- [[Acme]] partner_of [[Globex]]")})
	write(t, st, ctx, memory.Item{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "alpha",
		Body: sp("[[Zeddy]] and [[Acme]].\n- [[Acme]] partner_of [[Globex]]")})
	s := New(st)
	before := ids(t, s, ctx)
	if strings.Count(before, "\n") < 10 {
		t.Fatalf("fixture graph too small:\n%s", before)
	}
	// The ids are the documented derivation, not an accident of this index.
	acme, err := s.Entities(ctx, View{All: true}, "Acme", nil, 10)
	if err != nil || len(acme) != 3 {
		t.Fatalf("Acme in three scope instances: %+v %v", acme, err)
	}
	projectDir := ""
	for _, e := range acme {
		projectDir += e.Workdir // only the project's Acme has one
	}
	want := map[string]bool{
		EntityID(memory.ScopeGlobal, "", wikilink.Norm("Acme")):              true,
		EntityID(memory.ScopeProject, memory.ProjectKey(projectDir), "acme"): true,
		EntityID(memory.ScopeAgent, "codex", "acme"):                         true,
	}
	for _, e := range acme {
		if !want[e.ID] {
			t.Fatalf("Acme %s id %s is not derived from its scope and name", e.Scope, e.ID)
		}
	}

	if _, err := st.Reindex(ctx); err != nil {
		t.Fatal(err)
	}
	if after := ids(t, New(st), ctx); after != before {
		t.Fatalf("ids changed on reindex:\n%s\n---\n%s", before, after)
	}
	// The alias's own id still finds the merged node.
	if sub, err := s.Neighbors(ctx, View{All: true}, EntityID(memory.ScopeGlobal, "", "zeddy"), 1, Filter{}, 0); err != nil ||
		sub.Nodes[0].Name != "Zed" {
		t.Fatalf("alias id: %+v %v", sub, err)
	}
}
