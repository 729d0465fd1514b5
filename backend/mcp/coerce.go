package mcp

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Models often send a number or a yes/no as a string ("limit": "5", "include_archived":
// "true") or one string where the schema asks for a list ("types": "person"). Each is read as
// what the tool's input schema says the field is, before the strict decode (Server.decode),
// so the call works the first time instead of costing a round trip; anything else that does
// not fit is still refused with the fix named. Only the top-level fields a schema declares
// are read; a value that does not convert cleanly is left as sent.
func coerceArgs(schema map[string]any, raw json.RawMessage) json.RawMessage {
	props, _ := schema["properties"].(map[string]any)
	trimmed := bytes.TrimSpace(raw)
	if len(props) == 0 || len(trimmed) == 0 || trimmed[0] != '{' {
		return raw
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(trimmed, &args) != nil {
		return raw
	}
	changed := false
	for name, v := range args {
		prop, _ := props[name].(map[string]any)
		typ, _ := prop["type"].(string)
		v = bytes.TrimSpace(v)
		if typ == "integer" && len(v) > 0 && v[0] != '"' {
			// A whole number written with a fraction or an exponent (5.0, 5e0) is an integer
			// to JSON Schema, and Python's json writes a float 5.0 so: it was refused as "not a
			// whole number", naming 5.0.
			if n, ok := wholeNumber(string(v)); ok && !integerID.Match(v) {
				args[name], changed = json.RawMessage(strconv.FormatInt(n, 10)), true
			}
			continue
		}
		var s string
		if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
			continue // only strings are converted
		}
		s = strings.TrimSpace(s)
		var out any
		switch typ {
		case "integer":
			if n, ok := wholeNumber(s); ok {
				out = n
			}
		case "number":
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				out = f
			}
		case "boolean":
			if b, err := strconv.ParseBool(strings.ToLower(s)); err == nil {
				out = b
			}
		case "array":
			if items, _ := prop["items"].(map[string]any); items["type"] == "string" {
				out = []string{s}
			}
		}
		if out == nil {
			continue
		}
		if b, err := json.Marshal(out); err == nil {
			args[name], changed = b, true
		}
	}
	if !changed {
		return raw
	}
	b, err := json.Marshal(args)
	if err != nil {
		return raw
	}
	return b
}

// wholeNumber reads s as a whole number: an integer, or a number whose fraction is zero
// ("5.0", "5e0") within the integers a float64 holds exactly.
func wholeNumber(s string) (int64, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeID {
		return 0, false
	}
	return int64(f), true
}
