package memory

import (
	"context"
	"fmt"
	"os"
	"time"
)

// StorageSample is the store's size on one local day (Settings → Storage draws them).
type StorageSample struct {
	Day string `json:"day"` // YYYY-MM-DD, local time
	At  string `json:"at"`
	// Memories are the live entries (journal days included), Archived the archived ones.
	Memories int `json:"memories"`
	Archived int `json:"archived"`
	// Bytes is the size of the Markdown files; IndexBytes the index and its WAL.
	Bytes      int64 `json:"bytes"`
	IndexBytes int64 `json:"index_bytes"`
}

// MaxStorageHistoryDays bounds a history request (a bit over a year).
const MaxStorageHistoryDays = 400

// sampleEvery is how often changes refresh today's sample (measuring sums every row).
const sampleEvery = 10 * time.Minute

// sampleStorage records today's sample: the store calls it after changes (at most every
// sampleEvery) and StorageHistory before answering, so each day with a change keeps the size
// it ended with; a day without one is the day before carried forward. Not at open: every CLI
// call opens the store, and a read-only command must not pay a table scan and a write.
// Failures are logged: sampling must never fail the write that triggered it.
func (s *Store) sampleStorage(ctx context.Context) { s.sampleStorageAt(ctx, false) }

func (s *Store) sampleStorageAt(ctx context.Context, force bool) {
	if s.readOnly || s.db == nil {
		return
	}
	now := s.opts.Now()
	day := now.In(s.opts.Location).Format(time.DateOnly)
	if last, ok := s.sampledDay.Load().(sampleMark); ok && !force && last.day == day && now.Sub(last.at) < sampleEvery {
		return
	}
	smp, err := s.measureStorage(ctx)
	if err != nil {
		s.log.Warn("memory: unable to measure the store for its history", "err", err)
		return
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO storage_samples(day, at, memories, archived, bytes, index_bytes)
		VALUES(?, ?, ?, ?, ?, ?) ON CONFLICT(day) DO UPDATE SET at = excluded.at, memories = excluded.memories,
		archived = excluded.archived, bytes = excluded.bytes, index_bytes = excluded.index_bytes`, day, s.rfc(now),
		smp.Memories, smp.Archived, smp.Bytes, smp.IndexBytes); err != nil {
		s.log.Warn("memory: unable to record the store's size", "err", err)
		return
	}
	s.sampledDay.Store(sampleMark{day: day, at: now})
}

// sampleMark is when this process last recorded a sample.
type sampleMark struct {
	day string
	at  time.Time
}

// measureStorage counts the store as it is now.
func (s *Store) measureStorage(ctx context.Context) (StorageSample, error) {
	var smp StorageSample
	// Journal days are in the size, not in the counts: the chart said "208 memories" where the
	// scopes' table and doctor said 195 and 13 journal days.
	err := s.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(archived = 0 AND type <> 'daily'), 0),
		COALESCE(SUM(archived = 1 AND type <> 'daily'), 0), COALESCE(SUM(size), 0) FROM memory_meta`).Scan(&smp.Memories, &smp.Archived, &smp.Bytes)
	if err != nil {
		return smp, fmt.Errorf("memory: unable to measure the store: %w", err)
	}
	for _, p := range []string{s.indexPath(), s.indexPath() + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			smp.IndexBytes += fi.Size()
		}
	}
	return smp, nil
}

// StorageHistory returns the daily samples of the last days days, oldest first, today's
// measured afresh. days ≤ 0 means 90.
func (s *Store) StorageHistory(ctx context.Context, days int) ([]StorageSample, error) {
	if days <= 0 {
		days = 90
	}
	days = min(days, MaxStorageHistoryDays)
	s.sampleStorageAt(ctx, true)
	from := s.opts.Now().In(s.opts.Location).AddDate(0, 0, -(days - 1)).Format(time.DateOnly)
	rows, err := s.db.QueryContext(ctx, `SELECT day, at, memories, archived, bytes, index_bytes FROM storage_samples
		WHERE day >= ? ORDER BY day`, from)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read the storage history: %w", err)
	}
	defer rows.Close()
	out := []StorageSample{}
	for rows.Next() {
		var smp StorageSample
		if err := rows.Scan(&smp.Day, &smp.At, &smp.Memories, &smp.Archived, &smp.Bytes, &smp.IndexBytes); err != nil {
			return nil, fmt.Errorf("memory: unable to read the storage history: %w", err)
		}
		out = append(out, smp)
	}
	return out, rows.Err()
}
