//go:build !linux

package memory

import (
	"fmt"
	"os"
)

// stampOf without ctime and inode: size and mtime only, as before; doctor's checksum pass is
// the safety net for edits that keep both on these systems.
func stampOf(fi os.FileInfo) fileStamp {
	return fileStamp{mtime: fi.ModTime().UnixNano(), size: fi.Size()}
}

// openNoFollow refuses a symbolic link in the last component (checked, then opened: a narrow
// race that O_NOFOLLOW closes on Linux).
func openNoFollow(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("memory: %s is a symbolic link", path)
	}
	return os.Open(path)
}
