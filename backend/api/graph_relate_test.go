package api

import (
	"errors"
	"strings"
	"testing"

	"engram/backend/memory"
)

// graph.addRelation takes the memory as every verb on one memory does, for every transport: an
// id, or a slug in the scope the scope fields name (global without them). A reference that
// finds nothing is not_found with error.graph_memory_not_found, saying where the slug was
// looked for; an id outside the scope fields' view is refused as before.
func TestGraphAddRelationBySlugOrID(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	ids := graphFixture(t, a)
	wd := t.TempDir()
	res, err := a.deps.Store.ApplyBatch(a.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpWrite,
		Scope: memory.ScopeProject, Workdir: wd, Type: memory.TypeProject, Slug: "proj-notes", Title: gsp("Project notes"),
		Body: gsp("The build uses [[Go]]."), Confidence: memory.ConfidenceLow}}})
	if err != nil || !res.Results[0].OK {
		t.Fatalf("write proj-notes: %v %+v", err, res)
	}
	projID := res.Results[0].ID
	body := func(id string) string {
		t.Helper()
		m, err := a.deps.Store.Get(a.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return m.Body
	}
	code := func(err error) (string, string, string) {
		t.Helper()
		var ae *Error
		if !errors.As(err, &ae) {
			t.Fatalf("not an api error: %v", err)
		}
		return ae.Code, ae.I18nKey, ae.Message
	}

	// A slug, in global scope without scope fields.
	add, err := a.Graph.AddRelation(GraphAddRelationParams{Memory: "carol-dave", From: "Carol", Type: "knows", To: "Erin"})
	if err != nil || len(add.Changed) != 1 || add.Changed[0].ID != ids["carol-dave"] {
		t.Fatalf("by slug: %+v %v", add, err)
	}
	// An id, in either field (the desktop's graph edit sends memory_id).
	if _, err := a.Graph.AddRelation(GraphAddRelationParams{Memory: ids["carol-dave"], From: "Carol", Type: "knows", To: "Frank"}); err != nil {
		t.Fatalf("by id: %v", err)
	}
	if _, err := a.Graph.AddRelation(GraphAddRelationParams{MemoryID: ids["carol-dave"], From: "Carol", Type: "knows", To: "Gina"}); err != nil {
		t.Fatalf("by memory_id: %v", err)
	}
	if got := body(ids["carol-dave"]); !strings.Contains(got, "- [[Carol]] knows [[Erin]]\n- [[Carol]] knows [[Frank]]\n- [[Carol]] knows [[Gina]]") {
		t.Fatalf("carol-dave = %q", got)
	}

	// A project memory's slug, with the scope fields that name its project.
	if _, err := a.Graph.AddRelation(GraphAddRelationParams{GraphScope: GraphScope{Scope: memory.ScopeProject, Workdir: wd},
		Memory: "proj-notes", From: "Go", Type: "used_by", To: "Builder"}); err != nil {
		t.Fatalf("project slug: %v", err)
	}
	if got := body(projID); !strings.Contains(got, "- [[Go]] used_by [[Builder]]") {
		t.Fatalf("proj-notes = %q", got)
	}
	// The folder alone names the project (no --scope needed), and an agent alone its scope.
	if _, err := a.Graph.AddRelation(GraphAddRelationParams{GraphScope: GraphScope{Workdir: wd},
		Memory: "proj-notes", From: "Go", Type: "used_by", To: "Linker"}); err != nil {
		t.Fatalf("project slug with its folder only: %v", err)
	}
	_, err = a.Graph.AddRelation(GraphAddRelationParams{GraphScope: GraphScope{Agent: "codex"},
		Memory: "nosuch", Type: "knows", To: "Carol"})
	if _, _, msg := code(err); !strings.Contains(msg, "no agent codex memory has that slug") {
		t.Fatalf("an agent alone names agent scope: %q", msg)
	}
	// Without them the slug is looked for in global, and the error says so.
	_, err = a.Graph.AddRelation(GraphAddRelationParams{Memory: "proj-notes", From: "Go", Type: "used_by", To: "Other"})
	if c, key, msg := code(err); c != memory.CodeNotFound || key != "error.graph_memory_not_found" ||
		!strings.Contains(msg, "No memory “proj-notes” was found: no memory has that id, and no global memory has that slug") {
		t.Fatalf("project slug without its scope: %s %s %q", c, key, msg)
	}
	_, err = a.Graph.AddRelation(GraphAddRelationParams{GraphScope: GraphScope{Scope: memory.ScopeAgent, Agent: "codex"},
		Memory: "nosuch", Type: "knows", To: "Carol"})
	if c, key, msg := code(err); c != memory.CodeNotFound || key != "error.graph_memory_not_found" ||
		!strings.Contains(msg, "no agent codex memory has that slug") {
		t.Fatalf("nosuch in agent codex: %s %s %q", c, key, msg)
	}
	// The scope fields still narrow what an id may name: a global id in a project's view.
	_, err = a.Graph.AddRelation(GraphAddRelationParams{GraphScope: GraphScope{Scope: memory.ScopeProject, Workdir: wd},
		Memory: ids["carol-dave"], From: "Carol", Type: "knows", To: "Hal"})
	if c, key, _ := code(err); c != memory.CodeNotFound || key != "error.not_found" {
		t.Fatalf("global id in a project's view: %s %s", c, key)
	}
	if got := body(ids["carol-dave"]); strings.Contains(got, "Hal") {
		t.Fatalf("a refused relation was written: %q", got)
	}
	// Nothing named, or two different references.
	for _, p := range []GraphAddRelationParams{
		{Memory: "  ", Type: "knows", To: "Carol"},
		{Memory: "carol-dave", MemoryID: ids["alice-job"], Type: "knows", To: "Carol"},
	} {
		if c, _, _ := code(func() error { _, err := a.Graph.AddRelation(p); return err }()); c != CodeInvalidParams {
			t.Fatalf("%+v: %s", p, c)
		}
	}
	// The same reference in both fields is one reference.
	if _, err := a.Graph.AddRelation(GraphAddRelationParams{Memory: "alice-job", MemoryID: "alice-job", Type: "knows", To: "Ivan"}); err != nil {
		t.Fatalf("same reference twice: %v", err)
	}
	// A model edits no graph, whatever it names.
	tool := New(a.ctx, a.deps, memory.ActorTool)
	if _, err := tool.Graph.AddRelation(GraphAddRelationParams{Memory: "alice-job", Type: "knows", To: "Judy"}); err == nil || err.(*Error).Code != "graph_person_only" {
		t.Fatalf("a model added a relation: %v", err)
	}
}

// A relation from an entity to itself — the same name however written, the memory's own
// subject, or an alias of the other end — is refused with graph_self_relation (translated) and
// nothing is written: the graph draws no such relation, so the line was written and the
// person saw nothing happen.
func TestGraphAddRelationToItselfIsRefused(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	ids := graphFixture(t, a)
	if _, err := a.Graph.AddRelation(GraphAddRelationParams{Memory: "bob-notes", From: "Bob", Type: "aka", To: "Robert"}); err != nil {
		t.Fatal(err)
	}
	before := map[string]string{}
	for _, slug := range []string{"alice-job", "bob-notes", "carol-dave"} {
		m, _ := a.deps.Store.Get(a.ctx, ids[slug])
		before[slug] = m.Body
	}
	for _, tc := range []struct{ memory, from, to string }{
		{"carol-dave", "Carol", "carol"},
		{"carol-dave", "Carol", " ＣＡＲＯＬ "},
		{"alice-job", "", "alice"}, // the memory's subject
		{"bob-notes", "Robert", "Bob"},
	} {
		_, err := a.Graph.AddRelation(GraphAddRelationParams{Memory: tc.memory, From: tc.from, Type: "knows", To: tc.to})
		var ae *Error
		if !errors.As(err, &ae) || ae.Code != "graph_self_relation" || ae.I18nKey != "error.graph_self_relation" ||
			!strings.Contains(ae.Message, "name") || strings.Contains(ae.Message, "error.") {
			t.Fatalf("%s → %s: %v", tc.from, tc.to, err)
		}
	}
	for slug, b := range before {
		if m, _ := a.deps.Store.Get(a.ctx, ids[slug]); m.Body != b {
			t.Fatalf("%s rewritten: %q", slug, m.Body)
		}
	}
	// Two entities are still related, in either direction.
	if _, err := a.Graph.AddRelation(GraphAddRelationParams{Memory: "carol-dave", From: "Dave", Type: "knows", To: "Carol"}); err != nil {
		t.Fatal(err)
	}
}
