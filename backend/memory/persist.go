package memory

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

func (s *Store) fillResult(r *ItemResult, m *Memory, down bool) {
	r.ID, r.Slug, r.Path, r.Version = m.ID, m.Slug, m.Path, m.Version
	r.touched = scopeRef{m.Scope, m.ScopeKey()}
	r.AppliedConfidence, r.AutoDowngraded = m.Confidence, down
	if down {
		r.Warnings = append(r.Warnings, Warning{Code: WarnDowngraded, Args: map[string]any{"Confidence": string(m.Confidence)}})
	}
}

// persist renders m, writes its file atomically and indexes it inside tx. m.Version is the
// version the caller checked the file against ("" for a file that must not exist yet); it is
// checked again right before the rename, so an edit landing in between is reported as a
// version conflict instead of being overwritten.
func (s *Store) persist(ctx context.Context, tx *sql.Tx, m *Memory) error {
	return s.persistFrom(ctx, tx, m, "", "")
}

// persistFrom is persist for a memory whose file moves from oldRel (a rename): the old file,
// which is removed afterwards, is re-checked against oldVersion right before the new one goes
// in, like a file replaced in place, so a hand edit of it is never deleted unseen.
func (s *Store) persistFrom(ctx context.Context, tx *sql.Tx, m *Memory, oldRel, oldVersion string) error {
	data, err := Render(m)
	if err != nil {
		return err
	}
	path := s.abs(m.Path)
	prev, rel, slug := m.Version, m.Path, m.Slug
	check := func() error {
		if s.beforeRename != nil {
			s.beforeRename(path)
		}
		if oldRel != "" {
			if err := s.unchanged(oldRel, oldVersion, slug); err != nil {
				return err
			}
		}
		var err error
		if prev == "" {
			err = s.pathFree(ctx, tx, rel, slug)
		} else {
			err = s.unchanged(rel, prev, slug)
		}
		if err == nil && s.mergeNote != nil {
			err = s.mergeNote(rel, Checksum(data))
		}
		return err
	}
	if err := s.writeFile(m.Path, data, s.batchDirs, check, prev == ""); err != nil {
		return err
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("memory: unable to stat %s: %w", m.Path, err)
	}
	m.Version = Checksum(data)
	if _, err := upsertRow(ctx, tx, m, stampOf(info)); err != nil {
		return err
	}
	return nil
}

// audit records one op; failures to audit are logged, never allowed to undo a write.
func (s *Store) audit(ctx context.Context, x execer, b *Batch, it Item, id, result string, detail map[string]any) {
	slug, scope, key := it.Slug, it.Scope, ""
	switch {
	case it.Scope == ScopeAgent:
		key = it.Agent // a refused agent write still names its agent in Activity
	case it.Scope == ScopeProject && it.Workdir != "":
		key = ProjectKey(it.Workdir)
	}
	if id != "" {
		if m, err := getByID(ctx, x, id); err == nil {
			slug, scope, key = m.Slug, m.Scope, m.ScopeKey()
		}
	}
	d, _ := json.Marshal(auditScrub(detail))
	if detail == nil {
		d = []byte("{}")
	}
	res, err := x.ExecContext(ctx, `INSERT INTO memory_audit_log(ts, op, actor, memory_id, slug, scope, scope_key,
		session, model, result, detail) VALUES(?,?,?,?,?,?,?,?,?,?,?)`, s.rfc(s.opts.Now()), string(it.Op), b.Actor,
		RedactSecrets(id), RedactSecrets(slug), RedactSecrets(string(scope)), RedactSecrets(key),
		RedactSecrets(b.Session), RedactSecrets(b.Model), result, string(d))
	if err != nil {
		s.log.Error("memory: unable to write audit row", "err", err)
		return
	}
	s.ownAudit(res)
}

// unchanged reports a version_conflict unless the file at rel still holds version: someone
// edited or removed it on disk since it was read.
func (s *Store) unchanged(rel, version, slug string) error {
	cur, err := readNoFollow(s.abs(rel))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return codeErr(CodeVersionConflict, map[string]any{"Expected": version, "Actual": ""},
				"memory %s was removed on disk while it was being written", slug)
		}
		return fmt.Errorf("memory: unable to read %s: %w", rel, err)
	}
	if v := Checksum(cur); v != version {
		return codeErr(CodeVersionConflict, map[string]any{"Expected": version, "Actual": v},
			"memory %s was edited on disk while it was being written; nothing was overwritten", slug)
	}
	return nil
}

// auditScrub is an audit row's detail with every text in it passed through RedactSecrets. A
// refusal's row keeps what the caller sent ("invalid slug \"ghp_…\"", an unknown scope or
// type, a reference not found), and Activity shows it: a token put where a slug, a scope, a
// type, an agent or an id goes was stored whole in the log, although no file ever held it.
func auditScrub(v map[string]any) map[string]any {
	if v == nil {
		return nil
	}
	out := make(map[string]any, len(v))
	for k, e := range v {
		out[k] = auditScrubValue(e)
	}
	return out
}

func auditScrubValue(v any) any {
	switch t := v.(type) {
	case string:
		return RedactSecrets(t)
	case map[string]any:
		return auditScrub(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = auditScrubValue(e)
		}
		return out
	case []string:
		out := make([]string, len(t))
		for i, e := range t {
			out[i] = RedactSecrets(e)
		}
		return out
	}
	return v
}
