package extraction

import (
	"context"
	"time"
)

// A turn is never dropped for arriving too soon or while another run of its session is in
// flight: agents (the Claude Code hook, observe_turn) send each turn once, so a request the
// interval gate or a newer request would discard carries its messages into the session's
// waiting request, which runs when the interval has passed.

// afterFunc runs f once after d; the returned stop cancels it.
type afterFunc func(d time.Duration, f func()) (stop func() bool)

func realAfter(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// carryFrom puts the messages and mutations of an earlier waiting request, which r replaces,
// in front of r's own (each message once). r keeps its hash: its newest message is its subject.
func (r *run) carryFrom(older *run) {
	seen := map[string]bool{}
	key := func(m Message) string {
		if m.ID != "" {
			return "id\x00" + m.ID
		}
		return m.Role + "\x00" + ContentHash(m.Content)
	}
	for _, m := range r.req.Messages {
		seen[key(m)] = true
	}
	var msgs []Message
	for _, m := range older.req.Messages {
		if !seen[key(m)] {
			seen[key(m)] = true
			msgs = append(msgs, m)
		}
	}
	r.req.Messages = append(msgs, r.req.Messages...)
	muts := map[Mutation]bool{}
	for _, m := range r.req.WorkspaceMutations {
		muts[m] = true
	}
	for _, m := range older.req.WorkspaceMutations {
		if !muts[m] {
			muts[m] = true
			r.req.WorkspaceMutations = append(r.req.WorkspaceMutations, m)
		}
	}
	if len(r.req.Messages) > maxRequestMessages {
		r.req.Messages = r.req.Messages[len(r.req.Messages)-maxRequestMessages:]
	}
	r.turnsHashes = windowHashes(r.req.Messages)
}

// maxRequestMessages bounds what carrying can grow a request to (validRequest's limit).
const maxRequestMessages = 2000

// defer makes r the session's waiting request and arms the session's timer to start it once
// the interval since the last run has passed; the caller holds s.mu.
func (s *Service) deferRun(st *sessionState, r *run, wait time.Duration) {
	r.setStatus(StatusQueued, "", time.Time{})
	st.queued = r
	if st.stopTimer != nil {
		st.stopTimer()
	}
	if wait < 0 {
		wait = 0
	}
	st.stopTimer = s.o.After(wait, func() { s.startWaiting(st) })
}

// startWaiting starts the session's waiting request when its timer fires, unless a run is in
// flight (its end takes the waiting request) or the service is closing.
func (s *Service) startWaiting(st *sessionState) {
	set, err := loadSettings(context.WithoutCancel(s.base), s.o.Store)
	if err != nil {
		set = DefaultSettings()
	}
	s.mu.Lock()
	st.stopTimer = nil
	q := st.queued
	if s.closed || st.running != nil || q == nil {
		s.mu.Unlock()
		return
	}
	st.queued = nil
	last, prevAssistant, _ := lastUser(q.req.Messages)
	now := s.o.Now()
	skip := gate(set, gateInput{Text: last.Content, PrevAssistant: prevAssistant, Hash: q.hash, LastHash: st.lastHash,
		Now: now, FromQueue: true})
	if skip == "" {
		s.claim(st, q, now)
	}
	s.mu.Unlock()
	if skip != "" {
		s.finish(q, StatusSkipped, skip)
	}
}

// dropWaiting takes the waiting requests of idle sessions at shutdown (their timers stopped);
// the caller holds s.mu.
func (s *Service) dropWaiting() []*run {
	var out []*run
	for _, st := range s.sessions {
		if st.stopTimer != nil {
			st.stopTimer()
			st.stopTimer = nil
		}
		if st.running == nil && st.queued != nil {
			out = append(out, st.queued)
			st.queued = nil
		}
	}
	return out
}
