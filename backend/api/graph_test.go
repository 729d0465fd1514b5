package api

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

// graphFixture writes four memories whose relation lines make this graph (global scope):
//
//	Alice -works_at-> Acme (alice-job)      Alice -knows-> Bob (alice-job)
//	Bob -works_at-> Globex (bob-notes)      Globex -located_in-> Berlin (bob-notes)
//	Acme -partner_of-> Globex (acme-deal)   Carol -knows-> Dave (carol-dave, apart)
func graphFixture(t *testing.T, a *API) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for _, m := range []struct{ slug, typ, subject, body string }{
		{"alice-job", "user", "Alice", "Alice's job.\n\n- works_at [[Acme]]\n- knows [[Bob]]"},
		{"bob-notes", "reference", "", "- [[Bob]] works_at [[Globex]]\n- [[Globex]] located_in [[Berlin]]"},
		{"acme-deal", "reference", "", "- [[Acme]] partner_of [[Globex]]"},
		{"carol-dave", "reference", "", "Carol and Dave.\n\n- [[Carol]] knows [[Dave]]"},
	} {
		title, body, subject := m.slug, m.body, m.subject
		res, err := a.deps.Store.ApplyBatch(a.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpWrite, Scope: memory.ScopeGlobal,
			Type: memory.Type(m.typ), Slug: m.slug, Title: &title, Body: &body, Subject: &subject, Confidence: memory.ConfidenceLow}}})
		if err != nil || !res.Results[0].OK {
			t.Fatalf("write %s: %v %+v", m.slug, err, res)
		}
		ids[m.slug] = res.Results[0].ID
	}
	return ids
}

func gsp(s string) *string { return &s }

func subgraphText(t *testing.T, v any) (nodes, edges string) {
	t.Helper()
	raw, _ := json.Marshal(v)
	var sg struct {
		Nodes []struct{ ID, Name string }
		Edges []struct {
			Source, Target, Type string
			Memories             []struct{ Slug string }
		}
		Truncated bool
	}
	if err := json.Unmarshal(raw, &sg); err != nil {
		t.Fatal(err)
	}
	name := map[string]string{}
	var ns, es []string
	for _, n := range sg.Nodes {
		name[n.ID] = n.Name
		ns = append(ns, n.Name)
	}
	for _, e := range sg.Edges {
		var slugs []string
		for _, m := range e.Memories {
			slugs = append(slugs, m.Slug)
		}
		es = append(es, name[e.Source]+" -"+e.Type+"-> "+name[e.Target]+" ("+strings.Join(slugs, ",")+")")
	}
	sort.Strings(ns)
	sort.Strings(es)
	return strings.Join(ns, ","), strings.Join(es, "; ")
}

func TestGraphQueriesOnAFixture(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	graphFixture(t, a)

	ents, err := a.Graph.Entities(GraphEntitiesParams{Query: "glob"})
	if err != nil || len(ents.Entities) != 1 || ents.Entities[0].Name != "Globex" || ents.Entities[0].Type != "organization" ||
		ents.Entities[0].Degree != 3 || ents.Entities[0].Memories != 2 {
		t.Fatalf("entities glob = %+v, %v", ents, err)
	}
	all, _ := a.Graph.Entities(GraphEntitiesParams{Types: []string{"person"}})
	var ps []string
	for _, e := range all.Entities {
		ps = append(ps, e.Name)
	}
	sort.Strings(ps)
	if strings.Join(ps, ",") != "Alice,Bob,Carol,Dave" {
		t.Fatalf("persons = %v", ps)
	}

	n1, err := a.Graph.Neighbors(GraphNeighborsParams{Entity: "alice", Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if nodes, edges := subgraphText(t, n1); nodes != "Acme,Alice,Bob" ||
		edges != "Alice -knows-> Bob (alice-job); Alice -works_at-> Acme (alice-job)" {
		t.Fatalf("depth 1: %s | %s", nodes, edges)
	}
	n2, _ := a.Graph.Neighbors(GraphNeighborsParams{Entity: "Alice", Depth: 2})
	if nodes, edges := subgraphText(t, n2); nodes != "Acme,Alice,Bob,Globex" ||
		edges != "Acme -partner_of-> Globex (acme-deal); Alice -knows-> Bob (alice-job); Alice -works_at-> Acme (alice-job); Bob -works_at-> Globex (bob-notes)" {
		t.Fatalf("depth 2: %s | %s", nodes, edges)
	}
	rel, _ := a.Graph.Neighbors(GraphNeighborsParams{Entity: "Alice", Depth: 3, RelationTypes: []string{"works_at"}})
	if nodes, _ := subgraphText(t, rel); nodes != "Acme,Alice" {
		t.Fatalf("works_at only: %s", nodes)
	}

	top, _ := a.Graph.Subgraph(GraphSubgraphParams{Limit: 1})
	if nodes, _ := subgraphText(t, top); nodes != "Globex" || !top.Truncated {
		t.Fatalf("busiest node: %s truncated=%v", nodes, top.Truncated)
	}
	whole, _ := a.Graph.Subgraph(GraphSubgraphParams{})
	if len(whole.Nodes) != 7 || len(whole.Edges) != 6 || whole.Truncated {
		t.Fatalf("whole graph: %d nodes %d edges", len(whole.Nodes), len(whole.Edges))
	}

	p, err := a.Graph.Path(GraphPathParams{From: "Alice", To: "Berlin"})
	if err != nil || !p.Found || len(p.Hops) != 3 || len(p.Nodes) != 4 || p.Nodes[0].Name != "Alice" || p.Nodes[3].Name != "Berlin" {
		t.Fatalf("path Alice→Berlin = %+v %v", p, err)
	}
	last := p.Hops[2]
	if last.Edge.Type != "located_in" || len(last.Edge.Memories) != 1 || last.Edge.Memories[0].Slug != "bob-notes" {
		t.Fatalf("last hop = %+v", last)
	}
	for i, h := range p.Hops {
		if h.From != p.Nodes[i].ID || h.To != p.Nodes[i+1].ID {
			t.Fatalf("hop %d %s→%s does not join nodes %s→%s", i, h.From, h.To, p.Nodes[i].ID, p.Nodes[i+1].ID)
		}
	}
	p2, _ := a.Graph.Path(GraphPathParams{From: "Alice", To: "Globex", RelationTypes: []string{"knows", "works_at"}})
	if !p2.Found || len(p2.Hops) != 2 || p2.Nodes[1].Name != "Bob" || p2.Hops[1].Edge.Memories[0].Slug != "bob-notes" {
		t.Fatalf("path via Bob = %+v", p2)
	}
	if p3, _ := a.Graph.Path(GraphPathParams{From: "Alice", To: "Globex", RelationTypes: []string{"works_at"}}); p3.Found {
		t.Fatalf("works_at alone cannot reach Globex: %+v", p3)
	}
	if p4, _ := a.Graph.Path(GraphPathParams{From: "Alice", To: "Dave"}); p4.Found {
		t.Fatal("Dave is not connected to Alice")
	}
	if p5, _ := a.Graph.Path(GraphPathParams{From: "Alice", To: "Berlin", MaxHops: 2}); p5.Found {
		t.Fatal("Berlin is 3 hops away")
	}
	if _, err := a.Graph.Path(GraphPathParams{From: "Alice", To: "Nobody"}); err == nil || err.(*Error).Code != "graph_entity_not_found" {
		t.Fatalf("unknown entity: %v", err)
	}
	mems, _ := a.Graph.EntityMemories(GraphEntityParams{Entity: "globex"})
	if len(mems.Memories) != 2 {
		t.Fatalf("globex memories = %+v", mems)
	}
}

func TestGraphEditsRewriteBodies(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	ids := graphFixture(t, a)
	res, err := a.Graph.RenameEntity(GraphRenameParams{Entity: "Bob", Name: "Robert"})
	if err != nil || len(res.Changed) != 2 {
		t.Fatalf("rename: %+v %v", res, err)
	}
	m, _ := a.deps.Store.Get(a.ctx, ids["bob-notes"])
	if !strings.Contains(m.Body, "- [[Robert]] works_at [[Globex]]") {
		t.Fatalf("body not rewritten: %q", m.Body)
	}
	if e, _ := a.Graph.Entities(GraphEntitiesParams{Query: "bob"}); len(e.Entities) != 0 {
		t.Fatalf("Bob still there: %+v", e)
	}
	if _, err := a.Graph.MergeEntities(GraphMergeParams{Into: "Acme", From: []string{"Globex"}}); err != nil {
		t.Fatal(err)
	}
	acme, _ := a.Graph.Entities(GraphEntitiesParams{Query: "acme"})
	if len(acme.Entities) != 1 || strings.Join(acme.Entities[0].Aliases, ",") != "Globex" {
		t.Fatalf("merged: %+v", acme)
	}
	add, err := a.Graph.AddRelation(GraphAddRelationParams{MemoryID: ids["carol-dave"], From: "Dave", Type: "uses", To: "Go"})
	if err != nil || len(add.Changed) != 1 {
		t.Fatalf("add relation: %+v %v", add, err)
	}
	sg, _ := a.Graph.Neighbors(GraphNeighborsParams{Entity: "Go"})
	if len(sg.Edges) != 1 || sg.Edges[0].Type != "uses" {
		t.Fatalf("added edge: %+v", sg)
	}
	if _, err := a.Graph.DeleteRelation(GraphDeleteRelationParams{EdgeID: sg.Edges[0].ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Graph.DeleteEntity(GraphEntityParams{Entity: "Carol"}); err != nil {
		t.Fatal(err)
	}
	m, _ = a.deps.Store.Get(a.ctx, ids["carol-dave"])
	if m.Body != "Carol and Dave.\n\n- Carol knows [[Dave]]" {
		t.Fatalf("carol-dave body = %q", m.Body)
	}
	if _, err := a.Graph.Neighbors(GraphNeighborsParams{Entity: "Carol"}); err == nil {
		t.Fatal("deleted entity still found")
	}

	tool := New(a.ctx, a.deps, memory.ActorTool)
	if _, err := tool.Graph.RenameEntity(GraphRenameParams{Entity: "Alice", Name: "Eve"}); err == nil || err.(*Error).Code != "graph_person_only" {
		t.Fatalf("a model renamed an entity: %v", err)
	}
}

func TestGraphIsolation(t *testing.T) {
	user := newAPI(t, memory.ActorUser)
	wdA, wdB := t.TempDir(), t.TempDir()
	for _, it := range []memory.Item{
		{Op: memory.OpWrite, Scope: memory.ScopeProject, Workdir: wdA, Type: memory.TypeProject, Slug: "secret-plan", Body: gsp("- uses [[Zephyr]]")},
		{Op: memory.OpWrite, Scope: memory.ScopeAgent, Agent: "codex", Type: memory.TypeReference, Slug: "codex-note", Body: gsp("[[Quill]] is mine")},
		{Op: memory.OpWrite, Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "shared", Body: gsp("[[Zephyr]] in public")},
	} {
		it.Title, it.Confidence = gsp(it.Slug), memory.ConfidenceLow
		if res, err := user.deps.Store.ApplyBatch(user.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{it}}); err != nil || !res.Results[0].OK {
			t.Fatalf("%s: %v %+v", it.Slug, err, res)
		}
	}
	tool := New(user.ctx, user.deps, memory.ActorTool)
	scopes := func(p GraphEntitiesParams) string {
		t.Helper()
		res, err := tool.Graph.Entities(p)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range res.Entities {
			out = append(out, e.Name+"@"+string(e.Scope))
		}
		sort.Strings(out)
		return strings.Join(out, ",")
	}
	if got := scopes(GraphEntitiesParams{GraphScope: GraphScope{Workdir: wdB}}); got != "Zephyr@global" {
		t.Fatalf("project B sees %q", got)
	}
	if got := scopes(GraphEntitiesParams{GraphScope: GraphScope{Workdir: wdA}}); !strings.Contains(got, "Zephyr@project") || strings.Contains(got, "Quill") {
		t.Fatalf("project A sees %q", got)
	}
	if got := scopes(GraphEntitiesParams{GraphScope: GraphScope{Agent: "codex"}}); got != "Quill@agent,Zephyr@global" {
		t.Fatalf("codex sees %q", got)
	}
	if got := scopes(GraphEntitiesParams{GraphScope: GraphScope{Agent: "claude"}}); got != "Zephyr@global" {
		t.Fatalf("claude sees %q", got)
	}
	if _, err := tool.Graph.Neighbors(GraphNeighborsParams{GraphScope: GraphScope{Workdir: wdB}, Entity: "Quill"}); err == nil {
		t.Fatal("another agent's entity resolved")
	}
	// A model cannot widen: asking for agent scope without being that agent is refused.
	if _, err := tool.Graph.Entities(GraphEntitiesParams{GraphScope: GraphScope{Scope: memory.ScopeAgent, Agent: "codex", Workdir: wdB}}); err != nil {
		t.Fatalf("own agent scope refused: %v", err)
	}
	// The person sees every scope.
	if all, _ := user.Graph.Entities(GraphEntitiesParams{}); len(all.Entities) != 4 {
		t.Fatalf("person sees %+v", all)
	}
}

func TestGraphChangedFollowsWrites(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	got := make(chan struct{}, 4)
	cancel := a.deps.Events.Subscribe(func(name string, _ any) {
		if name == EventGraphChanged {
			got <- struct{}{}
		}
	})
	defer cancel()
	graphFixture(t, a)
	select {
	case <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("no graph.changed after writes")
	}
}

// A scope no memory has ("bogus", "Global") was read as global for a person: the global graph
// came back as if it were that scope's. Every graph query refuses it as every other verb does
// (invalid_scope, translated).
func TestGraphRefusesAnUnknownScope(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	if _, err := a.Memory.Write(WriteParams{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "alice-bob", Title: "Alice and Bob",
		Body: "- [[Alice]] knows [[Bob]]"}); err != nil {
		t.Fatal(err)
	}
	for _, sc := range []memory.Scope{"bogus", "Global"} {
		g := GraphScope{Scope: sc}
		for name, call := range map[string]func() error{
			"entities": func() error { _, err := a.Graph.Entities(GraphEntitiesParams{GraphScope: g}); return err },
			"neighbors": func() error {
				_, err := a.Graph.Neighbors(GraphNeighborsParams{GraphScope: g, Entity: "Alice"})
				return err
			},
			"subgraph": func() error { _, err := a.Graph.Subgraph(GraphSubgraphParams{GraphScope: g}); return err },
			"path": func() error {
				_, err := a.Graph.Path(GraphPathParams{GraphScope: g, From: "Alice", To: "Bob"})
				return err
			},
			"memories": func() error {
				_, err := a.Graph.EntityMemories(GraphEntityParams{GraphScope: g, Entity: "Alice"})
				return err
			},
		} {
			err := call()
			ae, ok := err.(*Error)
			if !ok || ae.Code != "invalid_scope" || !strings.Contains(ae.Message, string(sc)) {
				t.Errorf("%s with scope %q: %v, want invalid_scope", name, sc, err)
			}
		}
	}
	if _, err := a.Graph.Entities(GraphEntitiesParams{GraphScope: GraphScope{Scope: memory.ScopeGlobal}}); err != nil {
		t.Fatalf("global: %v", err)
	}
}
