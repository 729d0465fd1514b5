package memory

import (
	"context"
	"database/sql"
	"os"
	"time"
)

// noteIndexFile remembers which file the index connections opened, so a writer can tell when
// it was deleted or replaced under the running process. Called (mu held) once the index is
// opened, rebuilt or repaired.
func (s *Store) noteIndexFile() {
	if fi, err := os.Stat(s.indexPath()); err == nil {
		s.openedIndex = fi
	}
	s.indexFiles.Add(1)
}

// IndexFile counts the index files this process has settled: it changes when the file was
// rebuilt under the running process (a damaged one repaired, a deleted one made again), whose
// row ids and vector log then start over — a cache keyed by them (vector.Index) reloads.
func (s *Store) IndexFile() int64 { return s.indexFiles.Load() }

// indexReplaced reports whether the file at the index's path is not the one this process
// opened: it was deleted (a person cleaning up, a sync tool), maybe made again since.
func (s *Store) indexReplaced() bool {
	if s.openedIndex == nil || s.readOnly {
		return false
	}
	fi, err := os.Stat(s.indexPath())
	return err != nil || !os.SameFile(fi, s.openedIndex)
}

// reopenIfIndexReplacedLocked settles the index again, from the Markdown files, when the file
// this process opened is gone from its path. Without it the process wrote on into the deleted
// file, and the first new connection of the pool created an empty index at the path, on which
// every later batch failed ("no such table") until a restart. The caller holds the write lock.
//
// Every connection is let go first: readers of this process get a moment to give theirs back
// (else the next batch tries again), and the idle ones are marked to keep their write-ahead
// log, because SQLite deletes "<index>-wal" and "-shm" by name when the last connection to a
// file closes, and by now those names may be another process's new index's.
func (s *Store) reopenIfIndexReplacedLocked(ctx context.Context) error {
	if s.db == nil || !s.indexReplaced() {
		return nil
	}
	// Asks watchOtherProcesses to give back the connection it holds, and to wait.
	s.indexMoving.Store(true)
	defer s.indexMoving.Store(false)
	if !s.letGoOfConnsLocked(ctx) {
		return nil // a reader kept or took one: the next batch tries again
	}
	s.log.Warn("memory: the index was deleted or replaced while Engram ran; settling it from the files", "path", s.indexPath())
	if err := privateFile(s.indexPath()); err != nil {
		return err
	}
	return s.settleLocked(ctx)
}

// letGoOfConnsLocked closes every connection the pool holds to the index file, keeping the
// write-ahead log's name alone, and reports whether none is left. The caller holds the write
// lock and has set indexMoving, so watchOtherProcesses gives back the one it keeps (at its next
// poll); readers of this process get two seconds to give theirs back.
func (s *Store) letGoOfConnsLocked(ctx context.Context) bool {
	s.indexGen.Add(1)
	for deadline := time.Now().Add(2 * time.Second); s.db.Stats().InUse > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	s.keepWALs(ctx)
	s.db.SetMaxIdleConns(0) // closes the idle connections to the old file
	s.db.SetMaxIdleConns(2)
	return s.db.Stats().OpenConnections == 0
}

// keepWALs sets SQLITE_FCNTL_PERSIST_WAL on every idle connection (see above).
func (s *Store) keepWALs(ctx context.Context) {
	n := s.db.Stats().Idle
	for i := 0; i < n; i++ {
		c, err := s.db.Conn(ctx)
		if err != nil {
			return
		}
		defer c.Close()
		keepWAL(c)
	}
}

// keepWAL makes closing c leave the write-ahead log and shared-memory files by their names.
func keepWAL(c *sql.Conn) {
	type persister interface {
		FileControlPersistWAL(dbName string, mode int) (int, error)
	}
	_ = c.Raw(func(dc any) error {
		if p, ok := dc.(persister); ok {
			_, _ = p.FileControlPersistWAL("main", 1)
		}
		return nil
	})
}
