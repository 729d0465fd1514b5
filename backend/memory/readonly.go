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

// CodeIndexReadOnly refuses a change when the memory folder takes writes but the index file
// does not (args Index, its path): a `sudo engram` left it root's, or a chmod. Said as
// home_read_only, it sent the person to make writable a folder that already was.
const CodeIndexReadOnly = "index_read_only"

// homeWritable probes the memory folder with a real temp file, which also catches read-only
// mounts that mode bits do not show, and checks that an existing index can be opened for writing.
func homeWritable(root string) bool { return folderWritable(root) && indexFileWritable(root) }

// folderWritable probes the memory folder with a real temp file.
func folderWritable(root string) bool {
	f, err := os.CreateTemp(root, ".tmp-rw-*")
	if err != nil {
		return false
	}
	name := f.Name()
	f.Close()
	// Another process's reconcile may have swept the probe already (it is a .tmp- file).
	err = os.Remove(name)
	return err == nil || errors.Is(err, os.ErrNotExist)
}

// indexFileWritable checks that an existing index can be opened for writing.
func indexFileWritable(root string) bool {
	if fi, err := os.Stat(filepath.Join(root, indexName)); err == nil && !fi.Mode().IsRegular() {
		return true // no index file at all: the writable open moves it aside (errIndexNotAFile)
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
	if s.readOnlyIndex != "" {
		// "The home is read-only" sent the person to a folder they can write: the index is
		// what to give back.
		return codeErr(CodeIndexReadOnly, map[string]any{"Home": s.home, "Index": s.readOnlyIndex},
			"the index %s cannot be written: memories can be read but not changed", s.readOnlyIndex)
	}
	return codeErr(CodeHomeReadOnly, map[string]any{"Home": s.home}, "the home %s is read-only: memories can be read but not changed", s.home)
}

// openReadOnly opens a home that cannot be written, for reading: the index immutable (no lock,
// no -wal/-shm, no migration, no reconcile, no watcher). When that index is missing, damaged
// or from another schema, a throwaway index is built from the files in a temp folder instead,
// so list, read, search, quota and doctor still answer.
func openReadOnly(ctx context.Context, home, root string, opts Options) (*Store, error) {
	s := &Store{home: home, root: root, opts: opts, log: opts.Logger, subs: map[int]func(Event){}, readOnly: true}
	s.initProjects()
	if folderWritable(root) && !opts.indexWritable(root) {
		s.readOnlyIndex = s.indexPath()
	}
	if db, err := openDB(s.indexPath(), true); err == nil {
		if err := usableAsIs(ctx, db); err == nil {
			s.db = db
			fresh, err := s.filesAsIndexed(ctx)
			if err == nil && fresh {
				return s, nil
			}
			s.db = nil
			if err == nil {
				if err = s.reconcileCopy(ctx, db); err == nil {
					db.Close()
					return s, nil
				}
			}
			s.log.Warn("memory: read-only home: its index cannot be brought up to date; building a temporary one", "err", err)
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

// filesAsIndexed reports whether a read-only home's index holds its files as they are: the
// open's check (settleByScan) without the reconcile, which cannot write here. Read as it was,
// an index the files had moved away from — a note edited, added or removed by hand, a sync
// into a copy this process may only read — answered with the old text, and a search missed
// the new.
func (s *Store) filesAsIndexed(ctx context.Context) (bool, error) {
	idx, err := s.readStamps(ctx)
	if err != nil {
		return false, err
	}
	// Temp files are left alone here (only a writer holding the lock judges them), and they
	// hold no memory: they do not make the index stale.
	disk, _, err := s.scan()
	if err != nil {
		return false, err
	}
	return idx.matches(disk), nil
}

// reconcileCopy brings a stale read-only index up to date in a temporary copy, which keeps
// what the files cannot rebuild (settings such as the language, history, rejections), and
// makes it the store's index. The home itself is not written.
func (s *Store) reconcileCopy(ctx context.Context, ro *sql.DB) error {
	dir, err := os.MkdirTemp("", "engram-ro-index-*")
	if err != nil {
		return fmt.Errorf("memory: unable to create a temporary index: %w", err)
	}
	path := filepath.Join(dir, indexName)
	if err := vacuumInto(ctx, ro, path); err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("memory: unable to copy the index: %w", err)
	}
	db, err := openDB(path, false)
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	s.db, s.tmpIndex = db, dir
	if _, err := s.reconcileLocked(ctx, nil); err != nil {
		db.Close()
		os.RemoveAll(dir)
		s.db, s.tmpIndex = nil, ""
		return err
	}
	return nil
}

// vacuumInto copies the read-only index to path. query_only refuses VACUUM INTO, although it
// writes only the new file, so one connection lifts it for the copy; the index itself stays
// opened read-only and immutable (mode=ro), and the caller closes ro right after.
func vacuumInto(ctx context.Context, ro *sql.DB, path string) error {
	c, err := ro.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `PRAGMA query_only = 0`); err != nil {
		return err
	}
	_, err = c.ExecContext(ctx, `VACUUM INTO ?`, path)
	return err
}
