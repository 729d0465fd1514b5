package organizer

import (
	"errors"
	"fmt"
)

// Codes of user-visible organizer failures. Each has an i18n key "error.<code>" in locales/.
const (
	CodeNotRunning         = "organizer_not_running"
	CodeRunNotFound        = "organizer_run_not_found"
	CodeBusy               = "organizer_busy"
	CodeNothingToAbort     = "organizer_nothing_to_abort"
	CodeInvalidTrigger     = "organizer_invalid_trigger"
	CodeInvalidScope       = "organizer_invalid_scope"
	CodeInvalidSetting     = "organizer_invalid_setting"
	CodeNoDecisions        = "organizer_no_decisions"
	CodeDecisionNotFound   = "organizer_decision_not_found"
	CodeDecisionNotPending = "organizer_decision_not_pending"
	CodeReportUnavailable  = "organizer_report_unavailable"
	CodeReportUnsupported  = "organizer_report_unsupported"
	CodeScanFailed         = "organizer_scan_failed"
	CodeApplyFailed        = "organizer_apply_failed"
	CodeInterrupted        = "organizer_interrupted"
	CodeInternal           = "organizer_internal"
	// The model's failures: each falls back offline (a scope to structural groups, a cluster
	// to the offline planner, a run whose model cannot be had to offline planning) and is
	// recorded in the run report.
	CodeLLMUnavailable  = "organizer_llm_unavailable"
	CodeLLMFailed       = "organizer_llm_failed"
	CodeLLMTimeout      = "organizer_llm_timeout"
	CodeLLMNoToolCall   = "organizer_llm_no_tool_call"
	CodeLLMBadArguments = "organizer_llm_bad_arguments"
	// CodeLLMTooMany: an answer holding more decisions or clusters than its tool allows. No
	// longer raised (such an answer is taken in part: deferProposals, LLMClusterer.Cluster);
	// kept so the runs recorded with it still read in the person's language.
	CodeLLMTooMany = "organizer_llm_too_many"
	// CodeLLMCut: the answer was cut at its token limit (finish_reason "length", stop_reason
	// "max_tokens") before the tool call was whole — said as "could not be used: unexpected
	// end of JSON input", or as the model not calling the tool when its reasoning used the
	// whole budget.
	CodeLLMCut = "organizer_llm_cut"
)

// Error is a coded organizer failure. Code names the message (i18n key "error.<Code>"), Args
// fill its placeholders, Msg is the English detail for logs.
type Error struct {
	Code string
	Args map[string]any
	Msg  string
	Err  error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return "organizer: " + e.Msg + ": " + e.Err.Error()
	}
	return "organizer: " + e.Msg
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

func wrapErr(code string, err error, format string, a ...any) *Error {
	return &Error{Code: code, Args: map[string]any{"Detail": err.Error()}, Msg: fmt.Sprintf(format, a...), Err: err}
}

// CodeOf returns the code of a coded organizer error, or "" when err carries none.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
