package memory

import (
	"fmt"
	"os"
)

// privateFile creates the index as 0600 before SQLite does (SQLite would use 0644 less the
// umask) and tightens an existing one; SQLite gives -wal and -shm the mode of the database.
func privateFile(path string) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return errIndexNotAFile // moved aside and rebuilt like a damaged file (IsCorrupt)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDONLY, 0o600)
	if err != nil {
		return fmt.Errorf("memory: unable to create index %s: %w", path, err)
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if info, err := os.Stat(p); err == nil && info.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(p, 0o600); err != nil {
				return fmt.Errorf("memory: unable to protect %s: %w", p, err)
			}
		}
	}
	return nil
}
