//go:build linux

package memory

import "golang.org/x/sys/unix"

// renameNoReplace renames oldpath to newpath unless newpath exists (fs.ErrExist then), in one
// step: renameat2 with RENAME_NOREPLACE. File systems without it answer EINVAL.
func renameNoReplace(oldpath, newpath string) error {
	return unix.Renameat2(unix.AT_FDCWD, oldpath, unix.AT_FDCWD, newpath, unix.RENAME_NOREPLACE)
}
