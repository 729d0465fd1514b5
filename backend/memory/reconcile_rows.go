package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The index's side of a reconcile of named paths: what the index holds for one path, and
// removing a path's rows.

func (s *Store) indexedFile(ctx context.Context, rel string) (indexedFile, bool, error) {
	f := indexedFile{rel: rel}
	err := s.db.QueryRowContext(ctx, `SELECT mtime, size, ctime, ino, version FROM memory_meta WHERE path = ?`, rel).Scan(
		&f.st.mtime, &f.st.size, &f.st.ctime, &f.st.ino, &f.version)
	if err == nil {
		return f, true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return f, false, fmt.Errorf("memory: unable to read index: %w", err)
	}
	err = s.db.QueryRowContext(ctx, `SELECT mtime, size, ctime, ino FROM memory_problems WHERE path = ?`, rel).Scan(
		&f.st.mtime, &f.st.size, &f.st.ctime, &f.st.ino)
	if err == nil {
		f.problem = true
		return f, true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return f, false, fmt.Errorf("memory: unable to read problems: %w", err)
	}
	return f, false, nil
}

func removePath(ctx context.Context, tx execer, rel string) (string, error) {
	var id string
	_ = tx.QueryRowContext(ctx, `SELECT id FROM memory_meta WHERE path = ?`, rel).Scan(&id)
	if err := deleteRowByPath(ctx, tx, rel); err != nil {
		return "", err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM memory_problems WHERE path = ?`, rel); err != nil {
		return "", fmt.Errorf("memory: unable to clear problem: %w", err)
	}
	return id, nil
}
