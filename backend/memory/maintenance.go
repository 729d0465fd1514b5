package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Maintenance of a home (issue 15): a consistent copy of the index for backups, VACUUM with
// the orphan rows and stuck runs it clears, cleanup of old trash, snapshots and archives, and
// the in-place swap of the memory files a restore does.

// StuckAfter is how long a run may stay "running" before doctor calls it stuck: organizer
// and extraction runs end (or time out) long before.
const StuckAfter = time.Hour

// Snapshot writes a consistent copy of the index to indexDst (which must not exist) with
// VACUUM INTO, then runs files, all inside the store's lock: a backup takes it while the app
// and other processes keep writing, and the files it reads in files match the index copy.
func (s *Store) Snapshot(ctx context.Context, indexDst string, files func() error) error {
	if s.readOnly {
		return (&Exclusive{s: s}).Snapshot(ctx, indexDst, files) // no writers of ours to wait for
	}
	return s.withLock(func() error { return (&Exclusive{s: s}).Snapshot(ctx, indexDst, files) })
}

// Exclusive is the store held under its lock (in this process and across processes): an
// in-place restore backs up the current state and swaps the files inside one hold, so no
// write lands between the backup and the swap and is lost.
type Exclusive struct {
	s        *Store
	replaced bool
}

// Exclusive runs fn holding the store's lock. After fn, subscribers hear that every memory
// may have changed when fn replaced the files.
func (s *Store) Exclusive(ctx context.Context, fn func(x *Exclusive) error) error {
	var before []string
	replaced := false
	err := s.withLock(func() error {
		before = s.allIDs(ctx)
		x := &Exclusive{s: s}
		err := fn(x)
		replaced = x.replaced
		return err
	})
	if replaced {
		s.announceAll(ctx, before)
	}
	return err
}

// Snapshot is Store.Snapshot inside the hold.
func (x *Exclusive) Snapshot(ctx context.Context, indexDst string, files func() error) error {
	if _, err := x.s.db.ExecContext(ctx, `VACUUM INTO ?`, indexDst); err != nil {
		return fmt.Errorf("memory: unable to copy the index: %w", err)
	}
	return files()
}

// Orphans counts index rows that point at memories the index no longer has.
type Orphans struct {
	Vectors   int `json:"vectors"`
	Mentions  int `json:"mentions"`
	Relations int `json:"relations"`
}

// Total is the number of orphan rows of every kind.
func (o Orphans) Total() int { return o.Vectors + o.Mentions + o.Relations }

const (
	orphanVecSQL      = `FROM memory_vec WHERE rid NOT IN (SELECT rid FROM memory_meta)`
	orphanMentionSQL  = `FROM graph_mentions WHERE memory_rid NOT IN (SELECT rid FROM memory_meta)`
	orphanRelationSQL = `FROM graph_relations WHERE memory_rid IS NOT NULL AND memory_rid NOT IN (SELECT rid FROM memory_meta)`
)

// CountOrphans counts vectors, graph mentions and relations whose memory row is gone.
func (s *Store) CountOrphans(ctx context.Context) (Orphans, error) {
	var o Orphans
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) `+orphanVecSQL+`), (SELECT COUNT(*) `+orphanMentionSQL+`),
		(SELECT COUNT(*) `+orphanRelationSQL+`)`).Scan(&o.Vectors, &o.Mentions, &o.Relations)
	if err != nil {
		return o, fmt.Errorf("memory: unable to count orphan rows: %w", err)
	}
	return o, nil
}

// StuckRuns counts organizer and extraction runs still "running" after StuckAfter.
type StuckRuns struct {
	Organizer  int `json:"organizer"`
	Extraction int `json:"extraction"`
}

// CountStuckRuns counts runs started before now-StuckAfter that never finished.
func (s *Store) CountStuckRuns(ctx context.Context) (StuckRuns, error) {
	var r StuckRuns
	before := indexTime(s.opts.Now().Add(-StuckAfter))
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM memory_organize_runs WHERE status = 'running' AND started_at < ?),
		(SELECT COUNT(*) FROM extraction_runs WHERE status = 'running' AND started_at < ?)`, before, before).Scan(&r.Organizer, &r.Extraction)
	if err != nil {
		return r, fmt.Errorf("memory: unable to count stuck runs: %w", err)
	}
	return r, nil
}

// VacuumReport is what Vacuum did.
type VacuumReport struct {
	BytesBefore    int64     `json:"bytes_before"`
	BytesAfter     int64     `json:"bytes_after"`
	OrphansRemoved Orphans   `json:"orphans_removed"`
	StuckClosed    StuckRuns `json:"stuck_closed"`
}

// Vacuum deletes orphan rows, closes runs stuck for more than StuckAfter (their process died
// without a trace the recoveries at start could see) and compacts the index file. It is the
// fix doctor prints for orphans and stuck runs; run by the person (engram vacuum, Settings →
// Data).
func (s *Store) Vacuum(ctx context.Context) (VacuumReport, error) {
	var rep VacuumReport
	rep.BytesBefore = s.indexBytes()
	progress := progressOf(ctx)
	err := s.withLock(func() error {
		progress("orphans", 0, 0)
		var err error
		if rep.OrphansRemoved, err = s.CountOrphans(ctx); err != nil {
			return err
		}
		for _, q := range []string{orphanVecSQL, orphanMentionSQL, orphanRelationSQL} {
			if _, err := s.db.ExecContext(ctx, `DELETE `+q); err != nil {
				return fmt.Errorf("memory: unable to delete orphan rows: %w", err)
			}
		}
		now := s.opts.Now()
		before := indexTime(now.Add(-StuckAfter))
		res, err := s.db.ExecContext(ctx, `UPDATE memory_organize_runs SET status = 'failed', finished_at = ?, error = 'stuck'
			WHERE status = 'running' AND started_at < ?`, indexTime(now), before)
		if err != nil {
			return fmt.Errorf("memory: unable to close stuck runs: %w", err)
		}
		n, _ := res.RowsAffected()
		rep.StuckClosed.Organizer = int(n)
		if rep.StuckClosed.Extraction, err = s.CloseExtractionRuns(ctx, []string{"running"}, "failed", "stuck", now, now.Add(-StuckAfter)); err != nil {
			return err
		}
		progress("vacuum", 0, 0)
		if _, err := s.db.ExecContext(ctx, `VACUUM`); err != nil {
			return fmt.Errorf("memory: unable to vacuum the index: %w", err)
		}
		_, _ = s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
		return nil
	})
	rep.BytesAfter = s.indexBytes()
	return rep, err
}

// indexBytes is the size of the index file and its write-ahead log.
func (s *Store) indexBytes() int64 {
	var n int64
	for _, suffix := range []string{"", "-wal"} {
		if info, err := os.Stat(filepath.Join(s.root, indexName+suffix)); err == nil {
			n += info.Size()
		}
	}
	return n
}

// CleanupFolders are the only folders cleanup ever removes from: never a live memory.
var CleanupFolders = []string{".trash", ".snapshots", ".archive"}

// CleanupItem is one file cleanup removes (or would remove).
type CleanupItem struct {
	Path     string `json:"path"`
	Size     int64  `json:"size"`
	Modified string `json:"modified"`
}

// CleanupReport lists what cleanup removed, or with DryRun what it would remove.
type CleanupReport struct {
	DryRun bool          `json:"dry_run"`
	Before string        `json:"before"`
	Items  []CleanupItem `json:"items"`
	Bytes  int64         `json:"bytes"`
}

// Cleanup removes files last changed before now-olderThan from .trash, .snapshots and
// .archive (and the folders it empties); dryRun only lists them. Links are never followed and
// never removed. Archived memories it removes leave the index by the reconcile after it.
func (s *Store) Cleanup(ctx context.Context, olderThan time.Duration, dryRun bool) (CleanupReport, error) {
	cutoff := s.opts.Now().Add(-olderThan)
	rep := CleanupReport{DryRun: dryRun, Before: indexTime(cutoff), Items: []CleanupItem{}}
	collect := func() error {
		for _, top := range CleanupFolders {
			base := filepath.Join(s.root, top)
			if info, err := os.Lstat(base); err != nil || !info.IsDir() {
				continue // missing, or a link: never followed
			}
			err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if !d.Type().IsRegular() {
					return nil
				}
				info, err := d.Info()
				if err != nil || !info.ModTime().Before(cutoff) {
					return nil
				}
				rel, _ := filepath.Rel(s.root, p)
				rep.Items = append(rep.Items, CleanupItem{Path: filepath.ToSlash(rel), Size: info.Size(), Modified: indexTime(info.ModTime())})
				rep.Bytes += info.Size()
				return nil
			})
			if err != nil {
				return fmt.Errorf("memory: unable to list %s: %w", top, err)
			}
		}
		sort.Slice(rep.Items, func(i, j int) bool { return rep.Items[i].Path < rep.Items[j].Path })
		return nil
	}
	if dryRun {
		return rep, collect()
	}
	var rec ReconcileReport
	err := s.withLock(func() error {
		if err := collect(); err != nil {
			return err
		}
		progress := progressOf(ctx)
		archived := false
		for i, it := range rep.Items {
			progressStep(progress, "remove", i+1, len(rep.Items))
			if err := os.Remove(s.abs(it.Path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("memory: unable to remove %s: %w", it.Path, err)
			}
			archived = archived || strings.HasPrefix(it.Path, ".archive/")
		}
		for _, top := range CleanupFolders {
			removeEmptyDirs(filepath.Join(s.root, top))
		}
		if archived {
			var err error
			rec, err = s.reconcileLocked(ctx, nil)
			return err
		}
		return nil
	})
	if err == nil {
		s.afterReconcile(ctx, rec)
	}
	return rep, err
}

// removeEmptyDirs removes the empty folders below base (base itself stays).
func removeEmptyDirs(base string) {
	var dirs []string
	_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != base {
			dirs = append(dirs, p)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i]) // fails, as wanted, on a folder that is not empty
	}
}

// keptInPlace names what an in-place restore leaves in the memory folder: the index (rebuilt,
// not replaced, while this process has it open) and the lock.
func keptInPlace(name string) bool {
	return strings.HasPrefix(name, indexName) || name == ".lock"
}

// ReplaceFiles swaps the memory files for those under staged (a folder laid out like the
// memory folder, on the same file system) and rebuilds the index from them, inside the hold so
// no other process writes half-way. The index's own history (audit log, runs, usage,
// settings) stays. The old files are moved to aside, which the caller removes once it is
// content; on failure they are moved back.
func (x *Exclusive) ReplaceFiles(ctx context.Context, staged, aside string) (ReconcileReport, error) {
	s := x.s
	if err := os.MkdirAll(aside, 0o700); err != nil {
		return ReconcileReport{}, fmt.Errorf("memory: unable to create %s: %w", aside, err)
	}
	old, err := os.ReadDir(s.root)
	if err != nil {
		return ReconcileReport{}, fmt.Errorf("memory: unable to list %s: %w", s.root, err)
	}
	// The journal lets the next open finish a swap this process does not (swapJournal).
	if staged, err = filepath.Abs(staged); err == nil {
		aside, err = filepath.Abs(aside)
	}
	if err == nil {
		err = s.writeSwap(swapState{Staged: staged, Aside: aside, Phase: swapPhaseAside})
	}
	if err != nil {
		return ReconcileReport{}, fmt.Errorf("memory: unable to begin the swap: %w", err)
	}
	var moved, movedIn []string
	rollback := func() {
		for _, n := range movedIn {
			_ = os.RemoveAll(filepath.Join(s.root, n))
		}
		for _, n := range moved {
			_ = os.RemoveAll(filepath.Join(s.root, n))
			_ = os.Rename(filepath.Join(aside, n), filepath.Join(s.root, n))
		}
		s.clearSwap()
	}
	for _, e := range old {
		if keptInPlace(e.Name()) {
			continue
		}
		if err := os.Rename(filepath.Join(s.root, e.Name()), filepath.Join(aside, e.Name())); err != nil {
			rollback()
			return ReconcileReport{}, fmt.Errorf("memory: unable to move %s aside: %w", e.Name(), err)
		}
		moved = append(moved, e.Name())
		if swapKilled != nil && swapKilled(fmt.Sprintf("aside %d", len(moved))) {
			return ReconcileReport{}, errSwapKilled
		}
	}
	fresh, err := os.ReadDir(staged)
	if err != nil {
		rollback()
		return ReconcileReport{}, fmt.Errorf("memory: unable to list %s: %w", staged, err)
	}
	syncDir(aside)
	syncDir(s.root)
	if err := s.writeSwap(swapState{Staged: staged, Aside: aside, Phase: swapPhaseIn}); err != nil {
		rollback()
		return ReconcileReport{}, fmt.Errorf("memory: unable to record the swap: %w", err)
	}
	for _, e := range fresh {
		if keptInPlace(e.Name()) {
			continue
		}
		if err := os.Rename(filepath.Join(staged, e.Name()), filepath.Join(s.root, e.Name())); err != nil {
			rollback()
			return ReconcileReport{}, fmt.Errorf("memory: unable to move %s in: %w", e.Name(), err)
		}
		movedIn = append(movedIn, e.Name())
		if swapKilled != nil && swapKilled(fmt.Sprintf("in %d", len(movedIn))) {
			return ReconcileReport{}, errSwapKilled
		}
	}
	syncDir(s.root)
	s.clearSwap()
	for _, d := range CleanupFolders {
		_ = os.MkdirAll(filepath.Join(s.root, d), 0o700)
	}
	s.kvCache.mu.Lock()
	s.kvCache.m = nil
	s.kvCache.mu.Unlock()
	x.replaced = true
	// The files are the archive's from here on: the index follows them whatever the caller's
	// context does (a Ctrl-C during this reindex reported the restore failed and left the old
	// index over the new files), and if it cannot, the next batch reconciles first.
	s.indexBehind = true
	rep, err := s.reindexLocked(context.WithoutCancel(ctx))
	if err == nil {
		s.indexBehind = false
	}
	return rep, err
}

// announceAll tells subscribers that every memory before (ids) and now may have changed.
func (s *Store) announceAll(ctx context.Context, before []string) {
	seen := map[string]bool{}
	var ids []string
	for _, id := range append(before, s.allIDs(ctx)...) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	s.changed(ctx, ids)
	s.emit(Event{Kind: "memory.problems"})
}

// allIDs lists every memory id the index holds (nil when it cannot be read).
func (s *Store) allIDs(ctx context.Context) []string {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM memory_meta`)
	if err != nil {
		return nil
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if rows.Scan(&id) == nil {
			out = append(out, id)
		}
	}
	return out
}
