package memory

import (
	"errors"
	"strings"
	"syscall"
)

// CodeDiskFull refuses a change because the disk holding the home has no room left (or the
// person's disk quota is used up). Nothing of the refused change is kept; everything written
// before it stays. Args: Home, Detail.
const CodeDiskFull = "disk_full"

// isDiskFull reports whether err is the file system or SQLite saying there is no room.
func isDiskFull(err error) bool {
	if errors.Is(err, syscall.ENOSPC) {
		return true
	}
	msg := err.Error()
	// SQLITE_FULL (13): "database or disk is full"; EDQUOT reads "disk quota exceeded".
	return strings.Contains(msg, "database or disk is full") || strings.Contains(msg, "disk quota exceeded") ||
		strings.Contains(msg, "no space left on device")
}

// isReadOnlyFS reports whether err is the home turning read-only under a running process (a
// remount, a disk going away): the file system's EROFS or SQLite's SQLITE_READONLY.
func isReadOnlyFS(err error) bool {
	if errors.Is(err, syscall.EROFS) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "read-only file system") || strings.Contains(msg, "attempt to write a readonly database")
}

// coded turns a failure below the codes into the coded error people can act on when it is a
// full disk or a home gone read-only; any other error is returned as it is. Called where a
// batch or an item fails, so every writer (UI, MCP, import, organizer) reports the same code.
func (s *Store) coded(err error) error {
	if err == nil {
		return nil
	}
	var ce *Error
	if errors.As(err, &ce) {
		return err
	}
	switch {
	case isDiskFull(err):
		return codeErr(CodeDiskFull, map[string]any{"Home": s.home, "Detail": err.Error()},
			"the disk holding %s is full: %v", s.home, err)
	case isReadOnlyFS(err):
		return codeErr(CodeHomeReadOnly, map[string]any{"Home": s.home},
			"the home %s became read-only: %v", s.home, err)
	}
	return err
}
