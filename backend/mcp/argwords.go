package mcp

import (
	"encoding/json"
	"errors"
	"strings"

	"engram/backend/api"
)

// The words of an argument refusal's detail come from the catalog, like the refusal itself:
// it embedded Go's decoder ("cannot unmarshal string into Go struct field searchArgs.limit of
// type int") and English phrases ("query is required") in the person's language's sentence.

// kindKey is the catalog key naming what a schema property holds ("a whole number").
func kindKey(prop map[string]any) string {
	switch prop["type"] {
	case "string":
		return "detail.mcp_kind_string"
	case "integer":
		return "detail.mcp_kind_integer"
	case "number":
		return "detail.mcp_kind_number"
	case "boolean":
		return "detail.mcp_kind_boolean"
	case "array":
		if items, _ := prop["items"].(map[string]any); items["type"] == "string" {
			return "detail.mcp_kind_strings"
		}
		return "detail.mcp_kind_list"
	case "object":
		return "detail.mcp_kind_object"
	}
	return "detail.mcp_kind_value"
}

// kindFits reports whether the JSON value v (trimmed, not null) is of the kind prop's type
// names; a number's bounds and a whole number's fraction are the bounds check's.
func kindFits(prop map[string]any, v []byte) bool {
	switch prop["type"] {
	case "string":
		return v[0] == '"'
	case "integer", "number":
		return v[0] == '-' || v[0] >= '0' && v[0] <= '9'
	case "boolean":
		return string(v) == "true" || string(v) == "false"
	case "object":
		return v[0] == '{'
	case "array":
		var elems []json.RawMessage
		if v[0] != '[' || json.Unmarshal(v, &elems) != nil {
			return false
		}
		items, _ := prop["items"].(map[string]any)
		for _, e := range elems {
			if items["type"] == "string" && (len(e) == 0 || e[0] != '"') {
				return false
			}
		}
	}
	return true
}

// detail translates one detail key with its arguments.
func (s *Server) detail(key string, args map[string]any) string { return s.api.Text(key, args) }

// fieldType says that field must hold what prop describes.
func (s *Server) fieldType(field string, prop map[string]any) string {
	return s.detail("detail.mcp_field_type", map[string]any{"Field": field, "Want": s.detail(kindKey(prop), nil)})
}

// required refuses a call without field (or with it empty), naming it; next is the call to make.
func (s *Server) required(tool, field string, next *nextCall) *toolError {
	return s.codedError(codeInvalidArguments, map[string]any{"Tool": tool,
		"Detail": s.detail("detail.mcp_field_required", map[string]any{"Field": field})}, next)
}

// decodeDetail words what the strict decode refused, which the checks before it let through
// (a value of the wrong kind inside a list's objects): the field and the kind it takes, as the
// schema says, else as the Go type says.
func (s *Server) decodeDetail(tool string, err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return s.detail("detail.mcp_arguments_unreadable", nil)
	}
	if prop := schemaAt(s.schemas[tool], te.Field); prop != nil {
		return s.fieldType(te.Field, prop)
	}
	kind := map[string]string{"string": "string", "true/false": "boolean", "number": "number", "list": "array",
		"object": "object"}[api.JSONKind(te.Type)]
	return s.fieldType(te.Field, map[string]any{"type": kind})
}

// schemaAt is the property a dotted path ("messages.content", as Go names a field inside a
// list's objects) leads to in schema, or nil.
func schemaAt(schema map[string]any, path string) map[string]any {
	cur := schema
	for _, name := range strings.Split(path, ".") {
		if items, ok := cur["items"].(map[string]any); ok && cur["type"] == "array" {
			cur = items
		}
		props, _ := cur["properties"].(map[string]any)
		next, _ := props[name].(map[string]any)
		if next == nil {
			return nil
		}
		cur = next
	}
	return cur
}
