package memory

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
)

// VectorTodo is a memory whose vector is missing or stale for a model.
type VectorTodo struct {
	RID      int64
	ID       string
	Version  string
	Scope    Scope
	ScopeKey string
	Type     Type
	Title    string
	Body     string
	Tags     []string
}

// StaleVectors lists up to limit live memories that have no vector of model or whose vector
// was computed from another version of their text.
func (s *Store) StaleVectors(ctx context.Context, model string, limit int) ([]VectorTodo, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT m.rid, m.id, m.version, m.scope, m.scope_key, m.type, m.title, m.body, m.tags FROM memory_meta m
		LEFT JOIN memory_vec v ON v.rid = m.rid
		WHERE m.archived = 0 AND (v.rid IS NULL OR v.model <> ? OR v.content_version <> m.version)
		ORDER BY m.rid LIMIT ?`, model, limit)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to list stale vectors: %w", err)
	}
	defer rows.Close()
	var out []VectorTodo
	for rows.Next() {
		var t VectorTodo
		var tags, scope, typ string
		if err := rows.Scan(&t.RID, &t.ID, &t.Version, &scope, &t.ScopeKey, &typ, &t.Title, &t.Body, &tags); err != nil {
			return nil, fmt.Errorf("memory: unable to list stale vectors: %w", err)
		}
		t.Tags = splitJSONList(tags)
		t.Scope, t.Type = Scope(scope), Type(typ)
		out = append(out, t)
	}
	return out, rows.Err()
}

// VectorCounts returns how many live memories have a current vector of model, and how many
// live memories there are.
func (s *Store) VectorCounts(ctx context.Context, model string) (done, total int, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN v.rid IS NOT NULL AND v.model = ?
		AND v.content_version = m.version THEN 1 ELSE 0 END), 0) FROM memory_meta m LEFT JOIN memory_vec v ON v.rid = m.rid
		WHERE m.archived = 0`, model).Scan(&total, &done)
	if err != nil {
		return 0, 0, fmt.Errorf("memory: unable to count vectors: %w", err)
	}
	return done, total, nil
}

// VectorRow is one computed vector, tied to the version of the text it was computed from.
type VectorRow struct {
	RID     int64
	Version string
	Vec     []byte
	Dim     int
}

// PutVectors stores vectors of model. A row whose memory changed or vanished since its text
// was read is skipped (its next version will be embedded); the count stored is returned.
func (s *Store) PutVectors(ctx context.Context, model string, rows []VectorRow) (int, error) {
	if len(rows) == 0 {
		return 0, nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("memory: unable to begin vector write: %w", err)
	}
	defer tx.Rollback()
	n := 0
	for _, r := range rows {
		res, err := tx.ExecContext(ctx, `INSERT INTO memory_vec(rid, model, dim, vec, content_version)
			SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM memory_meta WHERE rid = ? AND version = ?)
			ON CONFLICT(rid) DO UPDATE SET model = excluded.model, dim = excluded.dim, vec = excluded.vec,
			content_version = excluded.content_version`, r.RID, model, r.Dim, r.Vec, r.Version, r.RID, r.Version)
		if err != nil {
			return 0, fmt.Errorf("memory: unable to store vector: %w", err)
		}
		if k, _ := res.RowsAffected(); k > 0 {
			n++
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("memory: unable to commit vectors: %w", err)
	}
	return n, nil
}

// VectorEntry is one stored vector with what a pre-filter needs to know of its memory.
type VectorEntry struct {
	RID      int64
	ID       string
	Scope    Scope
	ScopeKey string
	Type     Type
	Archived bool
	Reviewed bool
	Vec      []byte
}

// ScanVectors calls fn for each stored vector of model (all of them when rids is nil, else
// those of rids).
func (s *Store) ScanVectors(ctx context.Context, model string, rids []int64, fn func(VectorEntry)) error {
	return scanVectors(ctx, s.db, model, rids, fn)
}

func scanVectors(ctx context.Context, db interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, model string, rids []int64, fn func(VectorEntry)) error {
	q := `SELECT v.rid, m.id, m.scope, m.scope_key, m.type, m.archived, m.reviewed, v.vec FROM memory_vec v
		JOIN memory_meta m ON m.rid = v.rid WHERE v.model = ? AND v.content_version = m.version`
	args := []any{model}
	if rids != nil {
		if len(rids) == 0 {
			return nil
		}
		ph := strings.Repeat("?,", len(rids))
		q += ` AND v.rid IN (` + ph[:len(ph)-1] + `)`
		for _, r := range rids {
			args = append(args, r)
		}
	}
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("memory: unable to read vectors: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e VectorEntry
		var scope, typ string
		if err := rows.Scan(&e.RID, &e.ID, &scope, &e.ScopeKey, &typ, &e.Archived, &e.Reviewed, &e.Vec); err != nil {
			return fmt.Errorf("memory: unable to read vector: %w", err)
		}
		e.Scope, e.Type = Scope(scope), Type(typ)
		fn(e)
	}
	return rows.Err()
}

// VectorLogHead returns the newest and oldest sequence numbers of the vector change log.
func (s *Store) VectorLogHead(ctx context.Context) (newest, oldest int64, err error) {
	// Two subqueries: SQLite answers a lone MAX or MIN from the primary key, not both at once.
	err = s.db.QueryRowContext(ctx, `SELECT COALESCE((SELECT MAX(seq) FROM recall_vec_log), 0),
		COALESCE((SELECT MIN(seq) FROM recall_vec_log), 0)`).Scan(&newest, &oldest)
	if err != nil {
		return 0, 0, fmt.Errorf("memory: unable to read vector log: %w", err)
	}
	return newest, oldest, nil
}

// VectorChangesSince lists the row ids whose vector changed after seq, and the newest seq.
func (s *Store) VectorChangesSince(ctx context.Context, seq int64, limit int) ([]int64, int64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, rid FROM recall_vec_log WHERE seq > ? ORDER BY seq LIMIT ?`, seq, limit)
	if err != nil {
		return nil, seq, fmt.Errorf("memory: unable to read vector log: %w", err)
	}
	defer rows.Close()
	var rids []int64
	seen := map[int64]bool{}
	for rows.Next() {
		var rid int64
		if err := rows.Scan(&seq, &rid); err != nil {
			return nil, seq, fmt.Errorf("memory: unable to read vector log: %w", err)
		}
		if !seen[rid] {
			seen[rid] = true
			rids = append(rids, rid)
		}
	}
	return rids, seq, rows.Err()
}

// PruneVectorLog drops change-log rows older than keep newest ones.
func (s *Store) PruneVectorLog(ctx context.Context, keep int64) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM recall_vec_log WHERE seq <= (SELECT COALESCE(MAX(seq), 0) FROM recall_vec_log) - ?`, keep); err != nil {
		return fmt.Errorf("memory: unable to prune vector log: %w", err)
	}
	return nil
}

func splitJSONList(s string) []string {
	var out []string
	s = strings.TrimSpace(s)
	if s == "" || s == "[]" {
		return nil
	}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil
	}
	return out
}
