package api

import (
	"strings"

	"engram/backend/i18n"
)

// Names inside a translated message. A coded error carries its arguments as the code speaks
// them: a field is "title", a scope "global", a decision's status "pending". Put into a Chinese
// message as they are, they read "字段 title 过长" — English in the middle of Chinese text. The
// arguments stay as they are (callers and agents match on them); the message is rendered with
// each such name in the person's language, and the error's Args carry the catalog key of the
// name (FieldKey, StatusKey) so the UI, which renders the message again when the language
// changes, shows the same words.

// rawFieldKeys are the messages whose Field is data the person or the agent must type exactly:
// a key of their own file (an import line, a YAML header, a hook's JSON) or an argument name of
// an MCP tool. Naming it in Chinese would hide the very spelling to fix.
var rawFieldKeys = map[string]bool{
	"error.line_unknown_field":        true,
	"error.line_field_type":           true,
	"error.line_bad_time":             true,
	"error.hook_invalid_payload":      true,
	"error.mcp_argument_out_of_range": true,
	"error.mcp_argument_not_allowed":  true,
	"detail.yaml_repeated_field":      true,
	"detail.entry_no_text":            true,
	"detail.mcp_unknown_field":        true,
	"detail.mcp_repeated_field":       true,
	"detail.mcp_field_type":           true,
	"detail.mcp_field_required":       true,
	"detail.mcp_too_many":             true,
	"detail.mcp_field_one_of":         true,
	"detail.mcp_field_too_long":       true,
}

// statusSections names, for the messages whose Status is one of Engram's own statuses, the
// catalog section that says it in words (a run's status and a decision's differ).
var statusSections = map[string]string{
	"error.organizer_decision_not_pending": "organizer.decision_status.",
	"error.organizer_report_unavailable":   "organizer.status.",
}

// enumSections are the arguments that hold one of a memory's enums (and a quota's level), read in place (the UI
// does the same in localiseArgs): an unknown value, quoted back by invalid_scope and its
// kind, has no entry and stays as typed.
var enumSections = map[string]string{
	"Scope":      "ui.scopes.",
	"Type":       "ui.types.",
	"Confidence": "ui.confidence.",
	"Level":      "quota.level.",
}

// termKeys returns args with FieldKey and StatusKey added when key's message names a field or
// a status the catalog says in words; args itself is left as it was. The raw value stays.
func (a *API) termKeys(key string, args map[string]any) map[string]any {
	return termKeys(a.deps.Catalog, key, args)
}

func termKeys(cat *i18n.Catalog, key string, args map[string]any) map[string]any {
	if cat == nil || args == nil {
		return args
	}
	add := map[string]string{}
	if f, ok := args["Field"].(string); ok && f != "" && !rawFieldKeys[key] {
		if _, set := args["FieldKey"]; !set && cat.Has("field."+f) {
			add["FieldKey"] = "field." + f
		}
	}
	if sec, ok := statusSections[key]; ok {
		if s, ok := args["Status"].(string); ok && s != "" && cat.Has(sec+s) {
			if _, set := args["StatusKey"]; !set {
				add["StatusKey"] = sec + s
			}
		}
	}
	if len(add) == 0 {
		return args
	}
	out := make(map[string]any, len(args)+len(add))
	for k, v := range args {
		out[k] = v
	}
	for k, v := range add {
		out[k] = v
	}
	return out
}

// termArgs is what a message is rendered with: a copy of args where every name that has a
// key (FieldKey, StatusKey) or is one of a memory's enums is said in the current language.
func (a *API) termArgs(args map[string]any) map[string]any {
	return termArgs(a.deps.Catalog, a.language(), args)
}

func termArgs(cat *i18n.Catalog, lang string, args map[string]any) map[string]any {
	if cat == nil || args == nil {
		return args
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = v
	}
	for _, name := range []string{"Field", "Status"} {
		if key, ok := args[name+"Key"].(string); ok && cat.Has(key) {
			out[name] = cat.T(lang, key, nil)
		}
	}
	for name, sec := range enumSections {
		if v, ok := args[name].(string); ok && v != "" && !strings.ContainsAny(v, " .") && cat.Has(sec+v) {
			out[name] = cat.T(lang, sec+v, nil)
		}
	}
	return out
}

// codedText renders the message of a code's key (error.*, warning.*, extraction.code.*) with
// its names said in the current language, for results that carry a message beside their code
// rather than an *Error.
func (a *API) codedText(key string, args map[string]any) string {
	return a.t(key, a.termArgs(a.termKeys(key, args)))
}

// CodedText is codedText for a caller without an API (the CLI, when the home failed to open):
// the message of key in lang with its field, status and enum names said in that language.
func CodedText(cat *i18n.Catalog, lang, key string, args map[string]any) string {
	if cat == nil {
		return key
	}
	return cat.T(lang, key, termArgs(cat, lang, termKeys(cat, key, args)))
}
