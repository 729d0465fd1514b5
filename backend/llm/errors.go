package llm

import (
	"errors"
	"fmt"
)

// Codes of user-visible LLM failures. Each has an i18n key "error.<code>" in locales/.
const (
	CodeNotConfigured = "llm_not_configured"
	CodeInvalidConfig = "llm_invalid_config"
	CodeNoModel       = "llm_no_model"
	CodeTimeout       = "llm_timeout"
	CodeCanceled      = "llm_canceled"
	CodeRateLimited   = "llm_rate_limited"
	// CodeOutOfCredit: the provider's account has no credit or quota left (not retried).
	CodeOutOfCredit = "llm_out_of_credit"
	CodeAuthFailed  = "llm_auth_failed"
	CodeUnreachable = "llm_unreachable"
	CodeBadResponse = "llm_bad_response"
	CodeServerError = "llm_server_error"
	CodeRejected    = "llm_rejected"
	// CodeNoEndpoint: the address called answered 404 (a base URL missing /v1, Anthropic's
	// carrying it, a model the server does not have).
	CodeNoEndpoint = "llm_no_endpoint"
	// CodeRedirected: the endpoint sent the call on to another host (or from https to http),
	// where the key and the conversation would follow; the redirect is not followed.
	CodeRedirected = "llm_redirected"
	CodeKeyStore   = "llm_key_store"
	CodeKeyEmpty   = "llm_key_empty"
	// CodeKeyDesktopOnly refuses setting a key over remote access (api enforces it).
	CodeKeyDesktopOnly = "llm_key_desktop_only"
)

// Error is a coded LLM failure. Code names the message (i18n key "error.<Code>"), Args fill its
// placeholders, Msg is the English detail for logs. Neither ever holds an API key: details
// from a provider pass through redact first.
type Error struct {
	Code string
	Args map[string]any
	Msg  string
	Err  error
	// Status is the provider's HTTP status when it answered (0 when it did not).
	Status int
	// Attempts is how many calls were made before giving up.
	Attempts int
}

func (e *Error) Error() string {
	if e.Err != nil {
		return "llm: " + e.Msg + ": " + e.Err.Error()
	}
	return "llm: " + e.Msg
}

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode is the stable code the api translates as "error.<code>".
func (e *Error) ErrorCode() string { return e.Code }

// ErrorArgs fill the translated message's placeholders.
func (e *Error) ErrorArgs() map[string]any { return e.Args }

func codeErr(code string, args map[string]any, format string, a ...any) *Error {
	return &Error{Code: code, Args: args, Msg: fmt.Sprintf(format, a...)}
}

// CodeOf returns the code of a coded LLM error, or "" when err carries none.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// ErrNotConfigured is what a provider of clients answers while no model is set up.
func ErrNotConfigured() error {
	return codeErr(CodeNotConfigured, nil, "no language model is configured")
}
