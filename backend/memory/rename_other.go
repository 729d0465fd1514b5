//go:build !linux

package memory

import "errors"

// renameNoReplace is not available here: placeNew claims the name with O_EXCL instead.
func renameNoReplace(oldpath, newpath string) error {
	return errors.ErrUnsupported
}
