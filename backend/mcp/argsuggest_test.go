package mcp_test

import (
	"encoding/json"
	"testing"
)

// A required argument of the wrong kind is not dropped from the suggested next call, which
// would fail again for the missing argument (`memory_search {"query": 42}` suggested
// `memory_search {}`): a number or true/false where a string goes comes back as its text, and
// otherwise no call is suggested. An optional one is still left out.
func TestWrongKindSuggestsACallThatCanWork(t *testing.T) {
	c := stdio(t, t.TempDir(), clientOpts{}, "--agent", "tester")
	for _, tc := range []struct {
		tool string
		args map[string]any
		next any // the suggested arguments, nil for none
	}{
		{"memory_search", map[string]any{"query": 42, "limit": 5}, map[string]any{"query": "42", "limit": float64(5)}},
		{"kv_get", map[string]any{"key": true}, map[string]any{"key": "true"}},
		{"kv_get", map[string]any{"key": []any{"a"}}, nil},
		{"memory_write", map[string]any{"slug": "s-one", "scope": "global", "type": "user", "title": map[string]any{"a": 1}, "body": "b"}, nil},
		{"memory_list", map[string]any{"scope": 5, "limit": 3}, map[string]any{"limit": float64(3)}},
	} {
		e := c.fails(tc.tool, tc.args, "mcp_invalid_arguments")
		next, _ := e["suggested_next_call"].(map[string]any)
		if tc.next == nil {
			if next != nil {
				t.Fatalf("%s %v: suggested %v", tc.tool, tc.args, next)
			}
			continue
		}
		if next == nil || next["tool"] != tc.tool || toJSON(next["arguments"]) != toJSON(tc.next) {
			t.Fatalf("%s %v: suggested %v, want %v", tc.tool, tc.args, next, tc.next)
		}
	}
}

// A whole number written 5.0 or 5e0 is taken where the schema asks for an integer, as JSON
// Schema reads it (Python's json writes a float so): memory_search refused "limit": 5.0 as
// "not a whole number … not 5.0". 5.5 is still refused.
func TestWholeNumbersWithAFractionAreIntegers(t *testing.T) {
	c := stdio(t, t.TempDir(), clientOpts{}, "--agent", "tester")
	// As sent: Go's encoder would write the float 5.0 as 5.
	for _, limit := range []string{`5.0`, `"5.0"`, `5e0`} {
		c.ok("memory_list", map[string]any{"limit": json.RawMessage(limit)})
	}
	c.ok("kv_list", map[string]any{"limit": json.RawMessage(`1.0e2`)})
	c.fails("memory_list", map[string]any{"limit": json.RawMessage(`5.5`)}, "mcp_argument_out_of_range")
}
