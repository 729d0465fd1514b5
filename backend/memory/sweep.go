package memory

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// TempFiles lists the .tmp-* files a crash left behind and that were removed.
type TempFiles struct {
	Count int      `json:"count"`
	Paths []string `json:"paths"`
}

// sweepTempsLocked removes the .tmp-* files an interrupted atomic write left behind. The
// caller holds the cross-process lock, and every store write makes its temp file while
// holding it, so no temp file seen now belongs to a write in progress: each is older than
// the crash that stranded it. The folders visited are those the store writes to (the walk's
// set); .snapshots belongs to the organizer, which has its own lock, and is left alone.
// Links are never followed.
func (s *Store) sweepTempsLocked() []string {
	var removed []string
	_ = filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == s.root {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if strings.HasPrefix(name, ".") && !(name == ".archive" && filepath.Dir(p) == s.root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasPrefix(name, ".tmp-") {
			return nil
		}
		rel, _ := filepath.Rel(s.root, p)
		if err := os.Remove(p); err != nil {
			s.log.Warn("memory: unable to remove a leftover temp file", "path", rel, "err", err)
			return nil
		}
		s.log.Warn("memory: removed a temp file left by an interrupted write", "path", rel)
		removed = append(removed, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(removed)
	return removed
}

// noteSwept remembers what a sweep removed so that doctor can report it.
func (s *Store) noteSwept(paths []string) {
	s.sweptMu.Lock()
	s.swept = append(s.swept, paths...)
	s.sweptMu.Unlock()
}

func (s *Store) sweptTemps() TempFiles {
	s.sweptMu.Lock()
	defer s.sweptMu.Unlock()
	return TempFiles{Count: len(s.swept), Paths: append([]string{}, s.swept...)}
}
