package wire

import (
	"fmt"

	"engram/backend/coded"
)

// CodeHomeUnusable is the code of a home folder that cannot be made (a file in its place, a
// folder Engram may not write in): "error.home_unusable".
const CodeHomeUnusable = "home_unusable"

// HomeError is a home that cannot be made. It is coded, so the CLI and the hooks say it in
// the person's words ("engram: unable to create home …: mkdir …: not a directory" was raw Go).
type HomeError struct {
	Path string
	Err  error
}

func (e *HomeError) Error() string {
	return fmt.Sprintf("engram: unable to create home %s: %v", e.Path, e.Err)
}

// Unwrap exposes the file-system error.
func (e *HomeError) Unwrap() error { return e.Err }

// ErrorCode and ErrorArgs make HomeError a coded.Error; the reason is named by key when it is
// a file-system one (no such folder, permission, a file in the way).
func (e *HomeError) ErrorCode() string { return CodeHomeUnusable }
func (e *HomeError) ErrorArgs() map[string]any {
	return coded.Reason(map[string]any{"Path": e.Path}, e.Err)
}
