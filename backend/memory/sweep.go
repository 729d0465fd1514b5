package memory

import (
	"os"
	"path/filepath"
	"sort"
)

// TempFiles lists the .tmp-* files a crash left behind and that were removed.
type TempFiles struct {
	Count int      `json:"count"`
	Paths []string `json:"paths"`
}

// removeTempsLocked removes the .tmp-* files (absolute paths, from the reconcile walk) an
// interrupted atomic write left behind. The caller holds the cross-process lock, and every store
// write makes its temp file while holding it, so no temp file seen now belongs to a write in
// progress: each is older than the crash that stranded it. The walk visits only the folders the
// store writes to (.snapshots belongs to the organizer, which has its own lock) and follows no
// link. Every full reconcile sweeps: the one at open, doctor's, a reindex.
func (s *Store) removeTempsLocked(temps []string) []string {
	var removed []string
	for _, p := range temps {
		rel, _ := filepath.Rel(s.root, p)
		if err := os.Remove(p); err != nil {
			s.log.Warn("memory: unable to remove a leftover temp file", "path", rel, "err", err)
			continue
		}
		s.log.Warn("memory: removed a temp file left by an interrupted write", "path", rel)
		removed = append(removed, filepath.ToSlash(rel))
	}
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
