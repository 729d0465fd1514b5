package mcp

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Codes of the argument checks every tool shares.
const (
	codeOutOfRange = "mcp_argument_out_of_range"
	codeNotAllowed = "mcp_argument_not_allowed"
)

// checkArgs refuses a top-level argument the tool's schema does not allow, the same way for
// every tool: a value of another kind than the schema's (named in words, not by the decoder),
// a number outside its minimum and maximum (or not a whole number), a string outside its enum. Each was silently replaced by a default before ("limit": 51 listed 20),
// so a model never learned the bounds. A null or empty value reads as absent, as before. The
// refusal names the bounds, and its next call is the same call with the value brought within
// them (or left out).
func (s *Server) checkArgs(tool string, raw json.RawMessage) *toolError {
	props, _ := s.schemas[tool]["properties"].(map[string]any)
	var args map[string]json.RawMessage
	if len(props) == 0 || json.Unmarshal(raw, &args) != nil {
		return nil // the strict decode names what is wrong
	}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v := bytes.TrimSpace(args[name])
		prop, _ := props[name].(map[string]any)
		if prop == nil || len(v) == 0 || bytes.Equal(v, []byte("null")) {
			continue
		}
		if !kindFits(prop, v) {
			return s.codedError(codeInvalidArguments, map[string]any{"Tool": tool, "Detail": s.fieldType(name, prop)},
				s.kindFix(tool, name, prop, args, v))
		}
		switch prop["type"] {
		case "integer":
			lo, hasLo := prop["minimum"].(int)
			hi, hasHi := prop["maximum"].(int)
			if !hasLo || !hasHi || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
				continue // not a number: the decode refuses it with its type
			}
			n, err := strconv.ParseInt(string(v), 10, 64)
			if err == nil && n >= int64(lo) && n <= int64(hi) {
				continue
			}
			fix := int64(lo) // the next call's value: the nearest one allowed
			if f, ferr := strconv.ParseFloat(string(v), 64); ferr == nil {
				fix = int64(min(max(f, float64(lo)), float64(hi)))
			}
			return s.codedError(codeOutOfRange, map[string]any{"Tool": tool, "Field": name, "Min": lo, "Max": hi, "Value": string(v)},
				&nextCall{Tool: tool, Arguments: nextArgs(args, name, fix)})
		case "string":
			allowed, _ := prop["enum"].([]string)
			var str string
			if len(allowed) == 0 || json.Unmarshal(v, &str) != nil || str == "" || slices.Contains(allowed, str) {
				continue
			}
			return s.codedError(codeNotAllowed, map[string]any{"Tool": tool, "Field": name, "Value": str,
				"Allowed": strings.Join(allowed, ", ")}, &nextCall{Tool: tool, Arguments: nextArgs(args, name, nil)})
		case "array":
			// A list of values from a fixed set (graph entity types): one outside it matched
			// nothing, and "types": ["people"] answered no entities rather than the mistake.
			if terr := s.checkEnumItems(tool, name, prop, args, v); terr != nil {
				return terr
			}
		}
	}
	return nil
}

// nextArgs are a call's short arguments with field set to fix (left out when nil): texts over
// a line, lists and objects are not repeated back.
func nextArgs(args map[string]json.RawMessage, field string, fix any) map[string]any {
	out := map[string]any{}
	for k, v := range args {
		var val any
		if k == field || json.Unmarshal(v, &val) != nil {
			continue
		}
		switch x := val.(type) {
		case string:
			if len(x) <= 200 && !strings.Contains(x, "\n") {
				out[k] = x
			}
		case float64, bool:
			out[k] = x
		}
	}
	if fix != nil {
		out[field] = fix
	}
	return out
}

// kindFix is the next call after field's value v was of the wrong kind: the value as text where
// a string goes and v is a number or true/false ("query": 42 → "42"), else the call without
// field — unless the tool requires it, when there is no call to suggest: the call without it
// (`memory_search {}`) was suggested, and failed again for the missing field.
func (s *Server) kindFix(tool, field string, prop map[string]any, args map[string]json.RawMessage, v []byte) *nextCall {
	var scalar any
	if prop["type"] == "string" && json.Unmarshal(v, &scalar) == nil {
		switch scalar.(type) {
		case float64, bool:
			if s.allowedValue(tool, field, string(v)) { // not "scope": "5"
				return &nextCall{Tool: tool, Arguments: nextArgs(args, field, string(v))}
			}
		}
	}
	required, _ := s.schemas[tool]["required"].([]string)
	if slices.Contains(required, field) {
		return nil
	}
	return &nextCall{Tool: tool, Arguments: nextArgs(args, field, nil)}
}

// allowedValue reports whether v may stand for field in tool's next call: not a string
// outside the field's enum (a refusal must not suggest the value it refused).
func (s *Server) allowedValue(tool, field string, v any) bool {
	props, _ := s.schemas[tool]["properties"].(map[string]any)
	prop, _ := props[field].(map[string]any)
	allowed, _ := prop["enum"].([]string)
	str, isStr := v.(string)
	return len(allowed) == 0 || !isStr || slices.Contains(allowed, str)
}

// checkEnumItems refuses a list whose items must come from an enum and one does not, naming the
// allowed values; the next call keeps the items that fit (or leaves the list out).
func (s *Server) checkEnumItems(tool, name string, prop map[string]any, args map[string]json.RawMessage, v []byte) *toolError {
	items, _ := prop["items"].(map[string]any)
	allowed, _ := items["enum"].([]string)
	var list []string
	if len(allowed) == 0 || json.Unmarshal(v, &list) != nil {
		return nil
	}
	var keep []any
	bad := ""
	for _, it := range list {
		if slices.Contains(allowed, it) {
			keep = append(keep, it)
		} else if bad == "" {
			bad = it
		}
	}
	if bad == "" {
		return nil
	}
	var fix any
	if len(keep) > 0 {
		fix = keep
	}
	return s.codedError(codeNotAllowed, map[string]any{"Tool": tool, "Field": name, "Value": bad,
		"Allowed": strings.Join(allowed, ", ")}, &nextCall{Tool: tool, Arguments: nextArgs(args, name, fix)})
}
