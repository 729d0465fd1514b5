package memory

import (
	"context"
	"database/sql"
)

func (s *Store) opAccept(ctx context.Context, tx *sql.Tx, b *Batch, it Item, r *ItemResult) error {
	m, err := s.freshTarget(ctx, tx, it)
	if err != nil {
		return err
	}
	if err := s.checkVersion(m, it.ExpectedVersion); err != nil {
		return err
	}
	if b.accepts > 1 && !m.Reviewed {
		if risk := RiskOfMemory(m); risk != nil {
			return codeErr(CodeRiskyBulkAccept, map[string]any{"Slug": m.Slug, "Title": m.Title, "Kind": risk.Kind},
				"memory %s reads like an instruction to the agent (%s); accept it on its own", m.Slug, risk.Kind)
		}
	}
	if !m.Reviewed {
		m.Reviewed = true
		m.Updated = s.opts.Now()
		if err := s.persist(ctx, tx, m); err != nil {
			return err
		}
	}
	s.fillResult(r, m, false)
	s.audit(ctx, tx, b, it, m.ID, "ok", nil)
	return nil
}
