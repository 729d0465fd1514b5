package organizer

import (
	"context"
	"errors"

	"github.com/oklog/ulid/v2"
)

// RunRef names a run and where it stands after a call.
type RunRef struct {
	ID     string `json:"id"`
	Status Status `json:"status"`
}

// RunNow asks for a run. It starts at once when no run is active on the home; otherwise it is
// recorded as a queued run (listed among the runs) and started when the active one ends —
// never dropped. Manual runs only report; a scheduled trigger applies what the gate allows.
func (s *Service) RunNow(ctx context.Context, trigger Trigger) (RunRef, error) {
	return s.RunNowFor(ctx, RunNowParams{Trigger: trigger})
}

// RunNowFor is RunNow with its params: a run limited to one scope instance scans, plans and
// applies only that instance's entries (the rest of the store is untouched and unreported).
func (s *Service) RunNowFor(ctx context.Context, p RunNowParams) (RunRef, error) {
	trigger := p.Trigger
	filter, err := p.scopeFilter(s.store.Projects())
	if err != nil {
		return RunRef{}, err
	}
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
	if err := s.runs.insertQueued(ctx, id, trigger, st.Mode, filter, s.clock.Now()); err != nil {
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
	r.only = decodeScopeFilter(row.scopeFilter)
	r.report.ScopeFilter = r.only
	s.chooseModels(r)
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
