package mcp

import (
	"encoding/json"
	"testing"
)

// A string where the schema asks for a number, a yes/no or a list is read as one; anything
// that does not convert cleanly, and every field the schema does not declare, is left as sent
// for the strict decode to refuse.
func TestCoerceArgs(t *testing.T) {
	schema := object(map[string]any{"query": str("q"), "limit": integer("n", 1, 50), "weight": map[string]any{"type": "number"},
		"archived": map[string]any{"type": "boolean"}, "types": strs("t"), "depth": integer("d", 1, 3)}, "query")
	for _, tc := range []struct{ in, want string }{
		{`{"query":"x","limit":"5"}`, `{"limit":5,"query":"x"}`},
		{`{"query":"x","limit":" 7 ","archived":"TRUE","weight":"0.5"}`, `{"archived":true,"limit":7,"query":"x","weight":0.5}`},
		{`{"query":"x","types":"person"}`, `{"query":"x","types":["person"]}`},
		{`{"query":"x","limit":"five"}`, `{"query":"x","limit":"five"}`}, // left for the decode to refuse
		{`{"query":"x","limit":"2.5"}`, `{"query":"x","limit":"2.5"}`},   // not an integer
		{`{"query":"x","unknown":"5"}`, `{"query":"x","unknown":"5"}`},   // not in the schema
		{`{"query":5}`, `{"query":5}`},                                   // a number where a string is asked: not guessed
		{`{"query":"x","limit":5}`, `{"query":"x","limit":5}`},           // already right
		// A whole number with a fraction or an exponent is an integer (JSON Schema; Python
		// writes a float 5.0 so); one with a fraction that is not zero, or past 2^53, is not.
		{`{"query":"x","limit":5.0}`, `{"limit":5,"query":"x"}`},
		{`{"query":"x","limit":5e0,"depth":"2.0"}`, `{"depth":2,"limit":5,"query":"x"}`},
		{`{"query":"x","limit":2.5}`, `{"query":"x","limit":2.5}`},
		{`{"query":"x","limit":1e308}`, `{"query":"x","limit":1e308}`},
		{`{"query":"x","limit":true}`, `{"query":"x","limit":true}`},
		{`null`, `null`}, {``, ``}, {`[1,2]`, `[1,2]`}, {`{"query":`, `{"query":`},
	} {
		got := string(coerceArgs(schema, json.RawMessage(tc.in)))
		if got != tc.want {
			t.Errorf("coerceArgs(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
