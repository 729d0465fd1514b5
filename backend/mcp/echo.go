package mcp

import (
	"encoding/json"
	"maps"
	"unicode/utf8"
)

// A refusal names what it refused — the entity, slug, scope, workdir, key, tool, method or
// address a model sent — and that value came back whole, in the message and again in the
// arguments: a 300 KB slug made a 600 KB refusal (a 300 KB entity name 900 KB), past the
// --max-tokens every result is meant to stay within and past the 25,000 tokens Claude Code
// accepts from a tool, so the agent saw its client's error instead of the refusal. What a
// refusal quotes of the caller's input is cut to maxEcho characters.

// maxEcho is how many characters of one value a refusal quotes; maxEchoDetail for a detail,
// which quotes a value within its own words.
const (
	maxEcho       = 200
	maxEchoDetail = 2000
)

// cutEcho is s cut to max characters, "…" marking the cut.
func cutEcho(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// bounded is e with every string it quotes cut (cutEcho), its message made again from the cut
// arguments when the catalog has it (else cut itself).
func (s *Server) bounded(e *toolError) *toolError {
	args, cut := cutArgs(e.Args)
	out := *e
	if cut {
		out.Args = args
		if tr := s.api.Error(e.Code, args); tr.I18nKey == "error."+e.Code {
			out.Message = tr.Message
		}
	}
	out.Message = cutEcho(out.Message, maxEchoDetail)
	if e.SuggestedNextCall != nil {
		out.SuggestedNextCall = &nextCall{Tool: e.SuggestedNextCall.Tool, Arguments: uncut(e.SuggestedNextCall.Arguments)}
	}
	return &out
}

// uncut is a suggested call's arguments without those too long to repeat (maxSuggest): a value
// is never cut, since a call made with it would write the cut text (nextcall.go).
func uncut(args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		if b, err := json.Marshal(v); err == nil && len(b) <= maxSuggest {
			out[k] = v
		}
	}
	return out
}

// cutArgs is args with its long strings cut, and whether any was.
func cutArgs(args map[string]any) (map[string]any, bool) {
	var out map[string]any
	for k, v := range args {
		str, ok := v.(string)
		if !ok {
			continue
		}
		max := maxEcho
		if k == "Detail" {
			max = maxEchoDetail
		}
		if c := cutEcho(str, max); c != str {
			if out == nil {
				out = maps.Clone(args)
			}
			out[k] = c
		}
	}
	if out == nil {
		return args, false
	}
	return out, true
}
