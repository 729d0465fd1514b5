package hook

import "fmt"

// Codes of hook failures, translated as "error.<code>".
const (
	CodeInvalidPayload = "hook_invalid_payload"
	CodeTranscript     = "hook_transcript_unreadable"
	CodeNotDelivered   = "hook_not_delivered"
)

// Error is a coded hook failure (backend/coded's shape).
type Error struct {
	Code string
	Args map[string]any
	Msg  string
}

func (e *Error) Error() string { return "hook: " + e.Msg }

// ErrorCode is the stable code the api translates.
func (e *Error) ErrorCode() string { return e.Code }

// ErrorArgs fill the translated message's placeholders.
func (e *Error) ErrorArgs() map[string]any { return e.Args }

func codeErr(code string, args map[string]any, format string, a ...any) *Error {
	return &Error{Code: code, Args: args, Msg: fmt.Sprintf(format, a...)}
}
