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

// recordProblem records why the file d is not indexed: its code, and the fault in English
// (detail) with the catalog key and arguments that say it in the person's language, kept as
// they were made (Problems hands them out as they are).
func (s *Store) recordProblem(ctx context.Context, tx execer, d diskFile, code string, why fault, rep *ReconcileReport) error {
	rep.Problems++
	rep.ProblemsChanged = true
	// A memory whose file just broke leaves the index: lists showing it must hear of it.
	var gone string
	if tx.QueryRowContext(ctx, `SELECT id FROM memory_meta WHERE path = ?`, d.rel).Scan(&gone) == nil {
		rep.ChangedID = append(rep.ChangedID, gone)
	}
	if err := deleteRowByPath(ctx, tx, d.rel); err != nil {
		return err
	}
	s.log.Warn("memory: file not indexed", "path", d.rel, "code", code, "detail", why.text)
	_, err := tx.ExecContext(ctx, `INSERT INTO memory_problems(path, mtime, size, code, detail, seen_at, ctime, ino, detail_key, detail_args)
		VALUES(?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(path) DO UPDATE SET mtime=excluded.mtime, size=excluded.size, code=excluded.code,
		detail=excluded.detail, seen_at=excluded.seen_at, ctime=excluded.ctime, ino=excluded.ino,
		detail_key=excluded.detail_key, detail_args=excluded.detail_args`,
		d.rel, d.st.mtime, d.st.size, code, why.text, s.rfc(s.opts.Now()), d.st.ctime, d.st.ino, why.key, encodeArgs(why.args))
	if err != nil {
		return fmt.Errorf("memory: unable to record problem for %s: %w", d.rel, err)
	}
	return nil
}
