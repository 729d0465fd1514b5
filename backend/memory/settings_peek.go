package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
)

// SettingsPeek reads settings rows from a home's index without opening the store: no lock, no
// reconcile, no migration, nothing created. The CLI's help and its answer to an unknown verb
// are in the home's language, and opening a large home to learn it would make `engram help`
// as slow as a cold open (and fail on a home another build migrated).
type SettingsPeek struct{ db *sql.DB }

// PeekSettings opens home's index read-only; an error when the home has no index (a fresh
// home: the caller keeps its fallback) or it cannot be read.
func PeekSettings(home string) (*SettingsPeek, error) {
	path := filepath.Join(home, "memory", indexName)
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("memory: no index to read settings from: %w", err)
	}
	// mode=ro, not immutable: a running process's committed rows may still be in the -wal.
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", "busy_timeout(1000)")
	q.Add("_pragma", "query_only(1)")
	db, err := sql.Open("sqlite", sqliteURI(path)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read settings: %w", err)
	}
	db.SetMaxOpenConns(1)
	return &SettingsPeek{db: db}, nil
}

// Setting returns the value stored under key; ok is false when none is.
func (p *SettingsPeek) Setting(ctx context.Context, key string) (value string, ok bool, err error) {
	err = p.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("memory: unable to read setting %s: %w", key, err)
	}
	return value, true, nil
}

// PutSetting refuses: a peek only reads.
func (p *SettingsPeek) PutSetting(context.Context, string, string) error {
	return errors.New("memory: settings read without opening the home cannot be changed")
}

// Close releases the index.
func (p *SettingsPeek) Close() error { return p.db.Close() }
