package recall

import (
	"errors"
	"fmt"

	"engram/backend/memory"
)

// Error codes of this package; each has an i18n key "error.<code>".
const (
	CodeInvalidQuery   = "invalid_query"
	CodeInvalidPattern = "invalid_pattern"
	CodeInvalidBudget  = "invalid_budget"
	CodeInvalidAction  = "invalid_action"
	CodeReadOnlyTool   = "read_only_tool"
	CodeMissingField   = "missing_field"
	CodeAmbiguousSlug  = "ambiguous_slug"
	// CodeScopeNotVisible refuses a call that asks for more than its caller may see: another
	// project's workdir, another agent, or a scope the caller has no instance of.
	CodeScopeNotVisible = "scope_not_visible"
	// CodePersonOnly refuses accept from a model: only a person marks a memory reviewed.
	CodePersonOnly = "person_only_action"
)

// Error is a coded failure of recall. Args fill the translated message's placeholders.
type Error struct {
	Code string
	Args map[string]any
	Msg  string
}

// Error is the message, prefixed by the layer.
func (e *Error) Error() string { return "recall: " + e.Msg }

// ErrorCode is the stable code the api translates as "error.<code>".
func (e *Error) ErrorCode() string { return e.Code }

// ErrorArgs fill the translated message's placeholders.
func (e *Error) ErrorArgs() map[string]any { return e.Args }

func codeErr(code string, args map[string]any, format string, a ...any) *Error {
	return &Error{Code: code, Args: args, Msg: fmt.Sprintf(format, a...)}
}

// coded is what every coded error of the backend offers (memory, embed, vector, recall).
type coded interface {
	ErrorCode() string
	ErrorArgs() map[string]any
}

// codeOf returns the code of err as api would report it.
func codeOf(err error) (string, map[string]any) {
	var c coded
	if errors.As(err, &c) {
		return c.ErrorCode(), c.ErrorArgs()
	}
	var me *memory.Error
	if errors.As(err, &me) {
		return me.Code, me.Args
	}
	return "internal", map[string]any{"Detail": err.Error()}
}
