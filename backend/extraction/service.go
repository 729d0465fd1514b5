package extraction

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"

	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/settings"
)

// StatusEvent is published (as api's extraction.status) when a run starts, waits or ends.
type StatusEvent struct {
	RunID    string `json:"run_id"`
	Session  string `json:"session"`
	Agent    string `json:"agent"`
	Status   string `json:"status"`
	Reason   string `json:"reason,omitempty"`
	Applied  int    `json:"applied"`
	Rejected int    `json:"rejected"`
}

// Options configure a Service.
type Options struct {
	Store *memory.Store
	// Planner proposes plans: the model planner when an LLM is configured, else the offline
	// extractor. Nil ends every run that passes the gates as noop "no-planner".
	Planner Planner
	// Now is the clock the gates read (tests inject one); nil is the store's clock.
	Now func() time.Time
	// Publish receives status events; nil drops them.
	Publish func(StatusEvent)
	Logger  *slog.Logger
	// PlanTimeout bounds one planning step (default ExtractionTimeout).
	PlanTimeout time.Duration
	// Passive is for one-shot processes (the CLI): every request waits for its run, which
	// would otherwise be cancelled when the process exits.
	Passive bool
	// After arms a timer (tests inject one); nil is time.AfterFunc.
	After afterFunc
	// Catalog and Settings write the texts a run stores for the person to read (the reasoning
	// of an identity split, which Review shows) from the catalog, in the language of their
	// settings, as the API translates what it shows. Nil Catalog (a process without one) leaves
	// those texts unwritten; nil Settings writes them in i18n.DefaultLanguage.
	Catalog  *i18n.Catalog
	Settings *settings.Service
}

// sessionState is what the controller remembers of one session.
type sessionState struct {
	running   *run
	queued    *run
	lastRunAt time.Time
	lastHash  string
	// written maps a slug to the hash of the user message whose run wrote it.
	written map[string]string
	// planned holds the ContentHash of user messages a run of this session planned (bounded):
	// a turn skipped by the interval gate is read by the next run that sees it in its window.
	planned map[string]time.Time
	// stopTimer cancels the timer that starts the waiting request of a throttled turn.
	stopTimer func() bool
}

// maxPlanned bounds a session's planned set; the window only ever holds the last few turns.
const maxPlanned = 64

// plannedIn lists which user messages of msgs this session already planned.
func (st *sessionState) plannedIn(msgs []Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Role != "user" {
			continue
		}
		if h := ContentHash(m.Content); !st.planned[h].IsZero() {
			out = append(out, h)
		}
	}
	return out
}

// markPlanned records the user messages of a planned window.
func (st *sessionState) markPlanned(msgs []Message, now time.Time) {
	if st.planned == nil {
		st.planned = map[string]time.Time{}
	}
	for _, m := range msgs {
		if m.Role == "user" {
			st.planned[ContentHash(m.Content)] = now
		}
	}
	for len(st.planned) > maxPlanned {
		var oldest string
		var at time.Time
		for h, t := range st.planned {
			if oldest == "" || t.Before(at) {
				oldest, at = h, t
			}
		}
		delete(st.planned, oldest)
	}
}

// sessionKey names one caller's session: the agent, its project folder (canonical, "" for
// none) and the session id. The id is the agent's word (observe_turn's session_id), and two
// agents — or one agent in two projects — may use the same one; keyed by the id alone, one
// caller's turn queued behind another's run, took that caller's waiting turn into its own run
// and planned it into its own scopes, and shared its interval and covered-message gates.
type sessionKey struct{ agent, workdir, session string }

func (k sessionKey) caller() *memory.RunCaller {
	return &memory.RunCaller{Agent: k.agent, Workdir: k.workdir}
}

// Service is the extraction controller: it gates requests, runs at most one extraction per
// session (coalescing the newest waiting request), cancels runs on dispose and shutdown, and
// records every request in extraction_runs.
type Service struct {
	o        Options
	base     context.Context
	stop     context.CancelFunc
	mu       sync.Mutex
	sessions map[sessionKey]*sessionState
	wg       sync.WaitGroup
	closed   bool
	// settingsMu serialises settings updates (read, patch, save).
	settingsMu sync.Mutex
}

// New returns the controller. ctx is the process's lifetime: cancelling it (or Close) aborts
// every run; a caller that stops waiting for a run does not.
func New(ctx context.Context, o Options) *Service {
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Now == nil {
		o.Now = o.Store.Now
	}
	if o.PlanTimeout <= 0 {
		o.PlanTimeout = ExtractionTimeout
	}
	if o.After == nil {
		o.After = realAfter
	}
	s := &Service{o: o, sessions: map[sessionKey]*sessionState{}}
	s.base, s.stop = context.WithCancel(ctx)
	return s
}

// SetPlanner replaces the planner for the runs that start from now on (Settings → LLM changed).
func (s *Service) SetPlanner(p Planner) {
	s.mu.Lock()
	s.o.Planner = p
	s.mu.Unlock()
}

// staleAfter is how old a queued or running row of another process must be before a start
// closes it as interrupted: longer than any run can take.
const staleAfter = 10 * time.Minute

// Recover closes the runs a stopped process left queued or running (older than any run can
// last, so live runs of other processes are left alone).
func (s *Service) Recover(ctx context.Context) error {
	_, err := s.o.Store.CloseExtractionRuns(ctx, []string{StatusQueued, StatusRunning}, StatusFailed, FailInterrupted,
		s.o.Now(), s.o.Now().Add(-staleAfter))
	return err
}

// Close cancels every run and waits for them to record their end.
func (s *Service) Close() {
	s.mu.Lock()
	s.closed = true
	waiting := s.dropWaiting()
	s.mu.Unlock()
	for _, q := range waiting {
		s.finish(q, StatusFailed, FailCanceled)
	}
	s.stop()
	s.wg.Wait()
}

// Dispose forgets a deleted session of an agent (sessions are the agent's, as the store keeps
// them): its running runs are cancelled, waiting requests end as skipped (disposed), and its
// gate state is dropped, in whichever project it ran. Another agent's session of the same id
// is left alone.
func (s *Service) Dispose(agent, session string) {
	agent, session = strings.TrimSpace(agent), strings.TrimSpace(session)
	s.mu.Lock()
	var queued []*run
	for k, st := range s.sessions {
		if k.agent != agent || k.session != session {
			continue
		}
		delete(s.sessions, k)
		if st.running != nil {
			st.running.cancel()
		}
		if st.stopTimer != nil {
			st.stopTimer()
		}
		if st.queued != nil {
			queued = append(queued, st.queued)
			st.queued = nil
		}
	}
	s.mu.Unlock()
	for _, q := range queued {
		s.finish(q, StatusSkipped, SkipDisposed)
	}
}

// validRequest checks what a run would trust: the session id, the agent name and the workdir.
func (s *Service) validRequest(req Request) (recall.Visibility, error) {
	if strings.TrimSpace(req.SessionID) == "" || len(req.SessionID) > 200 {
		return recall.Visibility{}, codeErr(CodeInvalidRequest, map[string]any{"Field": "session_id"}, "a request needs a session_id of at most 200 bytes")
	}
	if len(req.Messages) > 2000 {
		return recall.Visibility{}, codeErr(CodeInvalidRequest, map[string]any{"Field": "messages"}, "a request holds at most 2000 messages")
	}
	for _, m := range req.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return recall.Visibility{}, codeErr(CodeInvalidRequest, map[string]any{"Field": "role"}, "message role %q is neither user nor assistant", m.Role)
		}
	}
	return recall.NewVisibility(recall.Caller{Workdir: req.Workdir, Agent: req.Agent}, s.o.Store.Projects())
}

// Request takes one turn. Every gate is decided, and the run claimed, under the controller's
// lock before anything runs in the background. A request arriving while the session's run is
// in flight waits as the session's one queued request (a newer one replaces it). With wait,
// Request returns when the run has ended or ctx is done (the run goes on either way).
func (s *Service) Request(ctx context.Context, req Request, wait bool) (RunDetail, error) {
	wait = wait || s.o.Passive
	req.SessionID = strings.TrimSpace(req.SessionID)
	req.Agent = strings.TrimSpace(req.Agent)
	vis, err := s.validRequest(req)
	if err != nil {
		return RunDetail{}, err
	}
	set, err := loadSettings(ctx, s.o.Store)
	if err != nil {
		return RunDetail{}, err
	}
	last, prevAssistant, turn := lastUser(req.Messages)
	now := s.o.Now()
	r := &run{req: req, hash: messageHash(last, turn, prevAssistant), done: make(chan struct{}),
		turnsHashes: windowHashes(req.Messages)}
	r.detail = RunDetail{RunSummary: RunSummary{ID: ulid.Make().String(), Session: req.SessionID, Agent: req.Agent,
		Workdir: vis.Workdir(), StartedAt: now}, Report: Report{Version: ReportVersion, Turn: turn}}
	key := sessionKey{req.Agent, vis.Workdir(), req.SessionID}

	reason := ""
	switch {
	case !set.Enabled:
		reason = SkipDisabled
	case !set.agentAllowed(req.Agent):
		reason = SkipAgentOff
	case turn == 0:
		reason = SkipNoPersonMessage
	default:
		reason = contentGate(set, gateInput{Text: last.Content, PrevAssistant: prevAssistant})
	}
	// What other processes on this home (the CLI, an agent's hook, the app) last ran for the
	// session, read before the lock and merged under it: the gates see the newest of both.
	var recorded *sessionState
	if reason == "" {
		if recorded, err = s.loadState(ctx, key); err != nil {
			return RunDetail{}, err
		}
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return RunDetail{}, codeErr(CodeNotRunning, nil, "extraction is shutting down")
	}
	var superseded *run
	outcome := "" // what this call must still do for r once the lock is released
	st := s.sessions[key]
	if reason == "" {
		if st == nil {
			st = &sessionState{written: map[string]string{}}
			s.sessions[key] = st
		}
		st.merge(recorded)
	}
	switch {
	case reason != "":
		outcome = StatusSkipped
	case st.running != nil:
		if st.queued != nil {
			r.carryFrom(st.queued)
		}
		superseded, st.queued = st.queued, r
		r.setStatus(StatusQueued, "", time.Time{})
		outcome = StatusQueued
	default:
		reason = gate(set, gateInput{Text: last.Content, PrevAssistant: prevAssistant, Hash: r.hash, LastHash: st.lastHash,
			LastRunAt: st.lastRunAt, Now: now})
		if reason == SkipThrottled {
			// Too soon after the session's last run: wait out the interval instead of dropping
			// the turn, together with any turn already waiting.
			if st.queued != nil {
				r.carryFrom(st.queued)
			}
			superseded = st.queued
			interval := time.Duration(set.MinIntervalSeconds) * time.Second
			s.deferRun(st, r, st.lastRunAt.Add(interval).Sub(now))
			reason, outcome = "", StatusQueued
		} else if reason != "" {
			outcome = StatusSkipped
		} else {
			s.claim(st, r, now)
		}
	}
	s.mu.Unlock()

	if superseded != nil {
		s.finish(superseded, StatusSkipped, SkipSuperseded)
	}
	switch outcome {
	case StatusSkipped:
		s.finish(r, StatusSkipped, reason)
	case StatusQueued:
		// Once queued, the run may already be taken (or ended) by the session's running
		// run: record reads its state at the time of writing.
		s.record(r)
		s.publish(r)
	}
	if wait {
		select {
		case <-r.done:
		case <-ctx.Done():
			if s.o.Passive {
				s.awaitEnd(r) // the process ends with this call: say how the run ended
			}
		}
	}
	return r.snapshot(), nil
}

// claim marks r as the session's running run and starts it; the caller holds s.mu.
func (s *Service) claim(st *sessionState, r *run, now time.Time) {
	st.running, st.lastRunAt = r, now
	r.prevHash, st.lastHash = st.lastHash, r.hash
	r.ctx, r.cancel = context.WithCancel(s.base)
	r.setStatus(StatusRunning, "", time.Time{})
	r.mu.Lock()
	r.detail.StartedAt = now
	r.detail.Report.Gate = "passed"
	r.written = writtenFor(st, r.turnsHashes)
	r.planned = st.plannedIn(window(r.req.Messages))
	if last, _, _ := lastUser(r.req.Messages); len(r.planned) > 0 {
		// The newest message is this run's subject even when an earlier request carried it.
		h := ContentHash(last.Content)
		kept := r.planned[:0]
		for _, p := range r.planned {
			if p != h {
				kept = append(kept, p)
			}
		}
		r.planned = kept
	}
	r.detail.Report.Covered = covers(window(r.req.Messages), r.planned)
	planner := s.o.Planner
	r.mu.Unlock()
	s.wg.Add(1)
	go s.execute(st, r, planner)
}

// writtenFor lists the slugs earlier runs wrote from the user messages r's window holds.
func writtenFor(st *sessionState, hashes []string) []string {
	in := map[string]bool{}
	for _, h := range hashes {
		in[h] = true
	}
	var out []string
	for slug, h := range st.written {
		if in[h] {
			out = append(out, slug)
		}
	}
	return out
}

// windowHashes are the hashes of the user messages of the run's window.
func windowHashes(msgs []Message) []string {
	var out []string
	turn := 0
	users := 0
	for _, m := range msgs {
		if m.Role == "user" {
			users++
		}
	}
	for i, m := range msgs {
		if m.Role != "user" {
			continue
		}
		turn++
		if users-turn < ContextUserTurns {
			out = append(out, messageHash(m, turn, assistantBefore(msgs, i)))
		}
	}
	return out
}

// loadState reads a session this process has not seen from its recorded runs, so that
// one-shot processes (the CLI, an agent's hook) share the interval, covered-message and
// already-written gates with the app.
func (s *Service) loadState(ctx context.Context, key sessionKey) (*sessionState, error) {
	st := &sessionState{written: map[string]string{}}
	rows, _, err := s.o.Store.ExtractionRuns(ctx, memory.ExtractionRunFilter{Session: key.session, Caller: key.caller(), Limit: 20})
	if err != nil {
		return st, err
	}
	for _, row := range rows {
		switch row.Status {
		case StatusSkipped, StatusQueued, StatusFailed:
			continue
		}
		if st.lastRunAt.IsZero() {
			st.lastRunAt, st.lastHash = row.StartedAt, row.MessageHash
		}
		for _, a := range detailOf(row).Report.Applied {
			if _, seen := st.written[a.Slug]; !seen && (a.Action == ActionWrite || a.Action == ActionUpdate) {
				st.written[a.Slug] = row.MessageHash
			}
		}
	}
	return st, nil
}

// merge takes what the records say when they are newer than what this process knows.
func (st *sessionState) merge(rec *sessionState) {
	if rec == nil {
		return
	}
	if rec.lastRunAt.After(st.lastRunAt) {
		st.lastRunAt, st.lastHash = rec.lastRunAt, rec.lastHash
	}
	for slug, h := range rec.written {
		if _, ok := st.written[slug]; !ok {
			st.written[slug] = h
		}
	}
}

func (r *run) setStatus(status, reason string, finished time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.detail.Status, r.detail.Reason = status, reason
	if !finished.IsZero() {
		f := finished
		r.detail.FinishedAt = &f
	}
}

// record writes the run's current state; r.mu is held across the write so that two writers
// cannot land an older state after a newer one.
func (s *Service) record(r *run) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := s.o.Store.PutExtractionRun(context.WithoutCancel(s.base), r.row()); err != nil {
		s.o.Logger.Warn("extraction: unable to record run", "run", r.detail.ID, "err", err)
	}
}

func (s *Service) publish(r *run) {
	if s.o.Publish == nil {
		return
	}
	d := r.snapshot()
	s.o.Publish(StatusEvent{RunID: d.ID, Session: d.Session, Agent: d.Agent, Status: d.Status, Reason: d.Reason,
		Applied: d.Applied, Rejected: d.Rejected})
}

// finish ends a run that never ran (superseded, disposed, shut down).
func (s *Service) finish(r *run, status, reason string) {
	r.setStatus(status, reason, s.o.Now())
	r.mu.Lock()
	r.detail.Report.Gate = reason
	r.mu.Unlock()
	s.record(r)
	close(r.done)
	s.publish(r)
}
