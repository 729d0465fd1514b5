package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// Every tool's input schema is one the clients read as written: a valid JSON Schema in draft
// 2020-12 and draft-07 (checked here with the SDK's own validator; ajv's strict mode was run on
// the same list by hand), every property typed — alone or by each alternative of an anyOf, as
// Gemini CLI requires before it offers a tool at all (its hasValidTypes skipped kv_set, whose
// value had no type) — and no list of types, which Gemini's API and ajv's strict mode refuse.
func TestStdioInputSchemasClientsRead(t *testing.T) {
	c := stdio(t, t.TempDir(), clientOpts{}, "--agent", "tester")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		raw, _ := json.Marshal(tl.InputSchema)
		var tree map[string]any
		_ = json.Unmarshal(raw, &tree)
		if path, ok := typedThroughout(tree, tl.Name); !ok {
			t.Errorf("%s: %s has no single type a client can read\n%s", tl.Name, path, raw)
		}
		for _, draft := range []string{"https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"} {
			var s jsonschema.Schema
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatalf("%s: %v", tl.Name, err)
			}
			s.Schema = draft
			if _, err := s.Resolve(nil); err != nil {
				t.Errorf("%s (%s): %v", tl.Name, draft, err)
			}
		}
	}
	// kv_set's value: any JSON value but null.
	var s jsonschema.Schema
	for _, tl := range res.Tools {
		if tl.Name == "kv_set" {
			raw, _ := json.Marshal(tl.InputSchema)
			_ = json.Unmarshal(raw, &s)
		}
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{map[string]any{"a": 1.0}, []any{1.0, "x"}, "text", 4.5, true, nil,
		[]any{[]any{1.0, "x", nil}, map[string]any{"b": []any{}}, nil, false}} {
		err := rs.Validate(map[string]any{"key": "k", "value": v})
		if (err == nil) != (v != nil) {
			t.Errorf("kv_set value %#v: %v", v, err)
		}
	}
}

// typedThroughout is Gemini CLI's hasValidTypes with one more rule: a schema names one type,
// or (without one) is an anyOf/allOf/oneOf whose every alternative does; objects' properties
// and arrays' items are read the same way, and an array names its items (Gemini's API). It
// returns where it fails.
func typedThroughout(s map[string]any, at string) (string, bool) {
	switch s["type"].(type) {
	case string:
	case nil:
		found := false
		for _, k := range []string{"anyOf", "allOf", "oneOf"} {
			alts, _ := s[k].([]any)
			for i, alt := range alts {
				found = true
				m, _ := alt.(map[string]any)
				if path, ok := typedThroughout(m, fmt.Sprintf("%s.%s[%d]", at, k, i)); !ok {
					return path, false
				}
			}
		}
		if !found {
			return at, false
		}
	default:
		return at, false // a list of types
	}
	if props, ok := s["properties"].(map[string]any); ok && s["type"] == "object" {
		for name, p := range props {
			m, _ := p.(map[string]any)
			if path, ok := typedThroughout(m, at+"."+name); !ok {
				return path, false
			}
		}
	}
	if s["type"] == "array" {
		// Gemini's API refuses the whole request when an array names no items ("any_of[4].items:
		// missing field"), inside an anyOf too.
		items, ok := s["items"].(map[string]any)
		if !ok {
			return at + " (no items)", false
		}
		return typedThroughout(items, at+"[]")
	}
	return "", true
}
