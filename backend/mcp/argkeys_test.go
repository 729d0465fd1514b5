package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// A key that is not exactly one of the schema's fields is an unknown field, and a key sent
// twice is refused, in every object the schema describes: encoding/json matched "Limit" to
// limit without regard to case (and kept the last of two), so {"Limit": 100000} passed the
// bounds check, which looks names up exactly, and listed more than the most allowed.
func TestStdioArgumentKeysMatchExactly(t *testing.T) {
	c := stdio(t, t.TempDir(), clientOpts{noRoots: true}, "--agent", "tester")
	for i := range 3 {
		c.ok("memory_write", map[string]any{"slug": "fact-" + string(rune('a'+i)), "scope": "global", "type": "user",
			"title": "Fact", "body": "A fact about tea."})
	}
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		field string
		next  map[string]any
	}{
		{"memory_list", map[string]any{"Limit": 100000}, "Limit", map[string]any{}},
		{"memory_list", map[string]any{"limit": 2, "Limit": 100000}, "Limit", map[string]any{"limit": float64(2)}},
		{"memory_search", map[string]any{"query": "tea", "Scope": "bogus"}, "Scope", map[string]any{"query": "tea"}},
		{"build_context", map[string]any{"query": "tea", "Max_tokens": 99999999}, "Max_tokens", map[string]any{"query": "tea"}},
		{"graph_neighbors", map[string]any{"entity": "Alice", "Depth": 9}, "Depth", map[string]any{"entity": "Alice"}},
		{"kv_list", map[string]any{"LIMIT": 1000000}, "LIMIT", map[string]any{}},
		// Without the key at fault a required argument is missing: no call can be suggested
		// (the call without it was, and failed again; TestSuggestedCallsCanBeMade).
		{"memory_write", map[string]any{"Scope": "bogus", "type": "user", "slug": "case-x", "title": "T", "body": "b"}, "Scope", nil},
		{"observe_turn", map[string]any{"messages": []any{map[string]any{"Role": "user", "content": "hi"}}}, "messages[0].Role", nil},
	} {
		e := c.fails(tc.tool, tc.args, "mcp_invalid_arguments")
		if msg := e["message"].(string); !strings.Contains(msg, "“"+tc.field+"”") || strings.Contains(msg, "json:") {
			t.Errorf("%s %v: the message does not name the field: %s", tc.tool, tc.args, msg)
		}
		next, _ := e["suggested_next_call"].(map[string]any)
		if tc.next == nil {
			if next != nil {
				t.Errorf("%s %v: next call %v, want none", tc.tool, tc.args, next)
			}
			continue
		}
		if next["tool"] != tc.tool || toJSON(next["arguments"]) != toJSON(tc.next) {
			t.Errorf("%s %v: next call %v, want %v", tc.tool, tc.args, next, tc.next)
		}
	}
	if n := len(c.ok("memory_list", map[string]any{"limit": 2})["items"].([]any)); n != 2 {
		t.Fatalf("limit 2 listed %d", n)
	}

	// A key sent twice (which no map can hold, so written here by hand): the bounds were
	// checked on one value and the decode took the other.
	p := startRaw(t, t.TempDir(), "--agent", "tester")
	p.initialize("2025-06-18", "")
	for id, args := range map[string]string{
		"dup-limit": `{"limit":5,"limit":100000}`,
		"dup-case":  `{"limit":5,"Limit":100000}`,
		"dup-deep":  `{"messages":[{"role":"user","content":"hi","content":"obey"}]}`,
	} {
		tool := "memory_list"
		if id == "dup-deep" {
			tool = "observe_turn"
		}
		p.send(`{"jsonrpc":"2.0","id":"` + id + `","method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`)
		m := p.answer(id)
		var res struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(m.Result, &res); err != nil || !res.IsError || len(res.Content) != 1 {
			t.Fatalf("%s: %s", id, m.raw)
		}
		if !strings.Contains(res.Content[0].Text, `"code":"mcp_invalid_arguments"`) {
			t.Fatalf("%s: %s", id, res.Content[0].Text)
		}
	}
}
