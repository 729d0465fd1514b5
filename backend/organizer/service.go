// Package organizer keeps the memory store tidy: scan → cluster → plan → gate → apply
// (DESIGN §7). Scheduled runs apply low-risk decisions themselves through one
// memory.ApplyBatch as the organizer; manual runs store a typed report that a person reviews
// and applies with ApplyReport. Every run is a row of memory_organize_runs, updated at each
// phase. The planner and the clusterer are interfaces: the model's (SubmitMemoryTopicClusters,
// SubmitMemoryOrganizePlan) when an LLM is configured, else the offline ones (near-duplicate
// tiers, structural groups).
package organizer

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

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
	// Planner proposes decisions per cluster; nil means the model's (LLM) when one is
	// configured, else OfflinePlanner.
	Planner Planner
	// Clusterer splits large scope instances into topic clusters; nil means the model's (LLM)
	// when one is configured, else structural groups.
	Clusterer Clusterer
	// LLM gives the configured model, asked at the start of every run so that a settings
	// change takes effect at the next run; nil, (nil, nil) or an llm_not_configured error plan
	// offline. With a model, scopes of more than MaxClusterSize entries are clustered through
	// SubmitMemoryTopicClusters and every cluster is planned through SubmitMemoryOrganizePlan;
	// a failing scope falls back to structural groups and a failing cluster to the offline
	// planner, each recorded in the run report.
	LLM LLMProvider
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
	llm          LLMProvider
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
		planner: opts.Planner, clusterer: opts.Clusterer, llm: opts.LLM, onProgress: opts.Progress, defaults: opts.Settings,
		scheduler: !opts.DisableScheduler && !opts.Passive, passive: opts.Passive, pollEvery: opts.PollInterval,
		startupDelay: opts.StartupDelay,
		retention:    opts.SnapshotRetention}
	if s.clock == nil {
		s.clock = SystemClock{}
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
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
