package memory

import (
	"context"
	"database/sql"
	"fmt"
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
	// A model may append to the journal, never change it (update is refused), and a journal
	// day holds the person's own entries: an agent's memory_delete trashed the whole day.
	if m.Type == TypeDaily && modelWritten(b.Actor) {
		return codeErr(CodeDailyReadOnly, nil, "journal days are appended to, not deleted by a model")
	}
	if err := s.checkVersion(m, it.ExpectedVersion); err != nil {
		return err
	}
	reason := strings.TrimSpace(it.Reason)
	if it.Op == OpReject && utf8.RuneCountInString(reason) > MaxReasonRunes {
		return codeErr(CodeReasonTooLong, map[string]any{"Max": MaxReasonRunes}, "a rejection reason holds at most %d characters", MaxReasonRunes)
	}
	if err := s.stampHandID(ctx, tx, m); err != nil {
		return err
	}
	dst := trashName(m.Path, s.opts.Now())
	if err := s.moveAside(m.Path, dst, s.batchDirs); err != nil {
		return err
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
