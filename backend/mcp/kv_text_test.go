package mcp_test

import (
	"reflect"
	"testing"
)

// A client that sends kv_set's value as text (a form, or a schema read as a string: older Codex
// CLI, Gemini CLI) sends an object as its JSON text. Such text is stored as the object or list
// it holds, and kv_set says so; kv_get gives back what the agent meant. Every other string stays
// the string it is: "42", "true", "null", text with braces that is not JSON.
func TestStdioKVSetValueSentAsJSONText(t *testing.T) {
	if !hasMethod(t, "kv.set") {
		t.Skip("this build has no kv api methods")
	}
	c := stdio(t, t.TempDir(), clientOpts{}, "--agent", "alpha")
	for _, tc := range []struct {
		key      string
		sent     any
		want     any
		fromText bool
	}{
		{"obj", `{"a":[1,2],"go":"1.26"}`, map[string]any{"a": []any{1.0, 2.0}, "go": "1.26"}, true},
		{"obj-spaced", " \n{ \"k\" : \"v\" }\n ", map[string]any{"k": "v"}, true},
		{"list", `[1,"two",{"three":3}]`, []any{1.0, "two", map[string]any{"three": 3.0}}, true},
		{"real-obj", map[string]any{"k": "v"}, map[string]any{"k": "v"}, false},
		{"num-text", "42", "42", false},
		{"bool-text", "true", "true", false},
		{"null-text", "null", "null", false},
		{"quoted", `"{}"`, `"{}"`, false},
		{"braces", "{not json}", "{not json}", false},
		{"code", "func f() { return }", "func f() { return }", false},
		{"unicode", `{"名前":"🐙"}`, map[string]any{"名前": "🐙"}, true},
	} {
		res := c.ok("kv_set", map[string]any{"key": tc.key, "value": tc.sent})
		if res["value_from_text"] == true != tc.fromText || tc.fromText && res["notice"] == nil {
			t.Errorf("kv_set %s (%#v): %v", tc.key, tc.sent, res)
		}
		if got := c.ok("kv_get", map[string]any{"key": tc.key}); !reflect.DeepEqual(got["value"], tc.want) {
			t.Errorf("kv_get %s: %#v, want %#v", tc.key, got["value"], tc.want)
		}
	}
	// The same object sent as text after being stored as itself changes nothing; a secret in
	// the text is refused as one in the object is.
	if res := c.ok("kv_set", map[string]any{"key": "real-obj", "value": `{"k":"v"}`}); res["changed"] != false {
		t.Errorf("the same object as text: %v", res)
	}
	c.fails("kv_set", map[string]any{"key": "s", "value": `{"auth":"ghp_a1B2a1B2a1B2a1B2a1B2a1B2a1B2a1B2a1B2"}`}, "secret_detected")
}
