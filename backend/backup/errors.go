package backup

import "fmt"

// Codes of backup failures; each is translated as "error.<code>".
const (
	// CodeInvalidArchive: the file is not an Engram backup (not gzip/tar, no manifest, bad JSON).
	CodeInvalidArchive = "backup_invalid_archive"
	// CodeUnsafeEntry: an entry would land outside the home (../, an absolute path) or is a
	// link or device; the archive is refused whole.
	CodeUnsafeEntry = "backup_unsafe_entry"
	// CodeChecksumMismatch: an entry's bytes differ from the manifest, or one is missing or
	// unlisted; nothing was touched.
	CodeChecksumMismatch = "backup_checksum_mismatch"
	// CodeTargetNotEmpty: a restore to a new home found memories already there.
	CodeTargetNotEmpty = "backup_target_not_empty"
	// CodeWriteFailed: the archive or the restored files could not be written.
	CodeWriteFailed = "backup_write_failed"
	// CodeDestInsideMemory: a backup may not be written inside the memory folder it archives.
	CodeDestInsideMemory = "backup_dest_inside_memory"
	// CodeNotFound: the archive to restore does not exist or cannot be read.
	CodeNotFound = "backup_not_found"
	// CodeInvalidSchedule: an interval or a retention count out of range.
	CodeInvalidSchedule = "backup_invalid_schedule"
)

// Error is a coded backup failure.
type Error struct {
	Code string
	Args map[string]any
}

func (e *Error) Error() string { return fmt.Sprintf("backup: %s %v", e.Code, e.Args) }

// ErrorCode is the stable code the api translates as "error.<code>".
func (e *Error) ErrorCode() string { return e.Code }

// ErrorArgs fill the translated message's placeholders.
func (e *Error) ErrorArgs() map[string]any { return e.Args }

func codeErr(code string, args map[string]any) error { return &Error{Code: code, Args: args} }
