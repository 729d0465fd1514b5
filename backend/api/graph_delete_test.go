package api

import (
	"strings"
	"testing"

	"engram/backend/memory"
)

// Deleting an entity unlinks it and keeps every word: a memory made only of a relation line
// naming it (acme-deal) keeps that line as text instead of failing on an empty body, and lines
// about it as the subject get its name written in front.
func TestGraphDeleteEntityKeepsText(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	ids := graphFixture(t, a)
	body := func(slug string) string {
		t.Helper()
		m, err := a.deps.Store.Get(a.ctx, ids[slug])
		if err != nil {
			t.Fatal(err)
		}
		return m.Body
	}
	res, err := a.Graph.DeleteEntity(GraphEntityParams{Entity: "Acme"})
	if err != nil || len(res.Changed) != 2 {
		t.Fatalf("delete Acme: %+v %v", res, err)
	}
	if got := body("acme-deal"); got != "- Acme partner_of [[Globex]]" {
		t.Fatalf("acme-deal = %q", got)
	}
	if got := body("alice-job"); got != "Alice's job.\n\n- works_at Acme\n- knows [[Bob]]" {
		t.Fatalf("alice-job = %q", got)
	}
	if e, _ := a.Graph.Entities(GraphEntitiesParams{Query: "acme"}); len(e.Entities) != 0 {
		t.Fatalf("Acme still an entity: %+v", e)
	}
	if m, _ := a.Graph.EntityMemories(GraphEntityParams{Entity: "Globex"}); len(m.Memories) != 2 {
		t.Fatalf("Globex lost its mention in acme-deal: %+v", m)
	}

	// Alice is alice-job's subject: its subject-less lines keep saying who.
	if _, err := a.Graph.DeleteEntity(GraphEntityParams{Entity: "alice"}); err != nil {
		t.Fatal(err)
	}
	m, _ := a.deps.Store.Get(a.ctx, ids["alice-job"])
	if m.Body != "Alice's job.\n\n- works_at Acme\n- Alice knows [[Bob]]" || m.Subject != "" {
		t.Fatalf("alice-job = %q subject %q", m.Body, m.Subject)
	}
	if _, err := a.Graph.Neighbors(GraphNeighborsParams{Entity: "Alice"}); err == nil {
		t.Fatal("Alice still an entity")
	}
	if sg, _ := a.Graph.Neighbors(GraphNeighborsParams{Entity: "Bob"}); len(sg.Nodes) != 2 {
		t.Fatalf("Bob's neighbours = %+v", sg.Nodes)
	}

	// The person a user memory is about by default is deleted the same way.
	res2, err := a.deps.Store.ApplyBatch(a.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpWrite,
		Scope: memory.ScopeGlobal, Type: memory.TypeUser, Slug: "editor", Title: gsp("editor"), Body: gsp("- prefers [[Vim]]"), Confidence: memory.ConfidenceLow}}})
	if err != nil || !res2.Results[0].OK {
		t.Fatalf("write: %v %+v", err, res2)
	}
	if _, err := a.Graph.DeleteEntity(GraphEntityParams{Entity: "User"}); err != nil {
		t.Fatal(err)
	}
	if m, _ := a.deps.Store.Get(a.ctx, res2.Results[0].ID); m.Body != "- User prefers [[Vim]]" {
		t.Fatalf("editor = %q", m.Body)
	}
	if e, _ := a.Graph.Entities(GraphEntitiesParams{Query: "user"}); len(e.Entities) != 0 {
		t.Fatalf("User still an entity: %+v", e)
	}
}

// Deleting a relation that is all a memory says is refused with a translated error naming the
// memory, and changes nothing (not even the other memories stating it).
func TestGraphDeleteRelationNeverEmptiesAMemory(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	ids := graphFixture(t, a)
	res, err := a.deps.Store.ApplyBatch(a.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpWrite,
		Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "partners", Title: gsp("partners"),
		Body: gsp("- [[Acme]] partner_of [[Globex]]\n"), Confidence: memory.ConfidenceLow}}})
	if err != nil || !res.Results[0].OK {
		t.Fatalf("write: %v %+v", err, res)
	}
	sg, _ := a.Graph.Neighbors(GraphNeighborsParams{Entity: "Acme", RelationTypes: []string{"partner_of"}})
	if len(sg.Edges) != 1 || len(sg.Edges[0].Memories) != 2 {
		t.Fatalf("partner_of edge = %+v", sg.Edges)
	}
	_, err = a.Graph.DeleteRelation(GraphDeleteRelationParams{EdgeID: sg.Edges[0].ID})
	e, ok := err.(*Error)
	if !ok || e.Code != "graph_would_empty_memory" || !strings.Contains(e.Message, "acme-deal, partners") {
		t.Fatalf("delete relation = %v", err)
	}
	for _, slug := range []string{"acme-deal"} {
		if m, _ := a.deps.Store.Get(a.ctx, ids[slug]); m.Body != "- [[Acme]] partner_of [[Globex]]" {
			t.Fatalf("%s changed: %q", slug, m.Body)
		}
	}
	// With more to say, the memory keeps the rest.
	if _, err := a.Graph.DeleteRelation(GraphDeleteRelationParams{EdgeID: mustEdge(t, a, "Bob", "works_at")}); err != nil {
		t.Fatal(err)
	}
	if m, _ := a.deps.Store.Get(a.ctx, ids["bob-notes"]); m.Body != "- [[Globex]] located_in [[Berlin]]" {
		t.Fatalf("bob-notes = %q", m.Body)
	}
}

func mustEdge(t *testing.T, a *API, entity, typ string) string {
	t.Helper()
	sg, err := a.Graph.Neighbors(GraphNeighborsParams{Entity: entity, RelationTypes: []string{typ}})
	if err != nil || len(sg.Edges) != 1 {
		t.Fatalf("%s -%s-> : %+v %v", entity, typ, sg, err)
	}
	return sg.Edges[0].ID
}
