//go:build unix

package memory

import (
	"os"
	"syscall"
)

// sqliteShmDMS is the byte of "<index>-shm" on which every open SQLite connection in WAL mode
// keeps a shared lock for as long as it is open (UNIX_SHM_DMS in SQLite's os_unix.c).
const sqliteShmDMS = 128

// othersHoldIndex reports whether another process has the index open. Moving the file aside
// under it would let its last connection delete "<index>-wal" by name: the new index's log.
// Call it only when this process holds no connection to the file: closing the probe's
// descriptor drops every POSIX lock this process has on it.
func othersHoldIndex(path string) bool {
	f, err := os.OpenFile(path+"-shm", os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: sqliteShmDMS, Len: 1}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		return false
	}
	return lk.Type != syscall.F_UNLCK
}
