package memory

import (
	"context"
	"fmt"
)

// RestoredByPerson returns the ids of memories a person (the app, the CLI, the web UI)
// restored after the organizer removed them — deleted, or merged away into another. The
// organizer reads it at each run: a person's undo stands, so a later run never removes or
// merges such a memory on its own again (a scheduled run merged a restored duplicate away
// again at once, and at every run after). One pass over the audit log's restore rows.
func (s *Store) RestoredByPerson(ctx context.Context) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT r.memory_id FROM memory_audit_log r
		WHERE r.op = ? AND r.result = 'ok' AND r.actor IN (?, ?) AND r.memory_id != ''
		AND EXISTS (SELECT 1 FROM memory_audit_log d WHERE d.memory_id = r.memory_id AND d.seq < r.seq
			AND d.op = ? AND d.actor = ? AND d.result = 'ok')`,
		string(OpRestore), ActorUser, ActorBridge, string(OpDelete), ActorOrganizer)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read the restored memories: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("memory: unable to read the restored memories: %w", err)
		}
		out[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("memory: unable to read the restored memories: %w", err)
	}
	return out, nil
}
