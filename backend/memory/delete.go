package memory

import (
	"context"
	"database/sql"
	"fmt"
)

func (s *Store) opDelete(ctx context.Context, tx *sql.Tx, b *Batch, it Item, r *ItemResult) error {
	m, err := s.target(ctx, tx, it)
	if err != nil {
		return err
	}
	if err := s.checkVersion(m, it.ExpectedVersion); err != nil {
		return err
	}
	dst := trashName(m.Path, s.opts.Now())
	if err := s.move(m.Path, dst, s.batchDirs); err != nil {
		return err
	}
	if err := deleteRowByPath(ctx, tx, m.Path); err != nil {
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
	s.audit(ctx, tx, b, it, m.ID, "ok", map[string]any{"trash": dst, "from": m.Path})
	return nil
}
