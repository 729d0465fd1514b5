package hook

import (
	"context"
	"fmt"

	"engram/backend/coded"
)

// Codes of hook failures, translated as "error.<code>".
const (
	CodeInvalidPayload = "hook_invalid_payload"
	CodeTranscript     = "hook_transcript_unreadable"
	CodeNotDelivered   = "hook_not_delivered"
	// CodeDeferred: the caller's deadline (ctx) passed before the turn was claimed, so nothing
	// of it was kept and another run may take it whole. `engram hook` hands the payload to a
	// detached run of itself on this code: the agent must never wait past its bound.
	CodeDeferred = "hook_deferred"
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

// detailKey is the argument naming the catalog key (detail.*) of an error's Detail, which the
// api translates in the person's language (api.DetailKey): the English Detail stays for logs.
const detailKey = "DetailKey"

// invalid refuses field of a payload: detail is the English reason, key its catalog key, and
// extra the key's placeholders (Value, Max). The message names the field as the agent spells
// it, so the person can find it in the hook's configuration or the agent's bug report.
func invalid(field, key, detail string, extra map[string]any) *Error {
	args := map[string]any{"Field": field, "Detail": detail, detailKey: key}
	for k, v := range extra {
		args[k] = v
	}
	return codeErr(CodeInvalidPayload, args, "%s: %s", field, detail)
}

// missing refuses a field the payload lacks.
func missing(field string) *Error { return invalid(field, "detail.hook_missing", "it is missing", nil) }

// unreadable is a transcript that could not be read at path: the OS's reason, in the person's
// words when it is one people meet (coded.Reason: no such file, permission denied…).
func unreadable(path string, err error) *Error {
	args := coded.Reason(map[string]any{"Path": path}, err)
	return codeErr(CodeTranscript, args, "unable to read the transcript %s: %v", path, err)
}

// deferred is returned instead of err when ctx's deadline (the agent's bound) passed before
// the turn was claimed: nothing was kept, and the caller hands the turn to a run that has
// time. Other failures pass through.
func deferred(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	return codeErr(CodeDeferred, map[string]any{"Detail": err.Error()},
		"the hook's time ran out before the turn was taken (%v)", err)
}
