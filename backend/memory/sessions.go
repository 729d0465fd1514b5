package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Bounds of a session's stored conversation. Past SessionCompactAt messages, all but the last
// SessionKeep are folded into the session's summary, so a long conversation keeps a bounded
// number of rows.
const (
	SessionCompactAt = 80
	SessionKeep      = 20
	// MaxSessionID bounds a session id (Claude Code's are 36-character UUIDs).
	MaxSessionID = 200
	// MaxTurnContent bounds one stored message; a longer one is cut on a rune boundary.
	MaxTurnContent = 16 << 10
	// redactMargin is how far past MaxTurnContent a message is scanned for secrets.
	redactMargin = 1 << 10
	// MaxSessionSummary bounds a summary; its oldest lines go first.
	MaxSessionSummary = 16 << 10
	// MaxRecordTurns bounds the messages one record call stores: a longer request (a client
	// that sends its whole conversation each time) keeps its newest ones.
	MaxRecordTurns = 200
	// MaxSessions bounds the sessions kept: past it, the least recently active go first.
	MaxSessions = 1000
)

// Codes of session calls.
const (
	CodeInvalidSession   = "invalid_session"
	CodeSessionNotFound  = "session_not_found"
	CodeSessionAmbiguous = "session_ambiguous"
	CodeInvalidRole      = "invalid_role"
)

// Session is one conversation an agent fed extraction.
type Session struct {
	Agent      string `json:"agent"`
	ID         string `json:"id"`
	Workdir    string `json:"workdir,omitempty"`
	ProjectKey string `json:"project_key,omitempty"`
	// TurnsReceived counts every message ever recorded (compacted ones included).
	TurnsReceived int `json:"turns_received"`
	// TurnsKept is how many messages are stored verbatim now.
	TurnsKept    int       `json:"turns_kept"`
	FirstSeen    time.Time `json:"first_seen"`
	LastActivity time.Time `json:"last_activity"`
	// Summary holds the compacted messages; Summarized counts them.
	Summary    string `json:"summary,omitempty"`
	Summarized int    `json:"summarized"`
	// ProjectSummaries are the summaries of its messages recorded in other projects (filled
	// by FindSession): each project's words stay in its own summary.
	ProjectSummaries []ProjectSummary `json:"project_summaries,omitempty"`
}

// SessionTurn is one stored message; Seq numbers a session's messages from 1 and is what a
// memory's source.turn names.
type SessionTurn struct {
	Seq     int       `json:"seq"`
	Role    string    `json:"role"`
	Content string    `json:"content"`
	MsgID   string    `json:"msg_id,omitempty"`
	At      time.Time `json:"at"`
	// CutBytes counts the bytes of the message not kept (it was over MaxTurnContent): a cut
	// message is never shown or searched as if it were whole. 0: Content is the whole message.
	CutBytes int `json:"cut_bytes,omitempty"`
	// Workdir and ProjectKey are the project the message was recorded in ("" for none): one
	// session id may be used from two projects, and each project's extraction and history
	// search read only its own messages.
	Workdir    string `json:"workdir,omitempty"`
	ProjectKey string `json:"project_key,omitempty"`
}

// TurnInput is one message to record: role user or assistant, and its id in its source when
// known (a message recorded twice under the same id is stored once).
type TurnInput struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	MsgID   string `json:"msg_id,omitempty"`
}

// SessionRecord is what one extraction request adds to its session.
type SessionRecord struct {
	Agent   string      `json:"agent"`
	Session string      `json:"session"`
	Workdir string      `json:"workdir,omitempty"`
	Turns   []TurnInput `json:"turns"`
	// Defer leaves compaction to the caller (a background CompactSession with a model, which
	// may take seconds the recording caller should not wait): RecordSession then only reports
	// NeedsCompaction, and compacts in place (extractively) only past SessionDeferredCap, so the
	// bound holds even when the background worker falls behind.
	Defer bool `json:"-"`
}

// SessionDeferredCap is the most messages a session keeps verbatim while its compaction is
// deferred: past it RecordSession compacts at once with the extractive summary.
const SessionDeferredCap = 2 * SessionCompactAt

// Recorded is the outcome of RecordSession: Seqs[i] is the seq given to Turns[i], or 0 when it
// was already stored (same msg_id) or empty.
type Recorded struct {
	Session   Session `json:"session"`
	Seqs      []int   `json:"seqs"`
	Compacted bool    `json:"compacted"`
	// NeedsCompaction is set for a deferred record whose session holds more than
	// SessionCompactAt messages: the caller should run CompactSession.
	NeedsCompaction bool `json:"needs_compaction,omitempty"`
	// Evicted are the sessions removed to keep at most MaxSessions (least recently active
	// first): whoever keeps state per session disposes of theirs too.
	Evicted []SessionKey `json:"evicted,omitempty"`
}

// SessionKey names a session.
type SessionKey struct {
	Agent string `json:"agent"`
	ID    string `json:"id"`
}

// SummaryInput is what a Summariser folds: the previous summary and the messages leaving the
// verbatim window (oldest first), with the seqs that produced memories.
type SummaryInput struct {
	Session  Session
	Previous string
	Turns    []SessionTurn
	Produced map[int]bool
}

// Summariser writes a session's new summary from in. The store calls it outside any
// transaction (an LLM may take seconds); nil means ExtractiveSummary.
type Summariser func(ctx context.Context, in SummaryInput) (string, error)

// validSession checks an agent, a session id and a workdir, returning the canonical workdir.
func validSession(agent, id, workdir string) (string, error) {
	if !ValidAgent(agent) {
		return "", codeErr(CodeInvalidAgent, map[string]any{"Agent": agent}, "invalid agent name %q", agent)
	}
	if id == "" || len(id) > MaxSessionID || !utf8.ValidString(id) || strings.IndexFunc(id, unicode.IsControl) >= 0 ||
		strings.TrimSpace(id) != id {
		return "", codeErr(CodeInvalidSession, map[string]any{"Session": cut(id, 80)},
			"invalid session id %q (1–%d printable characters)", cut(id, 80), MaxSessionID)
	}
	if workdir == "" {
		return "", nil
	}
	return CanonicalWorkdir(workdir)
}

// cut shortens s to at most n bytes without splitting a rune.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

const sessionColumns = `agent, id, workdir, scope_key, turns_received, first_seen, last_activity, summary, summarized,
	(SELECT COUNT(*) FROM session_turns t WHERE t.agent = sessions.agent AND t.session = sessions.id)`

func scanSession(sc interface{ Scan(...any) error }) (Session, error) {
	var s Session
	var first, last string
	if err := sc.Scan(&s.Agent, &s.ID, &s.Workdir, &s.ProjectKey, &s.TurnsReceived, &first, &last, &s.Summary,
		&s.Summarized, &s.TurnsKept); err != nil {
		return s, err
	}
	s.FirstSeen, s.LastActivity = parseRunTime(first), parseRunTime(last)
	return s, nil
}

func scanSessionTurn(sc interface{ Scan(...any) error }) (SessionTurn, error) {
	var t SessionTurn
	var at string
	err := sc.Scan(&t.Seq, &t.Role, &t.Content, &t.MsgID, &at, &t.CutBytes, &t.Workdir, &t.ProjectKey)
	t.At = parseRunTime(at)
	return t, err
}

// RecordSession adds messages to a session, creating it on first sight, and compacts it when
// it holds more than SessionCompactAt messages (summarise nil: ExtractiveSummary). A session
// keeps the workdir it was first seen with; each message keeps the one it was recorded in.
func (s *Store) RecordSession(ctx context.Context, rec SessionRecord, summarise Summariser) (Recorded, error) {
	if s.readOnly {
		return Recorded{}, s.readOnlyErr()
	}
	wd, err := validSession(rec.Agent, rec.Session, rec.Workdir)
	if err != nil {
		return Recorded{}, err
	}
	key := ""
	if wd != "" {
		if key, err = s.projectKey(wd); err != nil {
			return Recorded{}, err
		}
	}
	for _, t := range rec.Turns {
		if t.Role != "user" && t.Role != "assistant" {
			return Recorded{}, codeErr(CodeInvalidRole, map[string]any{"Role": cut(t.Role, 40)}, "invalid role %q", cut(t.Role, 40))
		}
	}
	now := indexTime(s.Now())
	out := Recorded{Seqs: make([]int, len(rec.Turns))}
	// Only the newest MaxRecordTurns are stored (their Seqs stay 0 otherwise): the older ones of
	// a conversation sent whole were recorded by its earlier requests, or are older than a
	// session keeps verbatim. The whole request was refused before, its newest message with it.
	from := max(0, len(rec.Turns)-MaxRecordTurns)
	prepared := prepareTurns(rec.Turns[from:])
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Recorded{}, fmt.Errorf("memory: unable to record session: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO sessions(agent, id, workdir, scope_key, first_seen, last_activity)
		VALUES(?, ?, ?, ?, ?, ?) ON CONFLICT(agent, id) DO UPDATE SET last_activity = excluded.last_activity`,
		rec.Agent, rec.Session, wd, key, now, now); err != nil {
		return Recorded{}, fmt.Errorf("memory: unable to record session: %w", err)
	}
	var next int
	if err := tx.QueryRowContext(ctx, `SELECT next_seq FROM sessions WHERE agent = ? AND id = ?`, rec.Agent, rec.Session).
		Scan(&next); err != nil {
		return Recorded{}, fmt.Errorf("memory: unable to record session: %w", err)
	}
	resent, err := resentPrefix(ctx, tx, rec.Agent, rec.Session, key, prepared)
	if err != nil {
		return Recorded{}, fmt.Errorf("memory: unable to record session: %w", err)
	}
	added := 0
	for j, p := range prepared {
		i, t, content, cutBytes := from+j, rec.Turns[from+j], p.content, p.cutBytes
		if content == "" || j < resent {
			continue
		}
		msgID := cut(t.MsgID, MaxSessionID)
		if msgID != "" {
			var dup int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM session_turns WHERE agent = ? AND session = ? AND msg_id = ?`,
				rec.Agent, rec.Session, msgID).Scan(&dup); err != nil {
				return Recorded{}, fmt.Errorf("memory: unable to record session: %w", err)
			}
			if dup > 0 {
				continue
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO session_turns(agent, session, seq, role, content, msg_id, at, cut_bytes,
			workdir, scope_key) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, rec.Agent, rec.Session, next, t.Role, content, msgID, now,
			cutBytes, wd, key); err != nil {
			return Recorded{}, fmt.Errorf("memory: unable to record session: %w", err)
		}
		out.Seqs[i] = next
		next++
		added++
	}
	if _, err := tx.ExecContext(ctx, `UPDATE sessions SET next_seq = ?, turns_received = turns_received + ?
		WHERE agent = ? AND id = ?`, next, added, rec.Agent, rec.Session); err != nil {
		return Recorded{}, fmt.Errorf("memory: unable to record session: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Recorded{}, fmt.Errorf("memory: unable to record session: %w", err)
	}
	if !rec.Defer {
		if out.Compacted, err = s.compactSession(ctx, rec.Agent, rec.Session, summarise, SessionCompactAt); err != nil {
			return Recorded{}, err
		}
	} else if out.Compacted, err = s.compactSession(ctx, rec.Agent, rec.Session, nil, SessionDeferredCap); err != nil {
		return Recorded{}, err
	}
	if out.Evicted, err = s.evictSessions(ctx, MaxSessions); err != nil {
		return Recorded{}, err
	}
	sess, err := s.getSession(ctx, rec.Agent, rec.Session)
	if err != nil {
		return Recorded{}, err
	}
	out.Session = sess
	out.NeedsCompaction = rec.Defer && sess.TurnsKept > SessionCompactAt
	return out, nil
}

func (s *Store) getSession(ctx context.Context, agent, id string) (Session, error) {
	sess, err := scanSession(s.db.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE agent = ? AND id = ?`, agent, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, codeErr(CodeSessionNotFound, map[string]any{"Session": cut(id, 80)}, "no session %q", cut(id, 80))
	}
	if err != nil {
		return Session{}, fmt.Errorf("memory: unable to read session: %w", err)
	}
	return sess, nil
}

// SessionFilter narrows ListSessions; empty fields match everything.
type SessionFilter struct {
	Agent   string
	Workdir string
	Limit   int
}

// ListSessions lists sessions, most recently active first (at most 500).
func (s *Store) ListSessions(ctx context.Context, f SessionFilter) ([]Session, error) {
	q := `SELECT ` + sessionColumns + ` FROM sessions WHERE 1 = 1`
	var args []any
	// A name no agent can have ("Claude-Code") is said so: "No sessions yet" sent the person
	// looking for conversations that were there all along.
	if f.Agent != "" && !ValidAgent(f.Agent) {
		return nil, codeErr(CodeInvalidAgent, map[string]any{"Agent": cut(f.Agent, 80)}, "invalid agent name %q", cut(f.Agent, 80))
	}
	if f.Agent != "" {
		q += ` AND agent = ?`
		args = append(args, f.Agent)
	}
	if f.Workdir != "" {
		key, err := s.projectKey(f.Workdir)
		if err != nil {
			return nil, err
		}
		// A session first seen elsewhere is listed too when a message of it was recorded here.
		q += ` AND (scope_key = ? OR EXISTS (SELECT 1 FROM session_turns t WHERE t.agent = sessions.agent
			AND t.session = sessions.id AND t.scope_key = ?))`
		args = append(args, key, key)
	}
	if f.Limit <= 0 || f.Limit > 500 {
		f.Limit = 500
	}
	q += ` ORDER BY last_activity DESC, agent, id LIMIT ?`
	args = append(args, f.Limit)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to list sessions: %w", err)
	}
	defer rows.Close()
	out := []Session{}
	for rows.Next() {
		sess, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to list sessions: %w", err)
		}
		out = append(out, sess)
	}
	return out, rows.Err()
}

// FindSession resolves a session id, with its agent when given. An id two agents share
// needs the agent (session_ambiguous).
func (s *Store) FindSession(ctx context.Context, agent, id string) (Session, error) {
	sess, err := s.findSession(ctx, agent, id)
	if err != nil {
		return sess, err
	}
	sess.ProjectSummaries, err = s.projectSummaries(ctx, sess.Agent, sess.ID)
	return sess, err
}

func (s *Store) findSession(ctx context.Context, agent, id string) (Session, error) {
	if agent != "" {
		return s.getSession(ctx, agent, id)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = ? ORDER BY agent LIMIT 2`, id)
	if err != nil {
		return Session{}, fmt.Errorf("memory: unable to read session: %w", err)
	}
	defer rows.Close()
	var found []Session
	for rows.Next() {
		sess, err := scanSession(rows)
		if err != nil {
			return Session{}, fmt.Errorf("memory: unable to read session: %w", err)
		}
		found = append(found, sess)
	}
	if err := rows.Err(); err != nil {
		return Session{}, fmt.Errorf("memory: unable to read session: %w", err)
	}
	switch len(found) {
	case 0:
		return Session{}, codeErr(CodeSessionNotFound, map[string]any{"Session": cut(id, 80)}, "no session %q", cut(id, 80))
	case 1:
		return found[0], nil
	}
	return Session{}, codeErr(CodeSessionAmbiguous, map[string]any{"Session": cut(id, 80)},
		"session %q exists for several agents; name the agent", cut(id, 80))
}

// SessionTurns returns a session's stored messages, oldest first, whatever project each was
// recorded in (a person reading the session, its compaction).
func (s *Store) SessionTurns(ctx context.Context, agent, id string) ([]SessionTurn, error) {
	return s.sessionTurns(ctx, `SELECT `+turnColumns+` FROM session_turns WHERE agent = ? AND session = ? ORDER BY seq`, agent, id)
}

// SessionTurnsIn returns the messages of a session recorded in one project (projectKey "" for
// those recorded with no project), oldest first: what an extraction in that project may read.
// A session id used from two projects never lends one project's messages to the other.
func (s *Store) SessionTurnsIn(ctx context.Context, agent, id, projectKey string) ([]SessionTurn, error) {
	return s.sessionTurns(ctx, `SELECT `+turnColumns+` FROM session_turns WHERE agent = ? AND session = ? AND scope_key = ?
		ORDER BY seq`, agent, id, projectKey)
}

const turnColumns = `seq, role, content, msg_id, at, cut_bytes, workdir, scope_key`

func (s *Store) sessionTurns(ctx context.Context, q string, args ...any) ([]SessionTurn, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read session turns: %w", err)
	}
	defer rows.Close()
	out := []SessionTurn{}
	for rows.Next() {
		t, err := scanSessionTurn(rows)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to read session turns: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// DeleteSession removes a session, its messages and its summary. It reports whether there
// was one.
func (s *Store) DeleteSession(ctx context.Context, agent, id string) (bool, error) {
	if s.readOnly {
		return false, s.readOnlyErr()
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("memory: unable to delete session: %w", err)
	}
	defer tx.Rollback()
	for _, q := range []string{`DELETE FROM session_turns WHERE agent = ? AND session = ?`,
		`DELETE FROM session_summaries WHERE agent = ? AND session = ?`} {
		if _, err := tx.ExecContext(ctx, q, agent, id); err != nil {
			return false, fmt.Errorf("memory: unable to delete session: %w", err)
		}
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE agent = ? AND id = ?`, agent, id)
	if err != nil {
		return false, fmt.Errorf("memory: unable to delete session: %w", err)
	}
	n, _ := res.RowsAffected()
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("memory: unable to delete session: %w", err)
	}
	return n > 0, nil
}

// evictSessions deletes the least recently active sessions beyond max and returns them.
func (s *Store) evictSessions(ctx context.Context, max int) ([]SessionKey, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT agent, id FROM sessions ORDER BY last_activity DESC, agent, id LIMIT -1 OFFSET ?`, max)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to bound sessions: %w", err)
	}
	var old []SessionKey
	for rows.Next() {
		var k SessionKey
		if err := rows.Scan(&k.Agent, &k.ID); err != nil {
			rows.Close()
			return nil, fmt.Errorf("memory: unable to bound sessions: %w", err)
		}
		old = append(old, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("memory: unable to bound sessions: %w", err)
	}
	var out []SessionKey
	for _, k := range old {
		ok, err := s.DeleteSession(ctx, k.Agent, k.ID)
		if err != nil {
			return out, err
		}
		if ok {
			out = append(out, k)
		}
	}
	return out, nil
}
