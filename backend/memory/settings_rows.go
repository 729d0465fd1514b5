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

// SettingsWithPrefix returns every settings row whose key starts with prefix, by key. Rows
// written by other processes on the same home are included: the table is shared.
func (s *Store) SettingsWithPrefix(ctx context.Context, prefix string) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT key, value FROM settings WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key`,
		prefix)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to list settings %s*: %w", prefix, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("memory: unable to read settings %s*: %w", prefix, err)
		}
		out[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("memory: unable to list settings %s*: %w", prefix, err)
	}
	return out, nil
}
