// Package organizer keeps the memory store tidy: scan → cluster → plan → gate → apply
// (DESIGN §7). Scheduled runs apply low-risk decisions themselves through one
// memory.ApplyBatch as the organizer; manual runs store a typed report that a person reviews
// and applies with ApplyReport. Every run is a row of memory_organize_runs, updated at each
// phase. The planner and the clusterer are interfaces: the offline ones (near-duplicate tiers,
// structural groups) are built in, and an LLM planner can be plugged in later.
package organizer

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"

	"engram/backend/memory"
)

// Progress is one organizer.progress event: where a run stands.
type Progress struct {
	RunID  string `json:"run_id"`
	Phase  Phase  `json:"phase"`
	Status Status `json:"status"`
	Done   int    `json:"done"`
	Total  int    `json:"total"`
}

// Reasons a timer tick did not start a run (Status.LastSkip); i18n "organizer.skip.<reason>".
const (
	SkipBusy       = "busy"
	SkipTooSoon    = "too_soon"
	SkipTooFewNew  = "too_few_new_memories"
	SkipGateFailed = "gate_failed"
)

// Defaults of Options.
const (
	DefaultPollInterval = time.Minute
	DefaultStartupDelay = 2 * time.Minute
)

// Options are the organizer's dependencies and tunables. Only Store is required.
type Options struct {
	Store *memory.Store
	// Clock gives the time and the scheduling timer; nil means SystemClock.
	Clock Clock
	// Settings are the settings of a home that has none saved; the zero value means
	// DefaultSettings().
	Settings Settings
	// Progress receives organizer.progress events. It is called from the run's goroutine and
	// must not block (the api Hub's Publish queues per transport).
	Progress func(Progress)
	Logger   *slog.Logger
	// Planner proposes decisions per cluster; nil means OfflinePlanner.
	Planner Planner
	// Clusterer splits large scope instances into topic clusters; nil means structural groups.
	Clusterer Clusterer
	// DisableScheduler keeps the timer off whatever the settings say (a process that runs the
	// organizer only on demand).
	DisableScheduler bool
	// Passive is for one-shot processes (CLI verbs): no timer, and no run is ever executed
	// here. RunNow records a queued run that a long-running process (the desktop app, engram
	// serve) takes within PollInterval; reading runs, Abort and ApplyReport work as usual.
	Passive bool
	// PollInterval is how often an idle long-running process looks for queued runs it has not
	// been told about (asked for by another process); zero means DefaultPollInterval, negative
	// never looks. The poll never starts a scheduled run: only runs someone asked for.
	// StartupDelay is the least delay of a timer that was overdue at Start.
	PollInterval time.Duration
	StartupDelay time.Duration
	// SnapshotRetention is how long snapshots are kept; zero means SnapshotRetention (30 days).
	SnapshotRetention time.Duration
}

// Service runs the organizer for one home: the timer, Run Now, Abort, the run records and
// the review of reports. One run at a time per home, across processes.
type Service struct {
	store        *memory.Store
	runs         runStore
	snaps        snapshots
	clock        Clock
	log          *slog.Logger
	planner      Planner
	clusterer    Clusterer
	onProgress   func(Progress)
	defaults     Settings
	scheduler    bool
	passive      bool
	pollEvery    time.Duration
	startupDelay time.Duration
	retention    time.Duration

	mu      sync.Mutex
	started bool
	stopped bool
	ctx     context.Context
	cancel  context.CancelFunc
	lock    *memory.FileLock
	timer   Timer
	timerAt time.Time
	poll    Timer
	busy    bool          // a worker (or a review) holds the run lock
	idle    chan struct{} // closed when busy ends
	active  *activeRun
	wg      sync.WaitGroup
}

type activeRun struct {
	id       string
	ctx      context.Context
	cancel   context.CancelFunc
	progress Progress
}

// New builds the organizer service; Start arms it.
func New(opts Options) (*Service, error) {
	if opts.Store == nil {
		return nil, errors.New("organizer: unable to start without a store")
	}
	s := &Service{store: opts.Store, runs: runStore{store: opts.Store}, clock: opts.Clock, log: opts.Logger,
		planner: opts.Planner, clusterer: opts.Clusterer, onProgress: opts.Progress, defaults: opts.Settings,
		scheduler: !opts.DisableScheduler && !opts.Passive, passive: opts.Passive, pollEvery: opts.PollInterval,
		startupDelay: opts.StartupDelay,
		retention:    opts.SnapshotRetention}
	if s.clock == nil {
		s.clock = SystemClock{}
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.planner == nil {
		s.planner = OfflinePlanner{}
	}
	if s.defaults == (Settings{}) {
		s.defaults = DefaultSettings()
	}
	if err := s.defaults.Validate(); err != nil {
		return nil, err
	}
	if s.pollEvery == 0 {
		s.pollEvery = DefaultPollInterval
	}
	if s.startupDelay <= 0 {
		s.startupDelay = DefaultStartupDelay
	}
	if s.retention <= 0 {
		s.retention = SnapshotRetention
	}
	s.snaps = snapshots{root: opts.Store.Root(), now: s.clock.Now}
	return s, nil
}

// Start opens the run lock, marks runs left "running" by a dead process as failed, prunes old
// snapshots, arms the timer from next_run_at (none when disabled) and starts queued runs. A
// passive service only opens the lock. A Service is started once.
func (s *Service) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return nil
	}
	lk, err := memory.OpenFileLock(filepath.Join(s.store.Root(), ".organizer.lock"))
	if err != nil {
		return err
	}
	s.lock = lk
	s.ctx, s.cancel = context.WithCancel(ctx)
	s.started = true
	if s.passive {
		return nil
	}
	s.recoverLocked()
	if _, err := s.snaps.prune(s.retention); err != nil {
		s.log.Warn("organizer: unable to prune snapshots", "err", err)
	}
	s.armLocked(false, s.startupDelay)
	s.drainLocked()
	s.armPollLocked()
	return nil
}

// Stop disarms the timer, aborts the active run (queued runs stay queued for next time) and
// waits for it to end.
func (s *Service) Stop() error {
	s.mu.Lock()
	if !s.started || s.stopped {
		s.mu.Unlock()
		return nil
	}
	s.stopped = true
	s.stopTimersLocked()
	if s.active != nil {
		s.active.cancel()
	}
	s.mu.Unlock()
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancel()
	return s.lock.Close()
}

func (s *Service) stopTimersLocked() {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
		s.timerAt = time.Time{}
	}
	if s.poll != nil {
		s.poll.Stop()
		s.poll = nil
	}
}

func (s *Service) running() bool { return s.started && !s.stopped }

// recoverLocked marks runs left "running" by a process that died as failed: a row says
// running while nobody holds the run lock (a run holds it from claim to its last write).
func (s *Service) recoverLocked() {
	if s.busy {
		return
	}
	if n, err := s.runs.count(s.ctx, StatusRunning); err != nil || n == 0 {
		return
	}
	ok, err := s.lock.TryLock()
	if err != nil || !ok {
		return
	}
	defer s.lock.Unlock()
	if n, err := s.runs.failInterrupted(s.ctx, s.clock.Now()); err != nil {
		s.log.Warn("organizer: unable to recover interrupted runs", "err", err)
	} else if n > 0 {
		s.log.Info("organizer: marked interrupted runs as failed", "count", n)
	}
}

// progress records p for Status and hands it to the listener. Never call it holding s.mu.
func (s *Service) progress(p Progress) {
	s.mu.Lock()
	if s.active != nil && s.active.id == p.RunID {
		s.active.progress = p
	}
	s.mu.Unlock()
	if s.onProgress != nil {
		s.onProgress(p)
	}
}

// Settings returns the organizer settings.
func (s *Service) Settings(ctx context.Context) (Settings, error) { return s.loadSettings(ctx) }

func (s *Service) loadSettings(ctx context.Context) (Settings, error) {
	st := s.defaults
	if _, err := loadJSON(ctx, s.store, settingsKey, &st); err != nil {
		return s.defaults, err
	}
	if st.Validate() != nil {
		return s.defaults, nil
	}
	return st, nil
}

func (s *Service) loadSchedule(ctx context.Context) schedule {
	var sc schedule
	if _, err := loadJSON(ctx, s.store, scheduleKey, &sc); err != nil {
		s.log.Warn("organizer: unable to read the schedule", "err", err)
	}
	return sc
}

// UpdateSettings validates and saves a patch; a change of enabled or frequency re-arms the
// timer from now (or disarms it).
func (s *Service) UpdateSettings(ctx context.Context, p SettingsPatch) (Settings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, err := s.loadSettings(ctx)
	if err != nil {
		return cur, err
	}
	next, err := cur.Apply(p)
	if err != nil {
		return cur, err
	}
	if err := saveJSON(ctx, s.store, settingsKey, next); err != nil {
		return cur, err
	}
	if next.Enabled != cur.Enabled || next.FrequencyHours != cur.FrequencyHours {
		s.armLocked(true, 0)
	}
	return next, nil
}

// armLocked (re)arms the one scheduling timer from next_run_at, or disarms it when the
// scheduler or the settings say so. reset moves next_run_at to now + frequency.
func (s *Service) armLocked(reset bool, minDelay time.Duration) {
	if s.timer != nil {
		s.timer.Stop()
		s.timer, s.timerAt = nil, time.Time{}
	}
	if !s.running() || !s.scheduler {
		return
	}
	ctx := s.ctx
	st, err := s.loadSettings(ctx)
	if err != nil {
		s.log.Warn("organizer: unable to read settings; the timer stays off", "err", err)
		return
	}
	sc := s.loadSchedule(ctx)
	if !st.Enabled {
		if !sc.NextRunAt.IsZero() {
			sc.NextRunAt = time.Time{}
			if err := saveJSON(ctx, s.store, scheduleKey, sc); err != nil {
				s.log.Warn("organizer: unable to save the schedule", "err", err)
			}
		}
		return
	}
	now := s.clock.Now()
	if reset || sc.NextRunAt.IsZero() || sc.NextRunAt.After(now.Add(st.frequency())) {
		sc.NextRunAt = now.Add(st.frequency())
		if err := saveJSON(ctx, s.store, scheduleKey, sc); err != nil {
			s.log.Warn("organizer: unable to save the schedule", "err", err)
		}
	}
	d := max(sc.NextRunAt.Sub(now), minDelay)
	s.timerAt = now.Add(d)
	s.timer = s.clock.AfterFunc(d, s.onTimer)
}

// onTimer is a scheduled tick: check the gates, queue a scheduled run when they pass, and arm
// the next tick one frequency from now.
func (s *Service) onTimer() {
	var events []Progress
	s.mu.Lock()
	if !s.running() {
		s.mu.Unlock()
		return
	}
	s.timer, s.timerAt = nil, time.Time{}
	ctx := s.ctx
	st, err := s.loadSettings(ctx)
	if err != nil || !st.Enabled {
		s.mu.Unlock()
		return
	}
	now := s.clock.Now()
	skip, err := s.gateLocked(ctx, st, now)
	if err != nil {
		s.log.Warn("organizer: unable to check the run gates", "err", err)
		skip = SkipGateFailed
	}
	sc := s.loadSchedule(ctx)
	sc.LastCheckAt, sc.LastSkip, sc.NextRunAt = now, skip, now.Add(st.frequency())
	if err := saveJSON(ctx, s.store, scheduleKey, sc); err != nil {
		s.log.Warn("organizer: unable to save the schedule", "err", err)
	}
	if skip == "" {
		id := ulid.Make().String()
		if err := s.runs.insertQueued(ctx, id, TriggerScheduled, st.Mode, now); err != nil {
			s.log.Warn("organizer: unable to queue a scheduled run", "err", err)
		} else {
			s.drainLocked()
			if s.active == nil || s.active.id != id {
				events = append(events, Progress{RunID: id, Status: StatusQueued})
			}
		}
	} else {
		s.log.Info("organizer: scheduled run skipped", "reason", skip)
		s.drainLocked() // queued runs nobody has taken (their process exited) start here
	}
	s.armLocked(false, 0)
	s.mu.Unlock()
	for _, p := range events {
		s.progress(p)
	}
}

// gateLocked returns why a scheduled run must not start now ("" when it may): a run active
// or waiting anywhere on the home, too soon after the last finished scheduled run, too few
// memories created since it.
func (s *Service) gateLocked(ctx context.Context, st Settings, now time.Time) (string, error) {
	if s.busy {
		return SkipBusy, nil
	}
	s.recoverLocked()
	for _, status := range []Status{StatusRunning, StatusQueued} {
		n, err := s.runs.count(ctx, status)
		if err != nil {
			return "", err
		}
		if n > 0 {
			return SkipBusy, nil
		}
	}
	last, ok, err := s.runs.lastScheduledDone(ctx)
	if err != nil || !ok {
		return "", err
	}
	if st.MinHoursBetweenRuns > 0 && now.Sub(last) < time.Duration(st.MinHoursBetweenRuns)*time.Hour {
		return SkipTooSoon, nil
	}
	if st.MinNewMemories > 0 {
		n, err := s.runs.createdSince(ctx, last)
		if err != nil {
			return "", err
		}
		if n < st.MinNewMemories {
			return SkipTooFewNew, nil
		}
	}
	return "", nil
}

// RunRef names a run and where it stands after a call.
type RunRef struct {
	ID     string `json:"id"`
	Status Status `json:"status"`
}

// RunNow asks for a run. It starts at once when no run is active on the home; otherwise it is
// recorded as a queued run (listed among the runs) and started when the active one ends —
// never dropped. Manual runs only report; a scheduled trigger applies what the gate allows.
func (s *Service) RunNow(ctx context.Context, trigger Trigger) (RunRef, error) {
	if trigger == "" {
		trigger = TriggerManual
	}
	if !trigger.Valid() {
		return RunRef{}, codeErr(CodeInvalidTrigger, map[string]any{"Trigger": string(trigger)},
			"unable to run with trigger %q", trigger)
	}
	s.mu.Lock()
	if !s.running() {
		s.mu.Unlock()
		return RunRef{}, codeErr(CodeNotRunning, nil, "unable to run: the organizer is not running")
	}
	st, err := s.loadSettings(ctx)
	if err != nil {
		s.mu.Unlock()
		return RunRef{}, err
	}
	id := ulid.Make().String()
	if err := s.runs.insertQueued(ctx, id, trigger, st.Mode, s.clock.Now()); err != nil {
		s.mu.Unlock()
		return RunRef{}, err
	}
	s.drainLocked()
	ref := RunRef{ID: id, Status: StatusQueued}
	if s.active != nil && s.active.id == id {
		ref.Status = StatusRunning
	}
	s.mu.Unlock()
	if ref.Status == StatusQueued {
		s.progress(Progress{RunID: id, Status: StatusQueued})
	}
	return ref, nil
}

// drainLocked starts the worker on the oldest queued run when this process is idle and the
// home's run lock is free. When another process holds the lock, that process takes queued
// runs when its own run ends, and this one looks again at its next poll.
func (s *Service) drainLocked() {
	if s.busy || !s.running() || s.passive {
		return
	}
	ok, err := s.lock.TryLock()
	if err != nil {
		s.log.Warn("organizer: unable to take the run lock", "err", err)
		return
	}
	if !ok {
		return
	}
	id, found := s.claimNextLocked()
	if !found {
		s.lock.Unlock()
		return
	}
	s.busy = true
	s.idle = make(chan struct{})
	s.startLocked(id)
	s.wg.Add(1)
	go s.work(id)
}

func (s *Service) startLocked(id string) {
	ctx, cancel := context.WithCancel(s.ctx)
	s.active = &activeRun{id: id, ctx: ctx, cancel: cancel, progress: Progress{RunID: id, Phase: PhaseScan, Status: StatusRunning}}
}

// claimNextLocked claims the oldest queued run; the caller holds the run lock.
func (s *Service) claimNextLocked() (string, bool) {
	for {
		id, found, err := s.runs.oldestQueued(s.ctx)
		if err != nil {
			s.log.Warn("organizer: unable to read queued runs", "err", err)
			return "", false
		}
		if !found {
			return "", false
		}
		ok, err := s.runs.claim(s.ctx, id, s.clock.Now())
		if err != nil {
			s.log.Warn("organizer: unable to start a queued run", "err", err)
			return "", false
		}
		if ok {
			return id, true
		}
	}
}

// armPollLocked arms the look for queued runs asked for by other processes.
func (s *Service) armPollLocked() {
	if s.poll != nil || !s.running() || s.passive || s.pollEvery < 0 {
		return
	}
	s.poll = s.clock.AfterFunc(s.pollEvery, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.poll = nil
		if !s.running() {
			return
		}
		if !s.busy {
			s.recoverLocked()
			if n, err := s.runs.count(s.ctx, StatusQueued); err != nil {
				s.log.Warn("organizer: unable to look for queued runs", "err", err)
			} else if n > 0 {
				s.drainLocked()
			}
		}
		s.armPollLocked()
	})
}

// work executes claimed runs one after another until none is queued.
func (s *Service) work(id string) {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		ctx := s.active.ctx
		s.mu.Unlock()
		s.execute(ctx, id)
		s.mu.Lock()
		s.active.cancel()
		s.active = nil
		next, found := "", false
		if s.running() {
			next, found = s.claimNextLocked()
		}
		if !found {
			s.busy = false
			s.lock.Unlock()
			close(s.idle)
			s.mu.Unlock()
			return
		}
		s.startLocked(next)
		s.mu.Unlock()
		id = next
	}
}

// execute runs one claimed run to its end and records how it ended.
func (s *Service) execute(ctx context.Context, id string) {
	bg := context.WithoutCancel(ctx)
	row, err := s.runs.get(bg, id)
	if err != nil {
		s.log.Error("organizer: unable to read a claimed run", "run", id, "err", err)
		return
	}
	st, err := s.loadSettings(bg)
	if err != nil {
		s.log.Warn("organizer: unable to read settings; using defaults", "err", err)
	}
	r := &runner{s: s, id: id, trigger: row.Trigger, mode: row.Mode, settings: st, report: newReport(id, row.Trigger, row.Mode)}
	r.report.Planner = s.planner.Name()
	r.report.Clusterer = StructuralClusterer{}.Name()
	if s.clusterer != nil {
		r.report.Clusterer = s.clusterer.Name()
	}
	err = r.run(ctx)
	status, code := StatusDone, ""
	switch {
	case err == nil:
	case errors.Is(err, errAborted) && !r.applied:
		status = StatusAborted
	default:
		status = StatusFailed
		r.report.Error = runErrorOf(err)
		code = r.report.Error.Code
		s.log.Warn("organizer: run failed", "run", id, "err", err)
	}
	r.report.recount()
	if err := s.runs.finish(bg, id, status, r.row(), code, s.clock.Now()); err != nil {
		s.log.Error("organizer: unable to record the end of a run", "run", id, "err", err)
	}
	s.progress(Progress{RunID: id, Phase: r.phase, Status: status, Done: r.done, Total: r.total})
}

// Abort stops a run: the active one when runID is empty, or the named one. A queued run is
// marked aborted and never starts; a run active in another process is marked aborted and that
// process stops it at its next checkpoint. Once a run's apply batch has begun it finishes.
func (s *Service) Abort(ctx context.Context, runID string) (RunRef, error) {
	s.mu.Lock()
	if !s.running() {
		s.mu.Unlock()
		return RunRef{}, codeErr(CodeNotRunning, nil, "unable to abort: the organizer is not running")
	}
	if runID == "" && s.active != nil {
		runID = s.active.id
	}
	if s.active != nil && s.active.id == runID {
		s.active.cancel()
		status := StatusAborted
		if s.active.progress.Phase == PhaseApply {
			status = StatusRunning // its one batch is under way and finishes; the run ends done
		}
		s.mu.Unlock()
		return RunRef{ID: runID, Status: status}, nil
	}
	s.mu.Unlock()
	if runID == "" {
		rows, err := s.runs.list(ctx, []Status{StatusRunning}, 1, 0)
		if err != nil {
			return RunRef{}, err
		}
		if len(rows) == 0 {
			return RunRef{}, codeErr(CodeNothingToAbort, nil, "unable to abort: no run is active")
		}
		runID = rows[0].ID
	}
	for _, from := range []Status{StatusQueued, StatusRunning} {
		ok, err := s.runs.setStatus(ctx, runID, from, StatusAborted, "", s.clock.Now())
		if err != nil {
			return RunRef{}, err
		}
		if ok {
			s.progress(Progress{RunID: runID, Status: StatusAborted})
			return RunRef{ID: runID, Status: StatusAborted}, nil
		}
	}
	if _, err := s.runs.get(ctx, runID); err != nil {
		return RunRef{}, err
	}
	return RunRef{}, codeErr(CodeNothingToAbort, map[string]any{"Run": runID}, "unable to abort run %s: it has ended", runID)
}

// acquireForReview takes the run lock for ApplyReport.
func (s *Service) acquireForReview() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.running() {
		return codeErr(CodeNotRunning, nil, "unable to apply: the organizer is not running")
	}
	if s.busy {
		return codeErr(CodeBusy, nil, "unable to apply while a run is active; try again when it ends")
	}
	ok, err := s.lock.TryLock()
	if err != nil {
		return err
	}
	if !ok {
		return codeErr(CodeBusy, nil, "unable to apply while a run is active; try again when it ends")
	}
	s.busy = true
	s.idle = make(chan struct{})
	return nil
}

func (s *Service) releaseForReview() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.busy = false
	s.lock.Unlock()
	close(s.idle)
	s.drainLocked() // a Run Now asked for meanwhile
}

// WaitIdle blocks until no run is active in this process (queued runs it can start included)
// or ctx ends. One-shot callers (the CLI) and tests use it after RunNow.
func (s *Service) WaitIdle(ctx context.Context) error {
	for {
		s.mu.Lock()
		if !s.busy {
			s.mu.Unlock()
			return nil
		}
		ch := s.idle
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// StatusResult is the organizer at a glance (Organizer view header).
type StatusResult struct {
	Settings Settings `json:"settings"`
	// Armed says a timer is set in this process; TimerAt is when it fires.
	Armed       bool       `json:"armed"`
	TimerAt     *time.Time `json:"timer_at,omitempty"`
	NextRunAt   *time.Time `json:"next_run_at,omitempty"`
	LastCheckAt *time.Time `json:"last_check_at,omitempty"`
	LastSkip    string     `json:"last_skip,omitempty"`
	// Active is the run under way on the home (in this process or another), if any.
	Active  *RunSummary `json:"active,omitempty"`
	Queued  int         `json:"queued"`
	LastRun *RunSummary `json:"last_run,omitempty"`
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// Status reports settings, the timer, the active run with its progress, the queue and the
// newest finished run.
func (s *Service) Status(ctx context.Context) (StatusResult, error) {
	st, err := s.loadSettings(ctx)
	if err != nil {
		return StatusResult{}, err
	}
	sc := s.loadSchedule(ctx)
	out := StatusResult{Settings: st, NextRunAt: timePtr(sc.NextRunAt), LastCheckAt: timePtr(sc.LastCheckAt), LastSkip: sc.LastSkip}
	s.mu.Lock()
	out.Armed = s.timer != nil
	out.TimerAt = timePtr(s.timerAt)
	s.mu.Unlock()
	active, err := s.runs.list(ctx, []Status{StatusRunning}, 1, 0)
	if err != nil {
		return out, err
	}
	if len(active) > 0 {
		sum := s.summary(active[0])
		out.Active = &sum
	}
	if out.Queued, err = s.runs.count(ctx, StatusQueued); err != nil {
		return out, err
	}
	last, err := s.runs.list(ctx, []Status{StatusDone, StatusFailed, StatusAborted}, 1, 0)
	if err != nil {
		return out, err
	}
	if len(last) > 0 {
		sum := s.summary(last[0])
		out.LastRun = &sum
	}
	return out, nil
}

func (s *Service) summary(r *runRow) RunSummary {
	sum := r.RunSummary
	s.mu.Lock()
	if s.active != nil && s.active.id == r.ID {
		p := s.active.progress
		sum.Progress = &p
	}
	s.mu.Unlock()
	return sum
}

// RunsParams page the run history.
type RunsParams struct {
	Limit  int `json:"limit,omitempty"`
	Offset int `json:"offset,omitempty"`
}

// RunsResult is one page of runs, newest first (queued runs included).
type RunsResult struct {
	Runs []RunSummary `json:"runs"`
}

// Runs lists runs, newest first.
func (s *Service) Runs(ctx context.Context, p RunsParams) (RunsResult, error) {
	limit := p.Limit
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	rows, err := s.runs.list(ctx, nil, limit, max(p.Offset, 0))
	if err != nil {
		return RunsResult{}, err
	}
	out := RunsResult{Runs: make([]RunSummary, 0, len(rows))}
	for _, r := range rows {
		out.Runs = append(out.Runs, s.summary(r))
	}
	return out, nil
}

// Run returns one run with its typed report.
func (s *Service) Run(ctx context.Context, id string) (RunDetail, error) {
	r, err := s.runs.get(ctx, id)
	if err != nil {
		return RunDetail{}, err
	}
	d := RunDetail{RunSummary: s.summary(r)}
	rep, err := parseReport(r.report)
	if err != nil {
		d.ReportError = runErrorOf(err)
		return d, nil
	}
	d.Report = rep
	return d, nil
}

func timeDays(days int) time.Duration { return time.Duration(days) * 24 * time.Hour }
