package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Problem is a file the index could not take, left untouched on disk.
type Problem struct {
	Path   string `json:"path"`
	Code   string `json:"code"`
	Detail string `json:"detail"`
	// DetailKey and DetailArgs name Detail in the catalog (detail.*), as the reason was found
	// (the parser's, a field's limit, a kv.json's fault…), so it is shown in the person's
	// language; "" for a reason the catalog does not name (it is said by Code around Detail).
	DetailKey  string         `json:"detail_key,omitempty"`
	DetailArgs map[string]any `json:"detail_args,omitempty"`
	SeenAt     string         `json:"seen_at"`
}

// DoctorReport is the health of a home.
type DoctorReport struct {
	Home          string `json:"home"`
	SchemaVersion int    `json:"schema_version"`
	// Memories, JournalDays and Archived count as engram list and quota do: live memories
	// (no journal day), the journal's days, archived memories.
	Memories      int             `json:"memories"`
	JournalDays   int             `json:"journal_days"`
	Archived      int             `json:"archived"`
	TrashFiles    int             `json:"trash_files"`
	Problems      []Problem       `json:"problems"`
	Integrity     string          `json:"integrity"`
	FTSConsistent bool            `json:"fts_consistent"`
	Reconcile     ReconcileReport `json:"reconcile"`
	Quota         QuotaSummary    `json:"quota"`
	// Checksum re-hashes every indexed file: edits that kept size, mtime, ctime and inode
	// (or systems without ctime) are found here and reindexed.
	Checksum ChecksumPass `json:"checksum"`
	// TempFiles are the .tmp-* files interrupted writes left, removed at open or now.
	TempFiles TempFiles `json:"temp_files"`
	OK        bool      `json:"ok"`
	// ReadOnly is set for a home opened read-only (nothing was reconciled or repaired).
	ReadOnly bool `json:"read_only"`
	// ReadOnlyIndex is the index file's path when it alone cannot be written (the folder can).
	ReadOnlyIndex string `json:"read_only_index,omitempty"`
	// Recovery is the last repair of a damaged index, if there ever was one.
	Recovery *Recovery `json:"recovery,omitempty"`
	// Orphans and StuckRuns are index rows doctor cannot fix while checking (engram vacuum does).
	Orphans   Orphans   `json:"orphans"`
	StuckRuns StuckRuns `json:"stuck_runs"`
	// Findings are every fault above, one each, with the command that fixes it.
	Findings []Finding `json:"findings"`
	// Headline is what doctor says first, from every finding (SetHeadline, called by api once
	// the git history's findings are in too).
	Headline DoctorHeadline `json:"headline"`
}

// ChecksumPass is doctor's comparison of every indexed file's bytes with the index.
type ChecksumPass struct {
	Checked    int      `json:"checked"`
	Mismatched []string `json:"mismatched"`
	Reindexed  int      `json:"reindexed"`
	// Disagreeing are files whose header names another type, slug or scope than their place
	// (read as their place says; the header is left as it is).
	Disagreeing []HeaderDisagreement `json:"disagreeing,omitempty"`
}

// Problems lists files that could not be indexed, and agents' kv.json files that cannot be
// used (see kvProblems), each with its reason's catalog key and arguments as they were made.
func (s *Store) Problems(ctx context.Context) ([]Problem, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path, code, detail, detail_key, detail_args, seen_at FROM memory_problems ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to list problems: %w", err)
	}
	defer rows.Close()
	var out []Problem
	for rows.Next() {
		var p Problem
		var args string
		if err := rows.Scan(&p.Path, &p.Code, &p.Detail, &p.DetailKey, &args, &p.SeenAt); err != nil {
			return nil, err
		}
		p.DetailArgs = decodeArgs(args)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if kv := s.kvProblems(); len(kv) > 0 {
		// A kv.json the walk already reported (a link: never followed) is one problem, not
		// two (doctor counted a linked kv.json twice).
		seen := make(map[string]bool, len(out))
		for _, p := range out {
			seen[p.Path] = true
		}
		for _, p := range kv {
			if !seen[p.Path] {
				out = append(out, p)
			}
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	}
	return out, nil
}

// Doctor checks the index's integrity (repairing a damaged one when it can), reconciles and
// reports unreadable files.
func (s *Store) Doctor(ctx context.Context) (DoctorReport, error) {
	rep := DoctorReport{Home: s.home, SchemaVersion: SchemaVersion(), ReadOnly: s.readOnly, ReadOnlyIndex: s.readOnlyIndex}
	var err error
	progressOf(ctx)("integrity", 0, 0)
	if rep.Integrity, err = s.checkAndRepair(ctx); err != nil {
		return rep, err
	}
	rep.Recovery = s.Recovery(ctx)
	if !s.readOnly {
		if rep.Reconcile, err = s.Reconcile(ctx); err != nil {
			return rep, err
		}
		if rep.Checksum, err = s.checksumPass(ctx); err != nil {
			return rep, err
		}
	}
	rep.TempFiles = s.sweptTemps()
	if rep.Problems, err = s.Problems(ctx); err != nil {
		return rep, err
	}
	// Memories as engram list and quota count them: a journal day is no memory (it is counted
	// apart; "All good: 21 memories" was 20 and a day of the journal). A backup counts the same.
	counts, err := s.Counts(ctx)
	if err != nil {
		return rep, err
	}
	rep.Memories, rep.JournalDays, rep.Archived = counts.Memories, counts.JournalDays, counts.Archived
	var meta, fts, tri int
	_ = s.db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM memory_meta), (SELECT COUNT(*) FROM memory_fts),
		(SELECT COUNT(*) FROM memory_fts_tri)`).Scan(&meta, &fts, &tri)
	rep.FTSConsistent = meta == fts && meta == tri && s.FullTextCheck(ctx) == nil
	if entries, err := os.ReadDir(filepath.Join(s.root, ".trash")); err == nil {
		rep.TrashFiles = len(entries)
	}
	if rep.Quota, err = s.Quota(ctx); err != nil {
		return rep, err
	}
	if err := s.findings(ctx, &rep); err != nil {
		return rep, err
	}
	rep.OK = rep.Integrity == "ok" && rep.FTSConsistent && len(rep.Problems) == 0 && len(rep.Checksum.Mismatched) == 0 &&
		rep.Orphans.Total() == 0 && rep.StuckRuns.Organizer+rep.StuckRuns.Extraction == 0
	for _, f := range rep.Findings {
		if f.Code == CodeMergeLeftHalfDone || f.Code == "slug_shared" {
			rep.OK = false // a merge left half done beside a hand edit, or two files of one slug, wait for the person
		}
	}
	return rep, nil
}

// checksumPass re-hashes every indexed file and reindexes those whose bytes differ from the
// index (the reconcile just before it swept leftover temp files).
func (s *Store) checksumPass(ctx context.Context) (ChecksumPass, error) {
	var cp ChecksumPass
	var rep ReconcileReport
	err := s.withLock(func() error {
		type row struct{ path, version string }
		var all []row
		rows, err := s.db.QueryContext(ctx, `SELECT path, version FROM memory_meta ORDER BY path`)
		if err != nil {
			return fmt.Errorf("memory: unable to list index: %w", err)
		}
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.path, &r.version); err != nil {
				rows.Close()
				return fmt.Errorf("memory: unable to list index: %w", err)
			}
			all = append(all, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("memory: unable to list index: %w", err)
		}
		progress := progressOf(ctx)
		for _, r := range all {
			if err := ctx.Err(); err != nil {
				return err
			}
			progressStep(progress, "checksum", cp.Checked, len(all))
			cp.Checked++
			data, err := readNoFollow(s.abs(r.path))
			if err == nil && Checksum(data) == r.version {
				if d, ok := headerDisagrees(r.path, data); ok {
					cp.Disagreeing = append(cp.Disagreeing, d)
				}
				continue
			}
			cp.Mismatched = append(cp.Mismatched, r.path)
		}
		if len(cp.Mismatched) == 0 {
			return nil
		}
		s.log.Warn("memory: files differ from the index though their stamps match; reindexing", "count", len(cp.Mismatched))
		for _, p := range cp.Mismatched {
			// A stamp no file has makes the reconcile below read the file again.
			if _, err := s.db.ExecContext(ctx, `UPDATE memory_meta SET mtime = -1 WHERE path = ?`, p); err != nil {
				return fmt.Errorf("memory: unable to mark %s for reindex: %w", p, err)
			}
		}
		rep, err = s.reconcileLocked(ctx, cp.Mismatched)
		cp.Reindexed = rep.Added + rep.Updated + rep.Removed
		return err
	})
	if err == nil {
		s.afterReconcile(ctx, rep)
	}
	return cp, err
}

// AuditEntry is one row of the audit log.
type AuditEntry struct {
	Seq      int64  `json:"seq"`
	TS       string `json:"ts"`
	Op       string `json:"op"`
	Actor    string `json:"actor"`
	MemoryID string `json:"memory_id"`
	Slug     string `json:"slug"`
	Scope    string `json:"scope"`
	// Agent and Workdir name the scope's instance (an agent's name, a project's folder), and
	// Title is the memory's title now: Activity shows a memory as people know it.
	Agent   string          `json:"agent,omitempty"`
	Workdir string          `json:"workdir,omitempty"`
	Title   string          `json:"title,omitempty"`
	Session string          `json:"session"`
	Model   string          `json:"model"`
	Result  string          `json:"result"`
	Detail  json.RawMessage `json:"detail"`
}

// Audit returns audit rows, newest first; memoryID narrows to one memory's history.
func (s *Store) Audit(ctx context.Context, memoryID string, limit int) ([]AuditEntry, error) {
	return s.AuditPage(ctx, memoryID, limit, 0)
}

// AuditPage is Audit from before one sequence number back (0: from the newest).
func (s *Store) AuditPage(ctx context.Context, memoryID string, limit int, beforeSeq int64) ([]AuditEntry, error) {
	if limit <= 0 {
		limit = 100
	}
	q := `SELECT a.seq, a.ts, a.op, a.actor, a.memory_id, a.slug, a.scope,
		CASE a.scope WHEN 'agent' THEN a.scope_key ELSE '' END,
		COALESCE((SELECT p.workdir FROM projects p WHERE a.scope = 'project' AND p.key = a.scope_key), ''),
		COALESCE((SELECT m.title FROM memory_meta m WHERE a.memory_id != '' AND m.id = a.memory_id), ''),
		a.session, a.model, a.result, a.detail
		FROM memory_audit_log a WHERE 1 = 1`
	var args []any
	if memoryID != "" {
		q += ` AND a.memory_id = ?`
		args = append(args, memoryID)
	}
	if beforeSeq > 0 {
		q += ` AND a.seq < ?`
		args = append(args, beforeSeq)
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY a.seq DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read audit log: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var detail string
		if err := rows.Scan(&e.Seq, &e.TS, &e.Op, &e.Actor, &e.MemoryID, &e.Slug, &e.Scope, &e.Agent, &e.Workdir, &e.Title, &e.Session, &e.Model, &e.Result, &detail); err != nil {
			return nil, err
		}
		if !json.Valid([]byte(detail)) || strings.TrimSpace(detail) == "" {
			detail = "{}"
		}
		e.Detail = json.RawMessage(detail)
		out = append(out, e)
	}
	return out, rows.Err()
}
