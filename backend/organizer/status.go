package organizer

import (
	"context"
	"time"
)

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
