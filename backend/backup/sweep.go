package backup

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// workPrefix names the folder a backup writes its archive in before renaming it into place.
const workPrefix = ".backup-"

// staleWorkAfter is how long a work folder may go unwritten before a later backup takes it for
// the leftover of a backup killed mid-write (a running one writes to it all the time): without
// the sweep every crash during a backup would leave a partial archive in the folder for good.
const staleWorkAfter = 10 * time.Minute

// sweepWork removes the stale work folders in dir; it is called as each backup starts and
// returns what it removed. A folder another process is writing now is left alone.
func sweepWork(dir string, now time.Time) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), workPrefix) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if now.Sub(lastWrite(p)) < staleWorkAfter {
			continue
		}
		if os.RemoveAll(p) == nil {
			removed = append(removed, e.Name())
		}
	}
	return removed
}

// lastWrite is the newest modification time of a folder and the files in it.
func lastWrite(dir string) time.Time {
	var newest time.Time
	filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.ModTime().After(newest) {
			newest = info.ModTime()
		}
		return nil
	})
	return newest
}
