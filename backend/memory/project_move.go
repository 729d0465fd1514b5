package memory

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ActorProject is the audit and history actor of a project's memories moving to its identity
// key (adoptProject).
const ActorProject = "project"

// ProjectMove is what moving a project's memories from its path key to its identity key did.
type ProjectMove struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Kind     string `json:"kind"`
	Identity string `json:"identity"`
	Workdir  string `json:"workdir"`
	// Moved counts files moved; Duplicates files the identity folder already held byte for byte
	// (the path-key copy was dropped: nothing is lost).
	Moved      int `json:"moved"`
	Duplicates int `json:"duplicates"`
	// Conflicts are files both folders held with different contents: the moved one was kept
	// beside the other as a conflict copy, unreviewed, for the person to resolve.
	Conflicts []ProjectConflict `json:"conflicts,omitempty"`
}

// ProjectConflict is one conflict copy a move made.
type ProjectConflict struct {
	Path string `json:"path"` // the file the identity folder already held
	Copy string `json:"copy"` // where the moved version now is
}

// adoptProject is Projects.adopt: the first time this process sees a workdir resolve to an
// id or remote identity, memories an older build kept under the workdir's path key move to
// the identity key. A failure is logged; the memories stay where they were, and the next
// process (or `engram project --move`) tries again.
func (s *Store) adoptProject(p Project) {
	if s.readOnly || p.Key == p.PathKey || !ValidProjectKey(p.PathKey) || !ValidProjectKey(p.Key) {
		return
	}
	ctx := context.Background()
	s.noteProject(ctx, p)
	if !s.projectHolds(ctx, p.PathKey) {
		return
	}
	mv, err := s.MoveProject(ctx, p)
	if err != nil {
		s.log.Warn("memory: unable to move a project to its identity", "workdir", p.Workdir, "from", p.PathKey, "to", p.Key, "err", err)
		return
	}
	if mv.Moved+mv.Duplicates+len(mv.Conflicts) > 0 {
		s.log.Info("memory: project moved to its identity", "workdir", p.Workdir, "identity", p.Identity,
			"from", p.PathKey, "to", p.Key, "moved", mv.Moved, "conflicts", len(mv.Conflicts))
	}
	for _, c := range mv.Conflicts {
		s.log.Warn("memory: project move kept both versions of a memory", "path", c.Path, "copy", c.Copy)
	}
}

// noteProject records this machine's workdir and the identity of a project key: memories
// synced from another machine name that machine's folder, and the index shows this one.
func (s *Store) noteProject(ctx context.Context, p Project) {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO projects(key, workdir, first_seen, identity) VALUES(?,?,?,?)
		ON CONFLICT(key) DO UPDATE SET workdir = excluded.workdir, identity = excluded.identity`,
		p.Key, p.Workdir, s.rfc(s.opts.Now()), p.Kind+":"+p.Identity); err != nil {
		s.log.Warn("memory: unable to record project", "key", p.Key, "err", err)
	}
}

// movedTo is the key a project key's memories moved to ("" when they did not move).
func movedTo(ctx context.Context, x execer, key string) string {
	var to string
	_ = x.QueryRowContext(ctx, `SELECT moved_to FROM projects WHERE key = ?`, key).Scan(&to)
	return to
}

// projectHolds reports whether anything sits under a project key: its folder, or archived
// memories indexed with it.
func (s *Store) projectHolds(ctx context.Context, key string) bool {
	if _, err := os.Lstat(s.abs("projects/" + key)); err == nil {
		return true
	}
	var n int
	_ = s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_meta WHERE scope = 'project' AND scope_key = ? LIMIT 1`, key).Scan(&n)
	return n > 0
}

// MoveProject moves every file kept under p's path key (live and archived) to p's identity key
// under the writer lock: each file is linked into place and then unlinked (a file already at
// the destination is never overwritten), the index rows follow in one transaction, and the
// history hook hears one change naming every old and new path (git records renames). A
// destination holding the same bytes drops the path-key copy; one holding other bytes keeps
// both, the moved version as a conflict copy ("<slug>-conflict-<hash>", unreviewed,
// conflicts_with the original).
func (s *Store) MoveProject(ctx context.Context, p Project) (ProjectMove, error) {
	mv := ProjectMove{From: p.PathKey, To: p.Key, Kind: p.Kind, Identity: p.Identity, Workdir: p.Workdir}
	if p.Key == p.PathKey {
		return mv, nil
	}
	if !ValidProjectKey(p.PathKey) || !ValidProjectKey(p.Key) {
		return mv, fmt.Errorf("memory: unable to move project: invalid key %q or %q", p.PathKey, p.Key)
	}
	var ids []string
	err := s.withLock(func() error {
		var err error
		ids, err = s.moveProjectLocked(ctx, p, &mv)
		return err
	})
	if len(ids) > 0 {
		s.changed(ctx, ids)
	}
	return mv, err
}

// projectFile is one file a move takes along.
type projectFile struct {
	from, to string
}

// projectFiles lists the files under projects/<key>/ and .archive/<year>/projects/<key>/.
func (s *Store) projectFiles(from, to string) ([]projectFile, error) {
	roots := []string{"projects/" + from}
	if years, err := os.ReadDir(s.abs(".archive")); err == nil {
		for _, y := range years {
			if y.IsDir() && archiveDirRE.MatchString(y.Name()) {
				roots = append(roots, ".archive/"+y.Name()+"/projects/"+from)
			}
		}
	}
	var out []projectFile
	for _, root := range roots {
		err := filepath.WalkDir(s.abs(root), func(abs string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if d.Type()&fs.ModeSymlink != 0 && abs == s.abs(root) {
				return fmt.Errorf("memory: %s is a link; not moved", root)
			}
			if !d.Type().IsRegular() || strings.HasPrefix(d.Name(), ".tmp-") {
				return nil
			}
			rel, err := filepath.Rel(s.root, abs)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			prefix := strings.TrimSuffix(root, from)
			out = append(out, projectFile{from: rel, to: prefix + to + strings.TrimPrefix(rel, root)})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("memory: unable to list %s: %w", root, err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].from < out[j].from })
	return out, nil
}

func (s *Store) moveProjectLocked(ctx context.Context, p Project, mv *ProjectMove) ([]string, error) {
	files, err := s.projectFiles(p.PathKey, p.Key)
	if err != nil {
		return nil, err
	}
	s.batchPaths = map[string]bool{}
	defer func() { s.batchPaths = nil }()
	dirs := map[string]bool{}
	type rowMove struct {
		from, to string
		st       fileStamp
	}
	var rows []rowMove // moved as they are: the index row follows
	var gone []string  // dropped (duplicate) or replaced by a conflict copy: the row leaves
	var fresh []string // conflict copies and moved files the index did not hold: reconciled
	var redo []string  // destinations that stood in the way: their problem rows are judged again
	for _, f := range files {
		if err := s.safeDir(f.from, false); err != nil {
			return nil, err
		}
		if err := s.safeDir(f.to, true); err != nil {
			return nil, err
		}
		// Never over a file that is there: placeNew fails with fs.ErrExist instead.
		err := placeNew(s.abs(f.from), s.abs(f.to), os.Link, renameNoReplace)
		switch {
		case err == nil:
			s.notePath(f.from)
			s.notePath(f.to)
			if err := os.Remove(s.abs(f.from)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("memory: unable to remove %s after moving it: %w", f.from, err)
			}
			dirs[filepath.Dir(s.abs(f.to))], dirs[filepath.Dir(s.abs(f.from))] = true, true
			info, err := os.Lstat(s.abs(f.to))
			if err != nil {
				return nil, fmt.Errorf("memory: unable to read %s: %w", f.to, err)
			}
			rows = append(rows, rowMove{f.from, f.to, stampOf(info)})
			mv.Moved++
		case errors.Is(err, fs.ErrExist):
			ours, err := readNoFollow(s.abs(f.from))
			if err != nil {
				return nil, err
			}
			theirs, err := readNoFollow(s.abs(f.to))
			if err != nil {
				return nil, err
			}
			if !bytes.Equal(ours, theirs) {
				cp, err := s.conflictCopy(f.to, ours, dirs)
				if err != nil {
					return nil, err
				}
				fresh = append(fresh, cp)
				mv.Conflicts = append(mv.Conflicts, ProjectConflict{Path: f.to, Copy: cp})
			} else {
				mv.Duplicates++
			}
			s.notePath(f.from)
			if err := os.Remove(s.abs(f.from)); err != nil {
				return nil, fmt.Errorf("memory: unable to remove %s: %w", f.from, err)
			}
			dirs[filepath.Dir(s.abs(f.from))] = true
			gone = append(gone, f.from)
			// The destination may have lost an id claim to the file just removed (the same
			// memory on both sides): it is judged again below.
			redo = append(redo, f.to)
		default:
			return nil, err
		}
	}
	if err := syncDirs(dirs); err != nil {
		return nil, err
	}
	emptied := map[string]bool{}
	for _, f := range files {
		if root, _, ok := strings.Cut(f.from, "/"+p.PathKey+"/"); ok && !emptied[root] {
			emptied[root] = true
			removeEmptyDirs(s.abs(root + "/" + p.PathKey))
			_ = os.Remove(s.abs(root + "/" + p.PathKey)) // only when empty
		}
	}
	var ids []string
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to begin project move: %w", err)
	}
	defer tx.Rollback()
	for _, r := range rows {
		var rid int64
		err := tx.QueryRowContext(ctx, `SELECT rid FROM memory_meta WHERE path = ?`, r.from).Scan(&rid)
		if errors.Is(err, sql.ErrNoRows) {
			// A file the index did not hold (a problem, a stray): the reconcile below judges it.
			if _, err := tx.ExecContext(ctx, `DELETE FROM memory_problems WHERE path = ?`, r.from); err != nil {
				return nil, fmt.Errorf("memory: unable to clear problem: %w", err)
			}
			fresh = append(fresh, r.to)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("memory: unable to read index: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE memory_meta SET path = ?, scope_key = ?, mtime = ?, size = ?, ctime = ?, ino = ?
			WHERE rid = ?`, r.to, p.Key, r.st.mtime, r.st.size, r.st.ctime, r.st.ino, rid); err != nil {
			return nil, fmt.Errorf("memory: unable to move index row %s: %w", r.from, err)
		}
		m, _, err := scanMemory(tx.QueryRowContext(ctx, `SELECT `+metaColumns+` FROM memory_meta WHERE rid = ?`, rid))
		if err != nil {
			return nil, fmt.Errorf("memory: unable to read %s: %w", r.to, err)
		}
		if err := syncGraph(ctx, tx, rid, m); err != nil {
			return nil, err
		}
		s.auditMove(ctx, tx, m, r.from, r.to)
		ids = append(ids, m.ID)
	}
	for _, rel := range gone {
		id, err := removePath(ctx, tx, rel)
		if err != nil {
			return nil, err
		}
		if id != "" {
			ids = append(ids, id)
		}
	}
	for _, rel := range redo {
		var n int
		_ = tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_problems WHERE path = ?`, rel).Scan(&n)
		if n == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM memory_problems WHERE path = ?`, rel); err != nil {
			return nil, fmt.Errorf("memory: unable to clear problem: %w", err)
		}
		fresh = append(fresh, rel)
	}
	if err := moveProjectRows(ctx, tx, p, s.rfc(s.opts.Now())); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("memory: unable to commit project move: %w", err)
	}
	if len(fresh) > 0 {
		rep, err := s.reconcileLocked(ctx, fresh)
		if err != nil {
			return ids, err
		}
		ids = append(ids, rep.ChangedID...)
	}
	if len(s.batchPaths) > 0 {
		a := Applied{Actor: ActorProject, Ops: []string{fmt.Sprintf("move project %s to %s (%s %s)", p.PathKey, p.Key, p.Kind, p.Identity)}}
		for rel := range s.batchPaths {
			a.Paths = append(a.Paths, rel)
		}
		sort.Strings(a.Paths)
		s.runHook(a)
	}
	return ids, nil
}

// moveProjectRows points what the index keeps by project key at the new key: rejections
// (remembered 7 days), sessions and their messages, and the projects table, where the path
// key remembers where it moved (a memory restored from the trash under the old key follows it).
func moveProjectRows(ctx context.Context, tx *sql.Tx, p Project, now string) error {
	for _, q := range []string{
		`UPDATE OR IGNORE memory_rejections SET scope_key = ?2 WHERE scope = 'project' AND scope_key = ?1`,
		`DELETE FROM memory_rejections WHERE scope = 'project' AND scope_key = ?1`,
		`UPDATE sessions SET scope_key = ?2 WHERE scope_key = ?1`,
		`UPDATE session_turns SET scope_key = ?2 WHERE scope_key = ?1`,
		`UPDATE OR IGNORE session_summaries SET scope_key = ?2 WHERE scope_key = ?1`,
	} {
		if _, err := tx.ExecContext(ctx, q, p.PathKey, p.Key); err != nil {
			return fmt.Errorf("memory: unable to move project rows: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO projects(key, workdir, first_seen, identity) VALUES(?,?,?,?)
		ON CONFLICT(key) DO UPDATE SET workdir = excluded.workdir, identity = excluded.identity`,
		p.Key, p.Workdir, now, p.Kind+":"+p.Identity); err != nil {
		return fmt.Errorf("memory: unable to record project: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO projects(key, workdir, first_seen, moved_to) VALUES(?,?,?,?)
		ON CONFLICT(key) DO UPDATE SET moved_to = excluded.moved_to`, p.PathKey, p.Workdir, now, p.Key); err != nil {
		return fmt.Errorf("memory: unable to record project move: %w", err)
	}
	return nil
}

func (s *Store) auditMove(ctx context.Context, tx *sql.Tx, m *Memory, from, to string) {
	detail, _ := json.Marshal(map[string]any{"from": from, "path": to})
	res, err := tx.ExecContext(ctx, `INSERT INTO memory_audit_log(ts, op, actor, memory_id, slug, scope, scope_key,
		result, detail) VALUES(?,?,?,?,?,?,?,'ok',?)`, s.rfc(s.opts.Now()), "project_move", ActorProject,
		m.ID, m.Slug, string(m.Scope), m.ScopeKey(), string(detail))
	if err != nil {
		s.log.Error("memory: unable to write audit row", "err", err)
		return
	}
	s.ownAudit(res)
}

// unmovedProjects finds, for doctor, projects whose memories still sit under the path key
// although the workdir now resolves to an id or remote identity: the move at first use failed
// (it is logged) or has not run in any process since. `engram project DIR` moves them.
func (s *Store) unmovedProjects(ctx context.Context) ([]Finding, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT p.key, p.workdir, COUNT(m.rid) FROM projects p
		JOIN memory_meta m ON m.scope = 'project' AND m.scope_key = p.key
		WHERE p.moved_to = '' AND p.workdir <> '' GROUP BY p.key, p.workdir ORDER BY p.workdir`)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to list projects: %w", err)
	}
	type row struct {
		key, wd string
		n       int
	}
	var list []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.key, &r.wd, &r.n); err != nil {
			rows.Close()
			return nil, fmt.Errorf("memory: unable to read projects: %w", err)
		}
		if ProjectKey(r.wd) == r.key {
			list = append(list, r)
		}
	}
	rows.Close()
	var out []Finding
	for _, r := range list {
		p, err := s.projects.resolve(r.wd)
		if err == nil && p.Key == r.key && p.UntrustedID != "" {
			// Kept apart on purpose until the person's word: say so, and how to give it.
			out = append(out, Finding{Code: "project_untrusted", Path: "projects/" + r.key, Count: r.n,
				Args: map[string]any{"Workdir": r.wd, "Identity": p.UntrustedID, "Count": r.n},
				Fix:  "engram project --trust " + shellQuote(r.wd)})
		}
		if err != nil || p.Key == r.key {
			continue
		}
		out = append(out, Finding{Code: "project_not_moved", Path: "projects/" + r.key, Count: r.n,
			Args: map[string]any{"Workdir": r.wd, "Identity": p.Identity, "Key": p.Key, "Count": r.n},
			Fix:  "engram project " + shellQuote(r.wd)})
	}
	return out, nil
}
