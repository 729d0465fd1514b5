package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// MaxReasonRunes bounds a rejection reason, which the audit log keeps.
const MaxReasonRunes = 500

func (s *Store) opDelete(ctx context.Context, tx *sql.Tx, b *Batch, it Item, r *ItemResult) error {
	// A caller that names the version it saw (the organizer's merge, an edit form) means that
	// version: a file edited by hand since, not yet reindexed, is a conflict, not trashed with
	// an edit the merge never took in. A plain delete takes the file as it is (the trash keeps it).
	var m *Memory
	var err error
	if it.ExpectedVersion != "" {
		m, err = s.freshTarget(ctx, tx, it)
	} else {
		m, err = s.target(ctx, tx, it)
	}
	if err != nil {
		return err
	}
	if err := s.checkVersion(m, it.ExpectedVersion); err != nil {
		return err
	}
	if m.Type == TypeDaily && (modelWritten(b.Actor) || b.Actor == ActorOrganizer) {
		// A day is only ever appended to, and it holds the person's own entries: a model's
		// delete (the journal is global, so every agent sees its days) would take them away.
		return codeErr(CodeDailyPersonOnly, map[string]any{"Slug": m.Slug}, "only the person deletes a journal day (%s)", m.Slug)
	}
	reason := strings.TrimSpace(it.Reason)
	if it.Op == OpReject && utf8.RuneCountInString(reason) > MaxReasonRunes {
		return codeErr(CodeReasonTooLong, map[string]any{"Max": MaxReasonRunes}, "a rejection reason holds at most %d characters", MaxReasonRunes)
	}
	if err := s.stampHandID(ctx, tx, m); err != nil {
		return err
	}
	if m.Type != TypeDaily {
		// Read while the index still holds it: the links that opened it until now.
		w, left, err := linksLeft(ctx, tx, b.Actor, m, nil)
		if err != nil {
			return err
		}
		if left {
			r.Warnings = append(r.Warnings, w)
		}
	}
	dst := trashName(m.Path, s.opts.Now())
	if s.beforeRemove != nil {
		s.beforeRemove(m.Path)
	}
	if err := s.moveAside(m.Path, dst, s.batchDirs); err != nil {
		return err
	}
	if it.ExpectedVersion != "" {
		if err := s.movedAsChecked(m, dst); err != nil {
			return err
		}
	}
	if it.Op == OpReject {
		now := s.opts.Now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_rejections(scope, scope_key, slug, title, rejected_at, expires_at)
			VALUES(?,?,?,?,?,?) ON CONFLICT(scope, scope_key, slug) DO UPDATE SET title=excluded.title,
			rejected_at=excluded.rejected_at, expires_at=excluded.expires_at`,
			string(m.Scope), m.ScopeKey(), m.Slug, m.Title, s.rfc(now), s.rfc(now.Add(RejectionRemember))); err != nil {
			return fmt.Errorf("memory: unable to remember rejection: %w", err)
		}
	}
	r.ID, r.Slug, r.Path = m.ID, m.Slug, dst
	r.touched = scopeRef{m.Scope, m.ScopeKey()}
	detail := map[string]any{"trash": dst, "from": m.Path, "slug": m.Slug, "title": m.Title}
	if it.Op == OpReject && reason != "" {
		detail["reason"] = reason
	}
	// Audited while the row still exists, so the log names the memory by its slug and scope
	// rather than only by a raw id.
	s.audit(ctx, tx, b, it, m.ID, "ok", detail)
	if err := deleteRowByPath(ctx, tx, m.Path); err != nil {
		return err
	}
	return nil
}

// movedAsChecked makes a delete that named its version as sure as the check before it: a hand
// edit saved between freshTarget's read and the move went to the trash with the file, and the
// merge or form that asked for the delete never took it in. The file is read again where the
// move put it; an edited one goes back where it was (unless a new file took that place) and
// the delete is a conflict, as an edit seen before the move is.
func (s *Store) movedAsChecked(m *Memory, dst string) error {
	data, err := readNoFollow(s.abs(dst))
	if err != nil {
		return nil // gone from the trash already: nothing of it to keep
	}
	v := Checksum(data)
	if v == m.Version {
		return nil
	}
	if _, err := os.Lstat(s.abs(m.Path)); errors.Is(err, os.ErrNotExist) {
		if err := s.move(dst, m.Path, s.batchDirs); err != nil {
			s.log.Warn("memory: a memory edited while it was being deleted stays in the trash", "path", dst, "err", err)
		}
	}
	return codeErr(CodeVersionConflict, map[string]any{"Expected": m.Version, "Actual": v},
		"memory %s was edited on disk while it was being deleted; try again", m.Slug)
}
