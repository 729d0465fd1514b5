package extraction

import "fmt"

// Codes of extraction failures crossing the api; each has an i18n key "error.<code>".
const (
	CodeNotRunning      = "extraction_not_running"
	CodeRunNotFound     = "extraction_run_not_found"
	CodeInvalidRequest  = "extraction_invalid_request"
	CodeInvalidSettings = "extraction_invalid_setting"
)

// Error is a coded extraction failure; Args fill the translated message's placeholders.
type Error struct {
	Code string
	Args map[string]any
	Msg  string
}

func (e *Error) Error() string { return "extraction: " + e.Msg }

// ErrorCode is the stable code the api translates as "error.<code>".
func (e *Error) ErrorCode() string { return e.Code }

// ErrorArgs fill the translated message's placeholders.
func (e *Error) ErrorArgs() map[string]any { return e.Args }

func codeErr(code string, args map[string]any, format string, a ...any) *Error {
	return &Error{Code: code, Args: args, Msg: fmt.Sprintf(format, a...)}
}
