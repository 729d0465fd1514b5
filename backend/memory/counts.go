package memory

import (
	"context"
	"fmt"
)

// Counts is what the index holds, counted as engram list and quota count it: live memories
// (journal days are no memories, and quota leaves them out), the journal's live days, and the
// archive's memories and days. Doctor says them, and a backup's manifest: what the store has
// read, not what lies in the folder (a file the store has not read yet is no memory).
type Counts struct {
	Memories     int `json:"memories"`
	JournalDays  int `json:"journal_days"`
	Archived     int `json:"archived"`
	ArchivedDays int `json:"archived_days"`
}

// Total is every file the index holds as a memory or a journal day, live or archived.
func (c Counts) Total() int { return c.Memories + c.JournalDays + c.Archived + c.ArchivedDays }

// Counts counts the index. A caller holding the store (a backup copying the index beside the
// files) gets the figures of the index it copies.
func (s *Store) Counts(ctx context.Context) (Counts, error) {
	var c Counts
	err := s.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(archived = 0 AND type <> 'daily'), 0),
		COALESCE(SUM(archived = 0 AND type = 'daily'), 0), COALESCE(SUM(archived = 1 AND type <> 'daily'), 0),
		COALESCE(SUM(archived = 1 AND type = 'daily'), 0)
		FROM memory_meta`).Scan(&c.Memories, &c.JournalDays, &c.Archived, &c.ArchivedDays)
	if err != nil {
		return Counts{}, fmt.Errorf("memory: unable to count memories: %w", err)
	}
	return c, nil
}
