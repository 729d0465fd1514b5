package memory

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Access is how often and when a memory was last recalled.
type Access struct {
	Count int
	Last  time.Time
}

// AccessStats returns the recall counters of ids; ids never recalled are absent. The counters
// live in memory_access, keyed by id, and survive a reindex.
func (s *Store) AccessStats(ctx context.Context, ids []string) (map[string]Access, error) {
	out := make(map[string]Access, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	ph := strings.Repeat("?,", len(ids))
	a := make([]any, len(ids))
	for i, id := range ids {
		a[i] = id
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, access_count, last_access FROM memory_access WHERE id IN (`+ph[:len(ph)-1]+`)`, a...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read access counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, last string
		var ac Access
		if err := rows.Scan(&id, &ac.Count, &last); err != nil {
			return nil, fmt.Errorf("memory: unable to read access counts: %w", err)
		}
		ac.Last, _ = time.Parse(time.RFC3339Nano, last)
		out[id] = ac
	}
	return out, rows.Err()
}

// TouchAccess counts one recall of each id at time at.
func (s *Store) TouchAccess(ctx context.Context, ids []string, at time.Time) error {
	if len(ids) == 0 || s.readOnly { // a read-only home is read, not counted
		return nil
	}
	vals := strings.Repeat("(?,1,?),", len(ids))
	a := make([]any, 0, 2*len(ids))
	ts := indexTime(at)
	for _, id := range ids {
		a = append(a, id, ts)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO memory_access(id, access_count, last_access) VALUES `+vals[:len(vals)-1]+`
		ON CONFLICT(id) DO UPDATE SET access_count = access_count + 1, last_access = excluded.last_access`, a...); err != nil {
		return fmt.Errorf("memory: unable to count access: %w", err)
	}
	return nil
}
