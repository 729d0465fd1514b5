package api

import (
	"engram/backend/extraction"
	"engram/backend/memory"
)

// SessionsService lists, shows and deletes the conversations agents fed extraction.
type SessionsService struct{ a *API }

// CodeSessionsPersonOnly refuses the sessions methods to a model (the "tool" actor): they
// show every agent's conversations in every project, which no model's visibility covers (a
// model finds its own past messages through MemoryManager's include_history instead).
const CodeSessionsPersonOnly = "sessions_person_only"

func (s *SessionsService) refuseModel() error {
	if s.a.actor == ActorTool {
		return s.a.newError(CodeSessionsPersonOnly, nil)
	}
	return nil
}

// SessionListParams narrow the listing; empty fields list every session.
type SessionListParams struct {
	Agent   string `json:"agent,omitempty"`
	Workdir string `json:"workdir,omitempty"`
	Limit   int    `json:"limit,omitempty"`
}

// SessionList is the sessions, most recently active first.
type SessionList struct {
	Sessions []memory.Session `json:"sessions"`
}

// SessionRef names a session; Agent is needed only when two agents used one id.
type SessionRef struct {
	ID    string `json:"id"`
	Agent string `json:"agent,omitempty"`
}

// SessionDetail is one session with its stored messages (oldest first) and summary.
type SessionDetail struct {
	Session memory.Session       `json:"session"`
	Turns   []memory.SessionTurn `json:"turns"`
}

// SessionDeleted is the session a delete removed.
type SessionDeleted struct {
	ID    string `json:"id"`
	Agent string `json:"agent"`
}

// List returns the sessions seen.
func (s *SessionsService) List(p SessionListParams) (SessionList, error) {
	if err := s.a.Wait(); err != nil {
		return SessionList{}, err
	}
	if err := s.refuseModel(); err != nil {
		return SessionList{}, err
	}
	list, err := s.a.deps.Store.ListSessions(s.a.ctx, memory.SessionFilter{Agent: p.Agent, Workdir: p.Workdir, Limit: p.Limit})
	if err != nil {
		return SessionList{}, s.a.fail(err)
	}
	return SessionList{Sessions: list}, nil
}

// Read returns one session, its recent messages and its summary.
func (s *SessionsService) Read(p SessionRef) (SessionDetail, error) {
	if err := s.a.Wait(); err != nil {
		return SessionDetail{}, err
	}
	if err := s.refuseModel(); err != nil {
		return SessionDetail{}, err
	}
	sess, err := s.a.deps.Store.FindSession(s.a.ctx, p.Agent, p.ID)
	if err != nil {
		return SessionDetail{}, s.a.fail(err)
	}
	turns, err := s.a.deps.Store.SessionTurns(s.a.ctx, sess.Agent, sess.ID)
	if err != nil {
		return SessionDetail{}, s.a.fail(err)
	}
	return SessionDetail{Session: sess, Turns: turns}, nil
}

// Delete removes a session, its messages and its summary, then tells whoever keeps state
// per session (the extraction controller, through Deps.OnSessionDeleted) to drop it.
func (s *SessionsService) Delete(p SessionRef) (SessionDeleted, error) {
	if err := s.a.Wait(); err != nil {
		return SessionDeleted{}, err
	}
	if err := s.refuseModel(); err != nil {
		return SessionDeleted{}, err
	}
	sess, err := s.a.deps.Store.FindSession(s.a.ctx, p.Agent, p.ID)
	if err != nil {
		return SessionDeleted{}, s.a.fail(err)
	}
	if _, err := s.a.deps.Store.DeleteSession(s.a.ctx, sess.Agent, sess.ID); err != nil {
		return SessionDeleted{}, s.a.fail(err)
	}
	if s.a.deps.OnSessionDeleted != nil {
		s.a.deps.OnSessionDeleted(sess.Agent, sess.ID)
	}
	return SessionDeleted{ID: sess.ID, Agent: sess.Agent}, nil
}

// SessionRecordOf is the session record of an extraction request: its session, agent,
// workdir and messages (with their source ids, so a message delivered twice is kept once).
func SessionRecordOf(req extraction.Request) memory.SessionRecord {
	rec := memory.SessionRecord{Agent: req.Agent, Session: req.SessionID, Workdir: req.Workdir,
		Turns: make([]memory.TurnInput, 0, len(req.Messages))}
	for _, m := range req.Messages {
		rec.Turns = append(rec.Turns, memory.TurnInput{Role: m.Role, Content: m.Content, MsgID: m.ID})
	}
	return rec
}

// RecordTurns records an extraction request's messages in its session: created on first
// sight, compacted past memory.SessionCompactAt messages with Deps.SessionSummariser (the
// extractive summary when nil) — in place, or by Deps.Compactor in the background; sessions beyond memory.MaxSessions are evicted, least
// recently active first, and announced to Deps.OnSessionDeleted. extraction.request calls
// it for every request it accepts; Recorded.Seqs are the turn numbers to put in the written
// memories' source.turn.
func (a *API) RecordTurns(req extraction.Request) (memory.Recorded, error) {
	r := SessionRecordOf(req)
	// A long-running process summarises in the background: the agent waiting on this call
	// never waits for a model's summary.
	deferred := a.deps.Compactor != nil && a.deps.Compactor.Active()
	r.Defer = deferred
	rec, err := a.deps.Store.RecordSession(a.ctx, r, a.deps.SessionSummariser)
	if err != nil {
		return memory.Recorded{}, a.fail(err)
	}
	if deferred && rec.NeedsCompaction {
		a.deps.Compactor.Enqueue(r.Agent, r.Session)
	}
	if a.deps.OnSessionDeleted != nil {
		for _, k := range rec.Evicted {
			a.deps.OnSessionDeleted(k.Agent, k.ID)
		}
	}
	return rec, nil
}
