package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Setting returns the value stored under key in the index's settings table; ok is false when
// none is. The table outlives a reindex, so settings and organizer choices live here; callers
// own the value's format.
func (s *Store) Setting(ctx context.Context, key string) (value string, ok bool, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("memory: unable to read setting %s: %w", key, err)
	}
	return value, true, nil
}

// PutSetting stores value under key, replacing what was there.
func (s *Store) PutSetting(ctx context.Context, key, value string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES(?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value); err != nil {
		return fmt.Errorf("memory: unable to save setting %s: %w", key, err)
	}
	return nil
}
