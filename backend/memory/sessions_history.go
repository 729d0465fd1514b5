package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// HistoryQuery searches the stored messages and summaries of one agent's sessions in one
// project (ProjectKey "" for the sessions that had none). The caller decides which agent and
// project its caller may see; the store matches exactly those, never more.
type HistoryQuery struct {
	Agent      string
	ProjectKey string
	// Terms must all occur in a message (case-insensitively for ASCII letters).
	Terms []string
	Limit int
}

// HistoryHit is one matching message (Seq > 0) or summary (Seq 0, Role "summary").
type HistoryHit struct {
	Agent      string    `json:"agent"`
	Session    string    `json:"session"`
	Workdir    string    `json:"workdir,omitempty"`
	ProjectKey string    `json:"project_key,omitempty"`
	Seq        int       `json:"seq"`
	Role       string    `json:"role"`
	Content    string    `json:"content"`
	At         time.Time `json:"at"`
	// CutBytes counts the bytes of the message not stored (see SessionTurn.CutBytes).
	CutBytes int `json:"cut_bytes,omitempty"`
}

// maxHistoryTerms bounds the terms of one history query.
const maxHistoryTerms = 8

// SearchHistory returns the newest matching messages first, then matching summaries, at most
// Limit (1–50, default 10) in all. An agent must be named: sessions always have one.
func (s *Store) SearchHistory(ctx context.Context, q HistoryQuery) ([]HistoryHit, error) {
	out := []HistoryHit{}
	if q.Agent == "" || len(q.Terms) == 0 {
		return out, nil
	}
	if len(q.Terms) > maxHistoryTerms {
		q.Terms = q.Terms[:maxHistoryTerms]
	}
	if q.Limit <= 0 || q.Limit > 50 {
		q.Limit = 10
	}
	var likes []string
	args := []any{q.Agent, q.ProjectKey}
	for _, t := range q.Terms {
		likes = append(likes, `%s LIKE ? ESCAPE '\'`)
		args = append(args, "%"+escapeLike(t)+"%")
	}
	cond := func(col string) string {
		parts := make([]string, len(likes))
		for i, l := range likes {
			parts[i] = fmt.Sprintf(l, col)
		}
		return strings.Join(parts, " AND ")
	}
	// Each message is the project's it was recorded in, not its session's first one: a session
	// id used from two projects keeps each project's messages to that project's searches.
	rows, err := s.db.QueryContext(ctx, `SELECT t.agent, t.session, t.workdir, t.scope_key, t.seq, t.role, t.content, t.at, t.cut_bytes
		FROM session_turns t WHERE t.agent = ? AND t.scope_key = ? AND `+cond("t.content")+` ORDER BY t.at DESC, t.seq DESC LIMIT ?`,
		append(args, q.Limit)...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to search history: %w", err)
	}
	if out, err = scanHits(rows, out); err != nil {
		return nil, err
	}
	if len(out) >= q.Limit {
		return out, nil
	}
	rows, err = s.db.QueryContext(ctx, `SELECT agent, id, workdir, scope_key, 0, 'summary', summary, last_activity, 0
		FROM sessions WHERE agent = ? AND scope_key = ? AND `+cond("summary")+` ORDER BY last_activity DESC LIMIT ?`,
		append(args, q.Limit-len(out))...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to search history: %w", err)
	}
	if out, err = scanHits(rows, out); err != nil || len(out) >= q.Limit {
		return out, err
	}
	// The summaries of sessions first seen elsewhere whose messages here were folded: this
	// project's words, found in this project.
	rows, err = s.db.QueryContext(ctx, `SELECT agent, session, workdir, scope_key, 0, 'summary', summary, updated, 0
		FROM session_summaries WHERE agent = ? AND scope_key = ? AND `+cond("summary")+` ORDER BY updated DESC LIMIT ?`,
		append(args, q.Limit-len(out))...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to search history: %w", err)
	}
	return scanHits(rows, out)
}

func scanHits(rows interface {
	Next() bool
	Scan(...any) error
	Err() error
	Close() error
}, out []HistoryHit) ([]HistoryHit, error) {
	defer rows.Close()
	for rows.Next() {
		var h HistoryHit
		var at string
		if err := rows.Scan(&h.Agent, &h.Session, &h.Workdir, &h.ProjectKey, &h.Seq, &h.Role, &h.Content, &at, &h.CutBytes); err != nil {
			return nil, fmt.Errorf("memory: unable to search history: %w", err)
		}
		h.At = parseRunTime(at)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("memory: unable to search history: %w", err)
	}
	return out, nil
}

// Bounds of the transcript dedupe state: entries older than TranscriptSeenDays are forgotten,
// and a session keeps at most TranscriptSeenPerSession of them (a transcript is re-read whole
// each turn, so what is forgotten is only what fell out of every later read's window).
const (
	TranscriptSeenDays       = 90
	TranscriptSeenPerSession = 20000
)

// ClaimTranscriptEntries records entries of a transcript as forwarded and returns the ones
// that were not already, in the order given: two hooks racing on one transcript claim each
// entry once. An entry another session of source claimed is recorded for this session and not
// returned: `claude --resume` and --fork-session start a session whose transcript holds the
// old one's entries, uuids and all, and each earlier turn went to extraction again. Release
// gives claims back when forwarding failed.
func (s *Store) ClaimTranscriptEntries(ctx context.Context, source, session string, uuids []string) ([]string, error) {
	if s.readOnly {
		return nil, s.readOnlyErr()
	}
	if source == "" || session == "" || len(session) > MaxSessionID {
		return nil, codeErr(CodeInvalidSession, map[string]any{"Session": cut(session, 80)}, "invalid session id %q", cut(session, 80))
	}
	now := s.Now()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to record transcript entries: %w", err)
	}
	defer tx.Rollback()
	claimed := []string{}
	for _, u := range uuids {
		res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO transcript_seen(source, session, uuid, seen_at) VALUES(?, ?, ?, ?)`,
			source, session, u, indexTime(now))
		if err != nil {
			return nil, fmt.Errorf("memory: unable to record transcript entries: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue
		}
		var elsewhere int
		err = tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM transcript_seen WHERE source = ? AND uuid = ? AND session <> ? LIMIT 1)`,
			source, u, session).Scan(&elsewhere)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to record transcript entries: %w", err)
		}
		if elsewhere == 0 {
			claimed = append(claimed, u)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM transcript_seen WHERE seen_at < ?`,
		indexTime(now.AddDate(0, 0, -TranscriptSeenDays))); err != nil {
		return nil, fmt.Errorf("memory: unable to record transcript entries: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM transcript_seen WHERE source = ? AND session = ? AND rowid NOT IN
		(SELECT rowid FROM transcript_seen WHERE source = ? AND session = ? ORDER BY rowid DESC LIMIT ?)`,
		source, session, source, session, TranscriptSeenPerSession); err != nil {
		return nil, fmt.Errorf("memory: unable to record transcript entries: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("memory: unable to record transcript entries: %w", err)
	}
	return claimed, nil
}

// ReleaseTranscriptEntries forgets claims, so the next read forwards those entries again.
func (s *Store) ReleaseTranscriptEntries(ctx context.Context, source, session string, uuids []string) error {
	if s.readOnly {
		return s.readOnlyErr()
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("memory: unable to release transcript entries: %w", err)
	}
	defer tx.Rollback()
	for _, u := range uuids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM transcript_seen WHERE source = ? AND session = ? AND uuid = ?`,
			source, session, u); err != nil {
			return fmt.Errorf("memory: unable to release transcript entries: %w", err)
		}
	}
	return tx.Commit()
}

// TranscriptOffset is where the next read of a transcript begins (0 when never read).
func (s *Store) TranscriptOffset(ctx context.Context, source, session, path string) (int64, error) {
	var off int64
	err := s.db.QueryRowContext(ctx, `SELECT offset FROM transcript_offsets WHERE source = ? AND session = ? AND path = ?`,
		source, session, path).Scan(&off)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("memory: unable to read a transcript offset: %w", err)
	}
	return off, nil
}

// SetTranscriptOffset records where the next read of a transcript begins, and forgets the
// offsets of transcripts not read for TranscriptSeenDays.
func (s *Store) SetTranscriptOffset(ctx context.Context, source, session, path string, off int64) error {
	if s.readOnly {
		return s.readOnlyErr()
	}
	now := s.Now()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("memory: unable to record a transcript offset: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO transcript_offsets(source, session, path, offset, updated_at) VALUES(?, ?, ?, ?, ?)
		ON CONFLICT(source, session, path) DO UPDATE SET offset = excluded.offset, updated_at = excluded.updated_at`,
		source, session, path, off, indexTime(now)); err != nil {
		return fmt.Errorf("memory: unable to record a transcript offset: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM transcript_offsets WHERE updated_at < ?`,
		indexTime(now.AddDate(0, 0, -TranscriptSeenDays))); err != nil {
		return fmt.Errorf("memory: unable to record a transcript offset: %w", err)
	}
	return tx.Commit()
}
