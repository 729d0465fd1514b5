package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// stepsTable records the steps an index has taken.
const stepsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`

// migrate brings the index to SchemaVersion; it reports whether a reindex was requested.
func migrate(ctx context.Context, db *sql.DB) (needsReindex bool, err error) {
	if _, err := db.ExecContext(ctx, stepsTable); err != nil {
		return false, fmt.Errorf("memory: unable to create schema_migrations: %w", err)
	}
	var current int
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return false, fmt.Errorf("memory: unable to read schema version: %w", err)
	}
	if current > SchemaVersion() {
		return false, fmt.Errorf("memory: index schema v%d is newer than this build (v%d); upgrade Engram", current, SchemaVersion())
	}
	if err := checkSteps(ctx, db); err != nil {
		return false, err
	}
	applied := false
	if current == 0 {
		// A new index takes every step in one transaction: one commit instead of one per
		// step (27 commits and checkpoints were most of a fresh home's open, which every new
		// home — and every test's temp home — pays). Its log holds each page once, so it
		// stays as small as the per-step checkpoints kept it (faults.TestDiskFull).
		if err := applyFresh(ctx, db); err != nil {
			return false, err
		}
		applied = true
		current = SchemaVersion()
	}
	for _, m := range migrations {
		if m.version <= current {
			continue
		}
		if err := applyMigration(ctx, db, m); err != nil {
			return false, err
		}
		needsReindex = needsReindex || m.needsReindex
		applied = true
		// Each migration's pages go back into the file before the next one writes: a fresh
		// home's fifteen migrations otherwise grew the write-ahead log to 2.8 MB before the
		// first memory, more than a small disk holds (faults.TestDiskFull). Best effort: a
		// reader may hold the log, which then grows as before.
		_, _ = db.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
	}
	if applied {
		handBackFreedPages(ctx, db)
		_, _ = db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	}
	var flag string
	err = db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = 'index.needs_reindex'`).Scan(&flag)
	if err != nil && err != sql.ErrNoRows {
		return false, fmt.Errorf("memory: unable to read reindex flag: %w", err)
	}
	return flag == "1", nil
}

// DivergedError says the index was migrated by a build whose numbered steps differ from this
// build's: a development build shipped a step that was later rewritten under the same number
// (2026-12-04: step 20 "vector version" became "vector change log, whole" twenty minutes
// later). Such an index reaches the version number of this build without its shape — the
// first bulk write then failed with "table recall_vec_log has no column named tag" — so it
// cannot be migrated: it is rebuilt from the files like a damaged one, its history salvaged
// (recoverLocked).
type DivergedError struct {
	Step      int
	Had, Want string
}

func (e *DivergedError) Error() string {
	return fmt.Sprintf("memory: index step %d is %q, this build's is %q", e.Step, e.Had, e.Want)
}

// detail is what the index_replaced notice shows of the difference.
func (e *DivergedError) detail() string {
	return fmt.Sprintf("%d: %q ≠ %q", e.Step, e.Had, e.Want)
}

// IsDiverged reports whether err is a DivergedError.
func IsDiverged(err error) bool {
	var d *DivergedError
	return errors.As(err, &d)
}

// checkSteps compares the steps the index records with this build's, by name: one query of a
// couple of dozen rows at every open. Steps this build does not have are newer (migrate
// refuses those on its own).
func checkSteps(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, `SELECT version, name FROM schema_migrations ORDER BY version`)
	if err != nil {
		return fmt.Errorf("memory: unable to read the schema steps: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v int
		var name string
		if err := rows.Scan(&v, &name); err != nil {
			return fmt.Errorf("memory: unable to read the schema steps: %w", err)
		}
		if v < 1 || v > len(migrations) {
			continue
		}
		if want := migrations[v-1]; want.version == v && want.name != name {
			return &DivergedError{Step: v, Had: name, Want: want.name}
		}
	}
	return rows.Err()
}

// handBackFreedPages returns to the file system the pages a migration that rebuilt a table
// freed (migration 16 copies memory_meta: without this a 390 MB index of 100k memories stayed
// a 620 MB file, its old rows' pages kept for reuse). An index with incremental auto-vacuum
// (newIndexPageSize) hands them back at once; an older one is vacuumed when more than a quarter of
// it is free — once, right after such a migration. Best effort: a failure keeps the pages for
// reuse, as before.
func handBackFreedPages(ctx context.Context, db *sql.DB) {
	var autoVacuum, free, pages int64
	if db.QueryRowContext(ctx, `PRAGMA auto_vacuum`).Scan(&autoVacuum) != nil ||
		db.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&free) != nil ||
		db.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages) != nil || free == 0 {
		return
	}
	switch {
	case autoVacuum == 2:
		_, _ = db.ExecContext(ctx, `PRAGMA incremental_vacuum`)
	case free*4 > pages:
		_, _ = db.ExecContext(ctx, `VACUUM`)
	}
}

func applyMigration(ctx context.Context, db *sql.DB, m migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("memory: unable to begin migration %d: %w", m.version, err)
	}
	defer tx.Rollback()
	if err := applyStep(ctx, tx, m); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("memory: unable to commit migration %d: %w", m.version, err)
	}
	return nil
}

// applyFresh takes every step on an index that has none, in one transaction. A step another
// process recorded meanwhile is skipped, as applyMigration does.
func applyFresh(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("memory: unable to begin migration 1: %w", err)
	}
	defer tx.Rollback()
	for _, m := range migrations {
		if err := applyStep(ctx, tx, m); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("memory: unable to commit migrations 1–%d: %w", SchemaVersion(), err)
	}
	return nil
}

// applyStep runs one step inside tx and records it; a step already recorded is skipped.
func applyStep(ctx context.Context, tx *sql.Tx, m migration) error {
	// Another process may have migrated while we waited for the write lock.
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`, m.version).Scan(&done); err != nil {
		return fmt.Errorf("memory: unable to check migration %d: %w", m.version, err)
	}
	if done > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("memory: migration %d (%s) failed: %w", m.version, m.name, err)
	}
	// The reindex a migration asks for is flagged in its own transaction: flagged after the
	// last migration, a process killed in between left a migrated index that never reindexed.
	if m.needsReindex {
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES('index.needs_reindex', '1')
			ON CONFLICT(key) DO UPDATE SET value = '1'`); err != nil {
			return fmt.Errorf("memory: unable to flag reindex for migration %d: %w", m.version, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(version, name, applied_at) VALUES(?, ?, ?)`,
		m.version, m.name, time.Now().UTC().Format(time.RFC3339)); err != nil {
		return fmt.Errorf("memory: unable to record migration %d: %w", m.version, err)
	}
	return nil
}
