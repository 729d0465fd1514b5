//go:build linux

package memory

import (
	"os"
	"syscall"
)

// stampOf is what reconcile compares to decide whether a file may have changed. ctime and the
// inode catch edits that put size and mtime back (cp -p, rsync -a, an editor restoring mtime):
// nothing but the kernel sets ctime, and a rename-into-place brings a new inode.
func stampOf(fi os.FileInfo) fileStamp {
	st := fileStamp{mtime: fi.ModTime().UnixNano(), size: fi.Size()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ctime = sys.Ctim.Sec*1e9 + sys.Ctim.Nsec
		st.ino = int64(sys.Ino)
	}
	return st
}

// openNoFollow opens a file for reading and refuses a symbolic link in the last component: a
// link swapped in after the walk's Lstat must not let a file outside the home be read.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}
