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

// workMark is the file each work folder holds from its first moment: a backup written with
// --to lands in a folder of the person's, where a ".backup-photos" of their own must never be
// taken for a leftover (the sweep removed any stale ".backup-*" folder there).
const workMark = ".engram-backup-work"

// markWork marks a new work folder as a backup's.
func markWork(work string) error {
	return os.WriteFile(filepath.Join(work, workMark), nil, 0o600)
}

// sweepWork removes the stale work folders in dir; it is called as each backup starts and
// returns what it removed. A folder another process is writing now is left alone, and so is
// one that does not carry workMark, unless dir is the home's own backups folder (ownDir:
// an older build's work folders carry no mark).
func sweepWork(dir string, now time.Time, ownDir bool) []string {
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
		if _, err := os.Lstat(filepath.Join(p, workMark)); err != nil && !ownDir {
			continue
		}
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
