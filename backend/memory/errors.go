package memory

import (
	"errors"
	"fmt"
)

// ErrNotFound is returned when no memory matches a reference.
var ErrNotFound = errors.New("memory: not found")

// Codes carried by item results and errors. Each has an i18n key "error.<code>".
const (
	CodeInvalidOp    = "invalid_op"
	CodeInvalidScope = "invalid_scope"
	CodeInvalidType  = "invalid_type"
	CodeInvalidSlug  = "invalid_slug"
	// CodeReservedSlug refuses a new slug Windows reserves as a device name (con, aux, com1…):
	// a store synced to a Windows machine could not hold its file.
	CodeReservedSlug   = "reserved_slug"
	CodeInvalidWorkdir = "invalid_workdir"
	CodeInvalidAgent   = "invalid_agent"
	// CodeReservedAgent refuses a new agent folder Windows reserves as a device name.
	CodeReservedAgent   = "reserved_agent"
	CodeInvalidConf     = "invalid_confidence"
	CodeInvalidMode     = "invalid_mode"
	CodeMissingTitle    = "missing_title"
	CodeTitleTooLong    = "title_too_long"
	CodeMissingBody     = "missing_body"
	CodeBodyTooLarge    = "body_too_large"
	CodeNotFound        = "not_found"
	CodeAlreadyExists   = "already_exists"
	CodeVersionConflict = "version_conflict"
	// CodePersonOnly refuses accept and reject from anyone but a person (user or bridge).
	CodePersonOnly     = "person_only_action"
	CodeSecretDetected = "secret_detected"
	CodeRejectedSlug   = "rejected_slug"
	CodeQuotaExhausted = "quota_exhausted"
	CodeDailyFull      = "daily_full"
	CodeEmptyDaily     = "empty_daily_body"
	CodeDailyReadOnly  = "daily_read_only"
	// CodeDailyPersonOnly refuses a model's delete of a journal day: the day holds the
	// person's own entries, which no agent may take away.
	CodeDailyPersonOnly = "daily_person_only"
	CodeNotArchived     = "not_archived"
	CodeNotInTrash      = "not_in_trash"
	CodeTooManyItems    = "too_many_items"
	CodeInternal        = "internal"
	CodeParseError      = "parse_error"
	CodeInvalidQuery    = "invalid_query"
	// CodeRiskyBulkAccept refuses to accept, as one of several in a batch, a memory that reads
	// like an instruction to the agent: only a single explicit accept by a person may.
	CodeRiskyBulkAccept = "risky_bulk_accept"
	// CodeReasonTooLong refuses a rejection reason over MaxReasonRunes characters.
	CodeReasonTooLong = "reason_too_long"

	WarnDailyNearFull = "daily_near_full"
	WarnRiskyUnreview = "risky_instruction_unreviewed"
	WarnDowngraded    = "confidence_downgraded"
	WarnQuotaLow      = "quota_low"
	// WarnQuotaFull: this write took the scope to exhaustion; the next new memory is refused.
	WarnQuotaFull = "quota_full"
)

// Codes of a model's journal entry (actor tool): over MaxAgentDailyEntry, or taking the day
// past DailyWarnBytes.
const (
	CodeDailyEntryTooLong = "daily_entry_too_long"
	CodeDailyAgentRoom    = "daily_agent_room"
)

// Error is a coded failure. Args fill the translated message's placeholders.
type Error struct {
	Code string
	Args map[string]any
	Msg  string
}

func (e *Error) Error() string { return "memory: " + e.Msg }

// ErrorCode is the stable code the api translates as "error.<code>".
func (e *Error) ErrorCode() string { return e.Code }

// ErrorArgs fill the translated message's placeholders.
func (e *Error) ErrorArgs() map[string]any { return e.Args }

// Is lets errors.Is(err, ErrNotFound) work for coded not-found errors.
func (e *Error) Is(target error) bool { return target == ErrNotFound && e.Code == CodeNotFound }

func codeErr(code string, args map[string]any, format string, a ...any) *Error {
	return &Error{Code: code, Args: args, Msg: fmt.Sprintf(format, a...)}
}

// CodeOf returns the code of a coded error, or CodeInternal.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if errors.Is(err, ErrNotFound) {
		return CodeNotFound
	}
	return CodeInternal
}

// CodeSlugHeldByUnparsable marks a write whose file location is taken by a file the index
// could not read (a broken hand edit): "already exists; update it instead" would send the
// person to an update that cannot find it.
const CodeSlugHeldByUnparsable = "slug_held_by_unparsable_file"
