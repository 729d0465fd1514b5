package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// The graph tools answer from the session's visibility (global, its project, its agent) and
// the CLI's graph verbs answer the person; both over memories written through the CLI.
func TestGraphToolsAndCLI(t *testing.T) {
	home := t.TempDir()
	wdA, wdB := t.TempDir(), t.TempDir()
	cli(t, home, "write", "--scope", "global", "--type", "reference", "--slug", "bob-notes", "--title", "Bob",
		"--body", "- [[Bob]] works_at [[Globex]]\n- [[Globex]] located_in [[Berlin]]")
	cli(t, home, "write", "--scope", "global", "--type", "reference", "--slug", "alice-bob", "--title", "Alice",
		"--body", "- [[Alice]] knows [[Bob]]")
	cli(t, home, "write", "--scope", "project", "--workdir", wdA, "--type", "reference", "--slug", "secret", "--title", "Secret",
		"--body", "- [[Alice]] funds [[Zephyr]]")

	// CLI: the person sees everything.
	var ents struct {
		Entities []struct{ Name, Scope string }
	}
	if err := json.Unmarshal([]byte(cli(t, home, "graph", "entities", "--json")), &ents); err != nil || len(ents.Entities) != 6 {
		t.Fatalf("cli entities: %v %+v", err, ents)
	}
	var path struct {
		Found bool
		Hops  []struct {
			Edge struct {
				Type     string
				Memories []struct{ Slug string }
			}
		}
	}
	if err := json.Unmarshal([]byte(cli(t, home, "graph", "path", "Alice", "Berlin", "--json", "--scope", "global")), &path); err != nil ||
		!path.Found || len(path.Hops) != 3 || path.Hops[0].Edge.Memories[0].Slug != "alice-bob" {
		t.Fatalf("cli path: %v %+v", err, path)
	}
	if out := cli(t, home, "graph", "neighbors", "Globex", "--depth", "1"); !strings.Contains(out, "Globex -located_in-> Berlin") {
		t.Fatalf("cli neighbors: %s", out)
	}
	cli(t, home, "graph", "rename", "Berlin", "Munich")
	if out := cli(t, home, "show", "bob-notes", "--scope", "global"); !strings.Contains(out, "[[Munich]]") {
		t.Fatalf("rename not written to the body: %s", out)
	}

	// MCP: project B's session never sees project A's entities.
	b := stdio(t, home, clientOpts{roots: []string{wdB}}, "--agent", "codex", "--workdir", wdB)
	got := b.ok("graph_entities", map[string]any{"query": "zephyr"})
	if raw, _ := json.Marshal(got); strings.Contains(string(raw), "Zephyr") {
		t.Fatalf("project B sees project A's entity: %s", raw)
	}
	b.fails("graph_neighbors", map[string]any{"entity": "Zephyr"}, "graph_entity_not_found")
	p := b.ok("graph_path", map[string]any{"from": "Alice", "to": "Munich"})
	if raw, _ := json.Marshal(p); !strings.Contains(string(raw), `"found":true`) || !strings.Contains(string(raw), "bob-notes") {
		t.Fatalf("graph_path: %s", raw)
	}
	a := stdio(t, home, clientOpts{roots: []string{wdA}}, "--agent", "codex", "--workdir", wdA)
	sub := a.ok("graph_subgraph", map[string]any{"entity": "Alice", "depth": 1})
	if raw, _ := json.Marshal(sub); !strings.Contains(string(raw), "Zephyr") {
		t.Fatalf("project A's subgraph lacks its own entity: %s", raw)
	}
}

// A graph refusal suggests looking up the entity that was not found (graph_path's "to" was
// suggested as its "from"), and a name that several visible entities bear is answered with
// them: the graph uses the one in the narrowest scope, and the model was not told of the
// others nor how to name one (its id).
func TestGraphToolsNameTheMissedAndTheSameNamed(t *testing.T) {
	home, wdA, wdB := t.TempDir(), t.TempDir(), t.TempDir()
	cli(t, home, "write", "--scope", "global", "--type", "reference", "--slug", "alice-bob", "--title", "Alice",
		"--body", "- [[Alice]] knows [[Bob]]")
	cli(t, home, "write", "--scope", "project", "--workdir", wdA, "--type", "reference", "--slug", "alice-funds", "--title", "Funding",
		"--body", "- [[Alice]] funds [[Zephyr]]")
	a := stdio(t, home, clientOpts{}, "--agent", "codex", "--workdir", wdA)
	for _, tc := range []struct {
		args   map[string]any
		missed string
	}{
		{map[string]any{"from": "Alice", "to": "Nobody"}, "Nobody"},
		{map[string]any{"from": "Nobody", "to": "Bob"}, "Nobody"},
	} {
		e := a.fails("graph_path", tc.args, "graph_entity_not_found")
		next, _ := e["suggested_next_call"].(map[string]any)
		if next["tool"] != "graph_entities" || toJSON(next["arguments"]) != toJSON(map[string]any{"query": tc.missed}) {
			t.Fatalf("%v: next call %v", tc.args, next)
		}
	}
	out := a.ok("graph_neighbors", map[string]any{"entity": "Alice"})
	same, _ := out["same_name"].([]any)
	if len(same) != 1 {
		t.Fatalf("two visible Alices, and the answer does not say so: %v", out)
	}
	s := same[0].(map[string]any)
	cands, _ := s["candidates"].([]any)
	if s["field"] != "entity" || s["name"] != "Alice" || len(cands) != 2 || !strings.Contains(s["note"].(string), "id") {
		t.Fatalf("same_name %v", s)
	}
	if _, ok := out["untrusted_data"].(string); !ok {
		t.Fatalf("no notice: %v", out)
	}
	for _, c := range cands {
		id := c.(map[string]any)["id"].(string)
		if by := a.ok("graph_neighbors", map[string]any{"entity": id}); by["same_name"] != nil {
			t.Fatalf("an id names one entity: %v", by)
		}
	}
	if p := a.ok("graph_path", map[string]any{"from": "Alice", "to": "Bob"}); p["same_name"] == nil ||
		p["same_name"].([]any)[0].(map[string]any)["field"] != "from" {
		t.Fatalf("graph_path %v", p)
	}
	b := stdio(t, home, clientOpts{}, "--agent", "codex", "--workdir", wdB)
	if out := b.ok("graph_neighbors", map[string]any{"entity": "Alice"}); out["same_name"] != nil {
		t.Fatalf("project B sees one Alice: %v", out)
	}
}
