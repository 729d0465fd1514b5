package mcp_test

import (
	"strings"
	"testing"
)

// The graph's entity types are a fixed set, and a filter by any other type matched nothing:
// graph_entities {"types": ["people"]} answered no entities, so a model concluded there were
// none. The schema lists the types, and one outside them is refused naming them, its next call
// keeping the types that fit. Found with the official TypeScript SDK (mcp-tsclient.e2e.mjs).
func TestGraphEntityTypesOutsideTheListAreRefused(t *testing.T) {
	c := stdio(t, t.TempDir(), clientOpts{}, "--agent", "tester")
	c.ok("memory_write", map[string]any{"slug": "alice-at-acme", "scope": "global", "type": "user", "title": "Alice at Acme",
		"body": "Alice works at Acme.\n\n- [[Alice]] works_at [[Acme]]\n- [[Alice]] #person\n"})
	for _, tc := range []struct {
		tool string
		args map[string]any
		bad  string
		next string // the suggested arguments as JSON
	}{
		{"graph_entities", map[string]any{"types": []any{"people"}}, "people", `{}`},
		{"graph_entities", map[string]any{"types": []any{"person", "Company"}, "limit": 5}, "Company", `{"limit":5,"types":["person"]}`},
		{"graph_entities", map[string]any{"types": "Person"}, "Person", `{}`},
		{"graph_neighbors", map[string]any{"entity": "Alice", "entity_types": []any{"org"}}, "org", `{"entity":"Alice"}`},
		{"graph_subgraph", map[string]any{"entity_types": []any{"place", "city"}}, "city", `{"entity_types":["place"]}`},
	} {
		e := c.fails(tc.tool, tc.args, "mcp_argument_not_allowed")
		if msg := e["message"].(string); !strings.Contains(msg, tc.bad) || !strings.Contains(msg, "person, organization, project, tool, place, concept, event") {
			t.Fatalf("%s %v: the refusal names neither the type nor the list: %s", tc.tool, tc.args, msg)
		}
		next, _ := e["suggested_next_call"].(map[string]any)
		if next["tool"] != tc.tool || toJSON(next["arguments"]) != tc.next {
			t.Fatalf("%s %v: next call %v, want %s", tc.tool, tc.args, next, tc.next)
		}
	}
	c.ok("graph_entities", map[string]any{"types": []any{"person", "organization"}})
	c.ok("graph_entities", map[string]any{"types": "person"}) // one type as text, as models send it
}
