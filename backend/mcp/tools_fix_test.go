package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"engram/backend/mcp"
)

// shown is a memory as the person's CLI shows it.
func shown(t *testing.T, home, slug string) map[string]any {
	t.Helper()
	var out struct {
		Memory map[string]any `json:"memory"`
	}
	if err := json.Unmarshal([]byte(cli(t, home, "show", slug, "--json")), &out); err != nil || out.Memory == nil {
		t.Fatalf("show %s: %v", slug, err)
	}
	return out.Memory
}

// memory_update clears what it is asked to clear — reasoning and source_quote with "", tags
// and aliases with [] (they replace) — refuses an empty title naming the title, and reports an
// update that would change nothing as such: no new version, "changed": false. (The tool's
// argument handling dropped every "": reasoning "" was refused as "body is required", title ""
// kept the title; tags [] was merged into the tags, so nothing cleared and success was
// reported.)
func TestStdioMemoryUpdateClearsAndSaysWhenNothingChanged(t *testing.T) {
	home := t.TempDir()
	c := stdio(t, home, clientOpts{}, "--agent", "tester")
	ref := map[string]any{"slug": "m-one", "scope": "global"}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{"slug": "m-one", "scope": "global"}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	c.ok("memory_write", with(map[string]any{"type": "user", "title": "Tea", "body": "Drinks green tea.",
		"tags": []any{"a", "b"}, "aliases": []any{"x"}, "reasoning": "because", "source_quote": "I only drink green tea, always"}))
	for _, tc := range []struct {
		args  map[string]any
		field string
		want  any
	}{
		{map[string]any{"reasoning": ""}, "reasoning", ""},
		{map[string]any{"source_quote": ""}, "source_quote", ""},
		{map[string]any{"tags": []any{}}, "tags", nil},
		{map[string]any{"aliases": []any{}}, "aliases", nil},
		{map[string]any{"tags": []any{"c"}}, "tags", []any{"c"}},
	} {
		up := c.ok("memory_update", with(tc.args))
		if up["changed"] != true {
			t.Fatalf("%v: %v", tc.args, up)
		}
		got := shown(t, home, "m-one")[tc.field]
		if l, ok := got.([]any); ok && len(l) == 0 {
			got = nil
		}
		if toJSON(got) != toJSON(tc.want) {
			t.Fatalf("%v: %s is %v, want %v", tc.args, tc.field, got, tc.want)
		}
	}
	// A body merged and the tags replaced in one call.
	c.ok("memory_update", with(map[string]any{"body": "Also oolong.", "tags": []any{"d"}}))
	if m := shown(t, home, "m-one"); !strings.Contains(m["body"].(string), "Drinks green tea.") ||
		!strings.Contains(m["body"].(string), "Also oolong.") || toJSON(m["tags"]) != `["d"]` {
		t.Fatalf("merge and replace: %v", m)
	}
	e := c.fails("memory_update", with(map[string]any{"title": "", "body": "New."}), "mcp_title_required")
	if !strings.Contains(e["message"].(string), "title") {
		t.Fatalf("refusal: %v", e)
	}
	if shown(t, home, "m-one")["title"] != "Tea" || strings.Contains(shown(t, home, "m-one")["body"].(string), "New.") {
		t.Fatal("a refused update changed the memory")
	}
	c.fails("memory_update", ref, "mcp_update_empty")
	// Nothing to change: no new version.
	before := c.ok("memory_read", ref)["version"]
	// (The quote was cleared above: "high" or "medium" asked without one lands as the low the
	// memory has.)
	for _, args := range []map[string]any{{"tags": []any{"d"}}, {"reasoning": ""}, {"title": "Tea"}, {"body": "Also oolong."},
		{"aliases": []any{}}, {"confidence": "high"}, {"confidence": "medium"}, {"body": "oolong"}} {
		up := c.ok("memory_update", with(args))
		if up["changed"] != false || up["version"] != before || up["notice"] == nil {
			t.Fatalf("%v: %v", args, up)
		}
	}
	if after := c.ok("memory_read", ref)["version"]; after != before {
		t.Fatalf("a no-op update made version %v (was %v)", after, before)
	}
}

// Numbers outside a schema's bounds and strings outside its enum are refused the same way by
// every tool, naming the bounds, with a next call that fits (they were silently replaced by
// defaults: "limit": 51 listed 20; "scope": "nonsense" was suggested back). A workdir refused
// where the session has no folders says so rather than "may use ()".
func TestStdioArgumentsOutsideTheSchema(t *testing.T) {
	c := stdio(t, t.TempDir(), clientOpts{noRoots: true}, "--agent", "tester")
	for _, tc := range []struct {
		tool string
		args map[string]any
		code string
		next map[string]any
	}{
		{"memory_list", map[string]any{"limit": 51}, "mcp_argument_out_of_range", map[string]any{"limit": float64(50)}},
		{"memory_list", map[string]any{"limit": 0}, "mcp_argument_out_of_range", map[string]any{"limit": float64(1)}},
		{"memory_list", map[string]any{"limit": -3, "type": "user"}, "mcp_argument_out_of_range", map[string]any{"limit": float64(1), "type": "user"}},
		{"memory_list", map[string]any{"limit": "51"}, "mcp_argument_out_of_range", map[string]any{"limit": float64(50)}},
		{"memory_search", map[string]any{"query": "q", "limit": 5.5}, "mcp_argument_out_of_range", map[string]any{"query": "q", "limit": float64(5)}},
		{"graph_entities", map[string]any{"limit": 501}, "mcp_argument_out_of_range", map[string]any{"limit": float64(500)}},
		{"memory_list", map[string]any{"scope": "nonsense"}, "mcp_argument_not_allowed", map[string]any{}},
		{"memory_update", map[string]any{"slug": "x", "scope": "global", "mode": "append", "body": "b"}, "mcp_argument_not_allowed",
			map[string]any{"slug": "x", "scope": "global", "body": "b"}},
	} {
		e := c.fails(tc.tool, tc.args, tc.code)
		next, _ := e["suggested_next_call"].(map[string]any)
		if next["tool"] != tc.tool || toJSON(next["arguments"]) != toJSON(tc.next) {
			t.Errorf("%s %v: next call %v, want %v", tc.tool, tc.args, next, tc.next)
		}
		if msg := e["message"].(string); tc.code == "mcp_argument_out_of_range" && !strings.Contains(msg, "from") {
			t.Errorf("%s %v: %s", tc.tool, tc.args, msg)
		}
	}
	c.ok("memory_list", map[string]any{"limit": 50, "scope": "global"})
	e := c.fails("memory_list", map[string]any{"workdir": "/tmp"}, "workdir_not_allowed")
	if msg := e["message"].(string); strings.Contains(msg, "()") || !strings.Contains(msg, "--workdir") {
		t.Fatalf("workdir refusal without folders: %s", msg)
	}
}

// kv_delete of a key that is not there succeeds and says nothing was removed, as its
// description promises (it failed with kv_not_found).
func TestStdioKVDeleteOfAMissingKey(t *testing.T) {
	c := stdio(t, t.TempDir(), clientOpts{}, "--agent", "alpha")
	if !hasMethod(t, "kv.delete") {
		t.Skip("this build has no kv api")
	}
	out := c.ok("kv_delete", map[string]any{"key": "never-set"})
	if out["deleted"] != false || out["notice"] == nil || out["key"] != "never-set" {
		t.Fatalf("%v", out)
	}
	c.ok("kv_set", map[string]any{"key": "k", "value": "v"})
	if out := c.ok("kv_delete", map[string]any{"key": "k"}); out["deleted"] != true {
		t.Fatalf("%v", out)
	}
}

// resources/list and resources/read are the caller's own view: cacheScope "private" (the list
// was sent as "", a read as "public").
func TestHTTPResourceListIsPrivate(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	c, err := e.connect(t, clientOpts{name: "cacher"}, e.bearer())
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.CacheScope != "private" {
		t.Fatalf("cacheScope %q", res.CacheScope)
	}
	rd, err := c.cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "engram://index"})
	if err != nil || rd.CacheScope != "private" {
		t.Fatalf("the index read: %v %v", rd, err)
	}
}
