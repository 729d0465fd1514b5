package mcp

import (
	"encoding/json"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// A refusal's suggested_next_call is the call a model makes next, often word for word, so it
// must be one that can work. It could not: memory_write's were skeletons — an invalid slug
// suggested {"scope", "slug"}, a missing slug {"scope", "slug", "type"}, a type outside the
// list everything but the Markdown body (texts over a line are not repeated back) — and each
// failed again for a missing required argument, so the model looped or gave up the memory;
// daily_append's refusals suggested `memory_write {}`; a name already taken suggested a
// memory_update with nothing to change. And a suggested value over 200 characters was cut
// with "…", so a call that did work wrote the cut text.
//
// Now a retry of the same tool (and the update a taken name suggests after memory_write)
// carries the caller's own arguments that its tool takes, whole, except what was refused; a
// value is never cut (one over maxSuggest is left out); and a suggestion that still does not
// fit its tool's schema — a required argument missing, a value of the wrong kind — is not
// made: the message names the fix.

// maxSuggest is the longest value, in bytes of JSON, a suggested call carries: a memory's body
// (8 KiB) fits.
const maxSuggest = 8<<10 + 64

// refusedFields are, by code, the arguments a refusal is about beyond the "Field" it names.
var refusedFields = map[string][]string{
	"body_too_large": {"body"}, "missing_body": {"body"}, "title_too_long": {"title"}, "missing_title": {"title"},
	"invalid_confidence": {"confidence"}, "invalid_mode": {"mode"}, "invalid_scope": {"scope", "workdir"},
	"invalid_type": {"type"}, "invalid_slug": {"slug"}, "reserved_slug": {"slug"},
	codeWorkdirNotAllowed: {"workdir"}, codeWorkdirOtherProject: {"workdir"},
	// The call suggested reads another memory, the nearest match: the id and version the caller
	// sent are not that memory's.
	"not_found": {"id", "expected_version"},
}

// resolveSchemas compiles each tool's input schema and each of its properties for the checks
// of suggested calls; a schema that does not compile is left out (its tool suggests nothing).
func (s *Server) resolveSchemas() {
	s.resolved = map[string]*jsonschema.Resolved{}
	s.props = map[string]map[string]*jsonschema.Resolved{}
	for name, sch := range s.schemas {
		if r := resolveSchema(sch); r != nil {
			s.resolved[name] = r
		}
		props, _ := sch["properties"].(map[string]any)
		s.props[name] = map[string]*jsonschema.Resolved{}
		for field, p := range props {
			if r := resolveSchema(p); r != nil {
				s.props[name][field] = r
			}
		}
	}
}

func resolveSchema(v any) *jsonschema.Resolved {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var sch jsonschema.Schema
	if json.Unmarshal(b, &sch) != nil {
		return nil
	}
	r, err := sch.Resolve(nil)
	if err != nil {
		return nil
	}
	return r
}

// refusal is e as the model sees it: its suggested call completed from the caller's arguments
// (raw, as checked), bounded, and left out unless it fits its tool's schema.
func (s *Server) refusal(tool string, raw json.RawMessage, e *toolError) *toolError {
	if e.SuggestedNextCall != nil {
		next := *e.SuggestedNextCall
		next.Arguments = s.carried(tool, raw, e, next)
		e = &toolError{Code: e.Code, Message: e.Message, Args: e.Args, SuggestedNextCall: &next, Candidates: e.Candidates,
			Untrusted: e.Untrusted, Allowed: e.Allowed, refused: e.refused}
	}
	out := s.bounded(e)
	if out.SuggestedNextCall != nil && !s.fits(out.SuggestedNextCall) {
		out.SuggestedNextCall = nil
	}
	return out
}

// carried is next's arguments with the caller's own added when next retries the call (or
// turns memory_write into the update of the memory already there): each argument next's tool
// takes that next does not set, that the refusal is not about, and that fits its property.
func (s *Server) carried(tool string, raw json.RawMessage, e *toolError, next nextCall) map[string]any {
	out := map[string]any{}
	for k, v := range next.Arguments {
		out[k] = v
	}
	if next.Tool != tool && (tool != "memory_write" || next.Tool != "memory_update") {
		return out
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return out
	}
	refused := map[string]bool{}
	if f, ok := e.Args["Field"].(string); ok {
		refused[f] = true
	}
	for _, f := range append(refusedFields[e.Code], e.refused...) {
		refused[f] = true
	}
	for k := range e.Args { // "Slug", "Workdir", "Key": the value quoted is the one refused
		refused[strings.ToLower(k)] = true
	}
	for k, v := range args {
		prop := s.props[next.Tool][k]
		if _, set := out[k]; set || refused[k] || prop == nil || len(v) > maxSuggest {
			continue
		}
		var val any
		if json.Unmarshal(v, &val) != nil || val == nil || prop.Validate(val) != nil || !s.allowedValue(next.Tool, k, val) {
			continue
		}
		out[k] = val
	}
	return out
}

// fits reports whether next is a call its tool's schema accepts as it stands.
func (s *Server) fits(next *nextCall) bool {
	r := s.resolved[next.Tool]
	if r == nil {
		return false
	}
	b, err := json.Marshal(next.Arguments)
	if err != nil {
		return false
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return false
	}
	return r.Validate(v) == nil
}
