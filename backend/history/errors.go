package history

import "fmt"

// Error is a history failure with a stable code (translated as "error.<code>" through api).
type Error struct {
	Code string
	Args map[string]any
	msg  string
	err  error
}

func (e *Error) Error() string {
	if e.err != nil {
		return e.msg + ": " + e.err.Error()
	}
	return e.msg
}

// Unwrap exposes the cause (a transport error) to errors.Is.
func (e *Error) Unwrap() error { return e.err }

// ErrorCode and ErrorArgs make Error a coded.Error.
func (e *Error) ErrorCode() string         { return e.Code }
func (e *Error) ErrorArgs() map[string]any { return e.Args }

// Codes of history failures.
const (
	CodeOff          = "history_off"
	CodeNoRemote     = "history_no_remote"
	CodeNoVersion    = "history_no_version"
	CodeRemoteFailed = "history_remote_failed"
	CodeRemoteMoved  = "history_remote_moved"
)

var (
	// ErrOff is returned when history is asked for while it is not enabled.
	ErrOff = &Error{Code: CodeOff, msg: "history: git history is not enabled"}
	// ErrNoRemote is returned by a sync with no remote configured or given.
	ErrNoRemote = &Error{Code: CodeNoRemote, msg: "history: no sync remote is configured"}
	// ErrNoVersion is returned when the commit holds no version of the file.
	ErrNoVersion = &Error{Code: CodeNoVersion, msg: "history: that commit holds no version of this memory"}
	// errRemoteMoved is a push refused because the remote's branch moved since the fetch
	// (Sync tries once more before reporting it).
	errRemoteMoved = &Error{Code: CodeRemoteMoved, msg: "history: the remote changed during the sync; sync again"}
)

// remoteFailed wraps a fetch or push failure, naming the remote.
func remoteFailed(step, remote string, err error) error {
	return &Error{Code: CodeRemoteFailed, Args: map[string]any{"Remote": remote, "Step": step, "Detail": err.Error()},
		msg: fmt.Sprintf("history: unable to %s %s", step, remote), err: err}
}
