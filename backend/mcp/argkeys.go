package mcp

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// member is one key of a JSON object and its value, in the order sent.
type member struct {
	key   string
	value json.RawMessage
}

// members reads a JSON object's members in order, a repeated key as often as it comes (a map
// keeps only its last value); ok is false when raw is not one object.
func members(raw []byte) ([]member, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		key, isKey := tok.(string)
		if err != nil || !isKey {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, member{key, v})
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, false
	}
	return out, true
}

// keyFault is the first key of a call's arguments that its schema does not take as sent.
type keyFault struct {
	path      string // where, for the message: "Limit", "messages[0].Role"
	drop      string // the top-level key it lies under (the key itself at the top)
	detailKey string
	fields    []string // the object's own field names (an unknown key)
}

// checkKeys refuses a call whose arguments hold a key that is not exactly one of its schema's
// fields, or a key twice, in any object the schema describes. encoding/json matches keys
// without regard to case and keeps the last of a repeated key, while the argument checks look
// names up exactly: {"Limit": 100000} passed the bounds check (no "limit") and was decoded as
// limit. So the keys are checked on the arguments as sent, before anything reads them into a
// map, and what the decode later sees is only keys the checks saw.
func (s *Server) checkKeys(tool string, raw json.RawMessage) *toolError {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return nil
	}
	f := keyFaultOf(s.schemas[tool], trimmed, "", "")
	if f == nil {
		return nil
	}
	detail := s.api.Text(f.detailKey, map[string]any{"Field": cutEcho(f.path, maxEcho), "Fields": strings.Join(f.fields, ", ")})
	next := map[string]any{}
	if mm, ok := members(trimmed); ok {
		args := map[string]json.RawMessage{}
		for _, m := range mm {
			args[m.key] = m.value
		}
		// The same call without the key at fault (the whole field it lies under).
		next = nextArgs(args, f.drop, nil)
	}
	e := s.codedError(codeInvalidArguments, map[string]any{"Tool": tool, "Detail": detail},
		&nextCall{Tool: tool, Arguments: next})
	e.refused = []string{f.drop}
	return e
}

// keyFaultOf walks raw along schema (at path, under the top-level key top) and returns its first
// key fault, or nil. Values of the wrong kind are left to the value checks.
func keyFaultOf(schema map[string]any, raw []byte, path, top string) *keyFault {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	switch raw[0] {
	case '{':
		props, _ := schema["properties"].(map[string]any)
		if props == nil {
			return nil // any object (kv_set's value)
		}
		mm, ok := members(raw)
		if !ok {
			return nil
		}
		seen := map[string]bool{}
		for _, m := range mm {
			at, drop := m.key, m.key
			if path != "" {
				at, drop = path+"."+m.key, top
			}
			prop, known := props[m.key].(map[string]any)
			switch {
			case seen[m.key]:
				return &keyFault{path: at, drop: drop, detailKey: "detail.mcp_repeated_field"}
			case !known:
				return &keyFault{path: at, drop: drop, detailKey: "detail.mcp_unknown_field", fields: sortedKeys(props)}
			}
			seen[m.key] = true
			if f := keyFaultOf(prop, m.value, at, drop); f != nil {
				return f
			}
		}
	case '[':
		items, _ := schema["items"].(map[string]any)
		if items == nil {
			return nil
		}
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			return nil
		}
		for i, e := range elems {
			if f := keyFaultOf(items, e, path+"["+strconv.Itoa(i)+"]", top); f != nil {
				return f
			}
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
