package recall

import (
	"fmt"

	"engram/backend/coded"
	"engram/backend/memory"
)

// Error codes of this package; each has an i18n key "error.<code>".
const (
	// CodeInvalidQuery is the store's code: a query too long for either layer reads the same.
	CodeInvalidQuery   = memory.CodeInvalidQuery
	CodeInvalidPattern = "invalid_pattern"
	CodeInvalidBudget  = "invalid_budget"
	CodeInvalidAction  = "invalid_action"
	CodeReadOnlyTool   = "read_only_tool"
	CodeMissingField   = "missing_field"
	CodeAmbiguousSlug  = "ambiguous_slug"
	// CodeScopeNotVisible refuses a call that asks for more than its caller may see: another
	// project's workdir, another agent, or a scope the caller has no instance of.
	CodeScopeNotVisible = "scope_not_visible"
	// CodeNoProjectHere and CodeNoAgentHere refuse the project or agent scope to a caller that
	// has none (an MCP client started without --workdir and sharing no roots, or without
	// --agent): "outside what this caller may see" sent the person looking for a permission.
	CodeNoProjectHere = "scope_no_project"
	CodeNoAgentHere   = "scope_no_agent"
	// CodePersonOnly refuses accept from a model: only a person marks a memory reviewed.
	CodePersonOnly = memory.CodePersonOnly
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

// codeOf returns the code of err as api would report it.
func codeOf(err error) (string, map[string]any) {
	if c, ok := coded.As(err); ok {
		return c.ErrorCode(), c.ErrorArgs()
	}
	return memory.CodeInternal, map[string]any{"Detail": err.Error()}
}
