package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// CodeHomeReadOnly refuses a change to a home this process cannot write (a read-only mount,
// folders without write permission, a read-only index file).
const CodeHomeReadOnly = "home_read_only"

// homeWritable probes the memory folder with a real temp file, which also catches read-only
// mounts that mode bits do not show, and checks that an existing index can be opened for writing.
func homeWritable(root string) bool {
	f, err := os.CreateTemp(root, ".tmp-rw-*")
	if err != nil {
		return false
	}
	name := f.Name()
	f.Close()
	// Another process's reconcile may have swept the probe already (it is a .tmp- file).
	if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false
	}
	idx, err := os.OpenFile(filepath.Join(root, indexName), os.O_WRONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return true
	}
	if err != nil {
		return false
	}
	idx.Close()
	return true
}

// ReadOnly reports whether the home was opened read-only.
func (s *Store) ReadOnly() bool { return s.readOnly }

func (s *Store) readOnlyErr() error {
	return codeErr(CodeHomeReadOnly, map[string]any{"Home": s.home}, "the home %s is read-only: memories can be read but not changed", s.home)
}

// openReadOnly opens a home that cannot be written, for reading: the index immutable (no lock,
// no -wal/-shm, no migration, no reconcile, no watcher). When that index is missing, damaged
// or from another schema, a throwaway index is built from the files in a temp folder instead,
// so list, read, search, quota and doctor still answer.
func openReadOnly(ctx context.Context, home, root string, opts Options) (*Store, error) {
	s := &Store{home: home, root: root, opts: opts, log: opts.Logger, subs: map[int]func(Event){}, readOnly: true}
	s.initProjects()
	if db, err := openDB(s.indexPath(), true); err == nil {
		if err := usableAsIs(ctx, db); err == nil {
			s.db = db
			return s, nil
		} else {
			s.log.Warn("memory: read-only home: its index cannot be used as is; building a temporary one", "err", err)
		}
		db.Close()
	}
	dir, err := os.MkdirTemp("", "engram-ro-index-*")
	if err != nil {
		return nil, fmt.Errorf("memory: unable to create a temporary index: %w", err)
	}
	s.tmpIndex = dir
	db, err := openDB(filepath.Join(dir, indexName), false)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.db = db
	if _, err := migrate(ctx, db); err == nil {
		_, err = s.rebuildLocked(ctx, nil, true)
	}
	if err != nil {
		db.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// usableAsIs checks that an index opened read-only is readable and current: this build can
// neither migrate it nor honour a pending reindex flag.
func usableAsIs(ctx context.Context, db *sql.DB) error {
	var v int
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return err
	}
	if v != SchemaVersion() {
		return fmt.Errorf("memory: index schema v%d, this build reads v%d", v, SchemaVersion())
	}
	if err := checkSteps(ctx, db); err != nil {
		return err
	}
	var flag string
	err := db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = 'index.needs_reindex'`).Scan(&flag)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if flag == "1" {
		return errors.New("memory: the index waits for a reindex")
	}
	var n int
	return db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_meta`).Scan(&n)
}
