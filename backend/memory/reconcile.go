package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type diskFile struct {
	rel  string
	st   fileStamp
	link bool // a symbolic link: reported, never followed
}

type indexedFile struct {
	rel     string
	st      fileStamp
	version string
	problem bool
}

// walk lists every candidate memory file, sorted by path bytes like SQLite's BINARY collation,
// so the merge-join below can compare the two sides in one pass, and the .tmp-* files it meets
// (see removeTempsLocked: the same walk finds them, so a reconcile never walks twice).
func (s *Store) walk() ([]diskFile, []string, error) {
	var files []diskFile
	var temps []string
	err := filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == s.root {
				return err
			}
			s.log.Warn("memory: unable to read", "path", p, "err", err)
			return nil
		}
		name := d.Name()
		if p != s.root && d.Type()&fs.ModeSymlink != 0 {
			// Never followed, wherever it points: a link would let a file outside the home be
			// indexed and then written. Listed so that the person sees why it is not indexed.
			if info, err := d.Info(); err == nil {
				rel, _ := filepath.Rel(s.root, p)
				files = append(files, diskFile{rel: filepath.ToSlash(rel), st: stampOf(info), link: true})
			}
			return nil
		}
		if d.IsDir() {
			if p != s.root && strings.HasPrefix(name, ".") && !(name == ".archive" && filepath.Dir(p) == s.root) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && strings.HasPrefix(name, ".tmp-") {
			temps = append(temps, p)
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(s.root, p)
		files = append(files, diskFile{rel: filepath.ToSlash(rel), st: stampOf(info)})
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("memory: unable to walk %s: %w", s.root, err)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	return files, temps, nil
}

// indexedFiles lists what the index knows of each file, sorted by path like walk. The table is
// read in its own (rowid) order and sorted here: ORDER BY path walks the path index and looks
// every row up in the table, twice the time of a cold CLI's open at 10k memories.
func (s *Store) indexedFiles(ctx context.Context) ([]indexedFile, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path, mtime, size, ctime, ino, version, 0 FROM memory_meta
		UNION ALL SELECT path, mtime, size, ctime, ino, '', 1 FROM memory_problems`)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to list index: %w", err)
	}
	defer rows.Close()
	var out []indexedFile
	for rows.Next() {
		var f indexedFile
		if err := rows.Scan(&f.rel, &f.st.mtime, &f.st.size, &f.st.ctime, &f.st.ino, &f.version, &f.problem); err != nil {
			return nil, fmt.Errorf("memory: unable to scan index: %w", err)
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out, rows.Err()
}

// Reconcile brings the index in line with the files: a merge-join of the sorted walk against
// the index, comparing mtime, size, ctime and inode first and the checksum only when those moved.
func (s *Store) Reconcile(ctx context.Context) (ReconcileReport, error) {
	var rep ReconcileReport
	err := s.withLock(func() error {
		var err error
		if err := s.reopenIfIndexReplacedLocked(ctx); err != nil {
			return err
		}
		rep, err = s.reconcileLocked(ctx, nil)
		s.handEdited(rep, nil, err)
		return err
	})
	if err == nil {
		s.afterReconcile(ctx, rep)
	}
	return rep, err
}

// ReconcilePaths checks only the given relative paths (from the watcher).
func (s *Store) ReconcilePaths(ctx context.Context, rels []string) (ReconcileReport, error) {
	var rep ReconcileReport
	err := s.withLock(func() error {
		var err error
		if err := s.reopenIfIndexReplacedLocked(ctx); err != nil {
			return err
		}
		rep, err = s.reconcileLocked(ctx, rels)
		s.handEdited(rep, rels, err)
		return err
	})
	if err == nil {
		s.afterReconcile(ctx, rep)
	}
	return rep, err
}

// wipeQueries empty the rebuildable tables; history (audit, rejections, runs, usage, access,
// settings) is never among them.
var wipeQueries = append(append([]string{}, clearFullTextQueries...), `DELETE FROM memory_vec`,
	`DELETE FROM graph_mentions`, `DELETE FROM graph_relations`, `DELETE FROM graph_entities`, `DELETE FROM memory_meta`, `DELETE FROM memory_problems`)

func (s *Store) reconcileLocked(ctx context.Context, only []string) (ReconcileReport, error) {
	rep, err := s.rebuildLocked(ctx, only, false)
	if err == nil && only == nil {
		s.afterBulkBuild(ctx, rep) // lean.go
	}
	return rep, err
}

// rebuildLocked reconciles; with wipe it first empties the index inside the same transaction,
// so readers see the old index until the rebuilt one commits, and a failure leaves it whole.
func (s *Store) rebuildLocked(ctx context.Context, only []string, wipe bool) (ReconcileReport, error) {
	var rep ReconcileReport
	var disk []diskFile
	var idx []indexedFile
	var err error
	progress := progressOf(ctx)
	if only == nil {
		var temps []string
		progress("walk", 0, 0)
		if disk, temps, err = s.scan(); err != nil {
			return rep, err
		}
		// A read-only home is rebuilt without the lock (into a throwaway index): its temp
		// files are left alone; only a writer holding the lock may judge them stranded.
		if !s.readOnly {
			s.noteSwept(s.removeTempsLocked(temps))
		}
		// A rebuild empties the index: what it holds is not compared with the walk.
		if !wipe {
			if idx, err = s.indexedFiles(ctx); err != nil {
				return rep, err
			}
		}
	} else {
		onDisk, looked := map[string]bool{}, map[string]bool{}
		lookup := func(rel string) error {
			if looked[rel] {
				return nil
			}
			looked[rel] = true
			f, ok, err := s.indexedFile(ctx, rel)
			if ok {
				idx = append(idx, f)
			}
			return err
		}
		for _, rel := range only {
			if onDisk[rel] || looked[rel] {
				continue
			}
			// A watched path under a linked folder is reported at the link, as the walk does.
			if lp, fi := s.linkedPrefix(rel); lp != "" {
				if !onDisk[lp] {
					onDisk[lp] = true
					disk = append(disk, diskFile{rel: lp, st: stampOf(fi), link: true})
				}
				if err := lookup(lp); err != nil {
					return rep, err
				}
			} else if info, err := os.Lstat(s.abs(rel)); err == nil && info.Mode().IsRegular() {
				onDisk[rel] = true
				disk = append(disk, diskFile{rel: rel, st: stampOf(info)})
			}
			if err := lookup(rel); err != nil {
				return rep, err
			}
		}
		sort.Slice(disk, func(i, j int) bool { return disk[i].rel < disk[j].rel })
		sort.Slice(idx, func(i, j int) bool { return idx[i].rel < idx[j].rel })
	}
	// One connection for the whole pass: a bulk build gets a larger page cache on it (see
	// bulkCacheKiB), handed back before the connection returns to the pool.
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return rep, fmt.Errorf("memory: unable to begin reconcile: %w", err)
	}
	defer conn.Close()
	if len(disk) >= bulkFiles {
		var was int64
		if conn.QueryRowContext(ctx, `PRAGMA cache_size`).Scan(&was) == nil {
			if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA cache_size = -%d`, bulkCacheKiB)); err == nil {
				defer conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf(`PRAGMA cache_size = %d`, was))
			}
		}
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return rep, fmt.Errorf("memory: unable to begin reconcile: %w", err)
	}
	defer tx.Rollback()
	x := newStmtCache(tx)
	defer x.close()
	var metaIndexes []metaIndex
	// A rebuild rewrites every row: the stamp version moves once, not per row (stamp_snapshot.go).
	stampsHeld, err := holdStampTriggers(ctx, tx, wipe)
	if err != nil {
		return rep, err
	}
	if wipe {
		rep.wiping, rep.ids = true, map[string]bool{}
		idx = nil
		if rep.prior, err = readPriorIndex(ctx, tx); err != nil {
			return rep, err
		}
		for _, q := range wipeQueries {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return rep, fmt.Errorf("memory: unable to clear index: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM settings WHERE key = 'index.needs_reindex'`); err != nil {
			return rep, fmt.Errorf("memory: unable to clear reindex flag: %w", err)
		}
		// The secondary indexes are built once the rows are in (lean.go says why).
		if metaIndexes, err = dropMetaIndexes(ctx, tx); err != nil {
			return rep, err
		}
	}
	steps, jobs := planReconcile(disk, idx)
	if rep.bulk, err = holdMerges(ctx, tx, len(jobs) >= s.bulkRows); err != nil {
		return rep, err
	}
	if rep.bulk {
		defer raiseGCForBulk()()
	}
	if !stampsHeld {
		if stampsHeld, err = holdStampTriggers(ctx, tx, rep.bulk); err != nil {
			return rep, err
		}
	}
	ra := s.readAhead(jobs)
	defer ra.close()
	done, total := 0, len(disk)+len(idx)
	for _, st := range steps {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		progressStep(progress, "index", done, total)
		switch {
		case st.read && !st.onIndex:
			done++
			rep.Scanned++
			if err := s.indexRead(ctx, x, ra.read(s), &rep); err != nil {
				return rep, err
			}
		case !st.onDisk:
			done++
			rep.ProblemsChanged = rep.ProblemsChanged || st.x.problem
			id, err := removePath(ctx, x, st.x.rel)
			if err != nil {
				return rep, err
			}
			if id != "" {
				rep.ChangedID = append(rep.ChangedID, id)
				s.auditReconcile(ctx, x, "reconcile_remove", &Memory{ID: id}, st.x.rel)
			}
			rep.Removed++
		case !st.read:
			done += 2
			rep.Scanned++
			rep.Unchanged++
			if st.x.problem {
				rep.Problems++
			}
		default:
			done += 2
			rep.Scanned++
			if err := s.indexRead(ctx, x, ra.read(s), &rep); err != nil {
				return rep, err
			} else if st.x.problem {
				rep.ProblemsChanged = true
			}
		}
	}
	if err := createMetaIndexes(ctx, tx, metaIndexes); err != nil {
		return rep, err
	}
	for _, g := range rep.graphLater {
		if err := syncGraph(ctx, x, g.rid, g.m); err != nil {
			return rep, err
		}
	}
	if rep.wiping {
		if err := bumpGraph(ctx, x); err != nil {
			return rep, err
		}
	}
	rep.graphLater = nil
	if only == nil {
		if _, err := normaliseMetaTimes(ctx, tx, true); err != nil {
			return rep, err
		}
	}
	progress("commit", len(disk)+len(idx), len(disk)+len(idx))
	if err := releaseMerges(ctx, tx, rep.bulk); err != nil {
		return rep, err
	} else if err := releaseStampTriggers(ctx, tx, stampsHeld); err != nil {
		return rep, err
	} else if err := tx.Commit(); err != nil {
		return rep, fmt.Errorf("memory: unable to commit reconcile: %w", err)
	}
	return rep, nil
}

// reconcileStep is one entry of the merge-join of the walk against the index: a file on disk
// (onDisk), a row in the index (onIndex) or both, and whether the file must be read.
type reconcileStep struct {
	onDisk, onIndex, read bool
	x                     indexedFile
}

// planReconcile merges the sorted walk with the sorted index: a file the index does not know
// is read, a row whose file is gone is removed, a file whose stamp moved is read again. jobs
// are the reads, in the order the steps need them.
func planReconcile(disk []diskFile, idx []indexedFile) ([]reconcileStep, []readJob) {
	steps := make([]reconcileStep, 0, max(len(disk), len(idx)))
	var jobs []readJob
	i, j := 0, 0
	for i < len(disk) || j < len(idx) {
		switch {
		case j >= len(idx) || (i < len(disk) && disk[i].rel < idx[j].rel):
			steps = append(steps, reconcileStep{onDisk: true, read: true})
			jobs = append(jobs, readJob{d: disk[i]})
			i++
		case i >= len(disk) || idx[j].rel < disk[i].rel:
			steps = append(steps, reconcileStep{onIndex: true, x: idx[j]})
			j++
		default:
			st := reconcileStep{onDisk: true, onIndex: true, x: idx[j]}
			if disk[i].st != idx[j].st {
				st.read = true
				jobs = append(jobs, readJob{d: disk[i], known: idx[j].version})
			}
			steps = append(steps, st)
			i++
			j++
		}
	}
	return steps, jobs
}

// indexRead indexes one file from its read (readForIndex), or records why it cannot be: a
// file that fails to parse is reported and left exactly as it is.
func (s *Store) indexRead(ctx context.Context, tx execer, r *fileRead, rep *ReconcileReport) error {
	d, m := r.d, r.m
	switch {
	case r.gone:
		_, err := removePath(ctx, tx, d.rel)
		return err
	case r.problem != "":
		return s.recordProblem(ctx, tx, d, r.problem, r.why, rep)
	case m != nil && m.idFromPath && s.lostID(ctx, tx, d.rel, m.ID, rep):
		// Indexed under an id it no longer names: its header or id line was lost (handfile.go).
		return s.recordProblem(ctx, tx, d, ProblemLostID, r.noID, rep)
	case r.unchanged:
		rep.Unchanged++
		_, err := tx.ExecContext(ctx, `UPDATE memory_meta SET mtime = ?, size = ?, ctime = ?, ino = ? WHERE path = ?`,
			d.st.mtime, d.st.size, d.st.ctime, d.st.ino, d.rel)
		return err
	}
	if r.pi.scope == ScopeProject {
		// The header's workdir stays when it is this project's on this machine; a file synced
		// from another machine names that machine's folder, replaced by the one recorded here.
		if m.Workdir != "" && ProjectKey(m.Workdir) != r.pi.key {
			if key, err := s.projects.key(m.Workdir); err != nil || key != r.pi.key {
				m.Workdir = ""
			}
		}
		if m.Workdir == "" {
			var wd string
			_ = tx.QueryRowContext(ctx, `SELECT workdir FROM projects WHERE key = ?`, r.pi.key).Scan(&wd)
			m.Workdir = wd
		}
	}
	if r.risky && !rep.prior.vouched[r.version] {
		// The file vouches for itself; only a person's accept may. Unreviewed in the index only:
		// the file is the person's and stays exactly as it is.
		m.Reviewed = false
		rep.RiskyUnreviewed++
		s.log.Warn("memory: hand-placed file with risky text indexed as unreviewed", "path", d.rel)
	}
	// A rebuild's first sight of an id has nothing to claim it from (insertText).
	fresh := rep.wiping && !rep.ids[m.ID]
	if !fresh {
		if dup, err := s.claimID(ctx, tx, m, d, rep); err != nil || dup {
			return err
		}
	}
	if r.known == "" {
		rep.Added++
	} else {
		rep.Updated++
	}
	if rep.wiping {
		write := upsertText
		if fresh {
			write = insertText
		}
		rid, err := write(ctx, tx, m, d.st, r.ft)
		if err != nil {
			return err
		}
		rep.ids[m.ID] = true
		if strings.Contains(m.Body, "[[") {
			rep.graphLater = append(rep.graphLater, graphPending{rid, m})
		}
	} else {
		rid, err := upsertText(ctx, tx, m, d.st, r.ft)
		if err != nil {
			return err
		}
		if err := syncGraph(ctx, tx, rid, m); err != nil {
			return err
		}
	}
	rep.ChangedID = append(rep.ChangedID, m.ID)
	if !rep.wiping {
		s.auditReconcile(ctx, tx, "reconcile", m, d.rel)
	}
	return nil
}

// auditReconcile records a change found on disk (a hand edit, another tool): the audit log
// is also how other Engram processes on this home learn that something changed.
func (s *Store) auditReconcile(ctx context.Context, tx execer, op string, m *Memory, rel string) {
	id, slug, scope, key := "", "", "", ""
	if m != nil {
		id, slug, scope, key = m.ID, m.Slug, string(m.Scope), m.ScopeKey()
	}
	detail, _ := json.Marshal(map[string]any{"path": rel})
	res, err := tx.ExecContext(ctx, `INSERT INTO memory_audit_log(ts, op, actor, memory_id, slug, scope, scope_key,
		result, detail) VALUES(?,?,?,?,?,?,?,'ok',?)`, s.rfc(s.opts.Now()), op, ActorReconcile, id, slug, scope, key, string(detail))
	if err != nil {
		s.log.Error("memory: unable to write audit row", "err", err)
		return
	}
	s.ownAudit(res)
}
