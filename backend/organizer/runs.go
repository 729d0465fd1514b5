package organizer

import (
	"context"
	"encoding/json"
	"time"

	"engram/backend/memory"
)

// Status is where a run stands.
type Status string

// Run statuses.
const (
	// StatusQueued runs wait for the active run (in this or another process) to end.
	StatusQueued  Status = "queued"
	StatusRunning Status = "running"
	StatusDone    Status = "done"
	StatusFailed  Status = "failed"
	StatusAborted Status = "aborted"
)

// Phase is a step of the pipeline.
type Phase string

// Phases, in order.
const (
	PhaseScan    Phase = "scan"
	PhaseCluster Phase = "cluster"
	PhasePlan    Phase = "plan"
	PhaseGate    Phase = "gate"
	PhaseApply   Phase = "apply"
)

// RunSummary is one row of memory_organize_runs, for lists.
type RunSummary struct {
	ID      string  `json:"id"`
	Trigger Trigger `json:"trigger"`
	Mode    Mode    `json:"mode"`
	Status  Status  `json:"status"`
	Phase   Phase   `json:"phase"`
	// StartedAt is when the run started, or for a queued run when it was asked for.
	StartedAt            time.Time      `json:"started_at"`
	FinishedAt           *time.Time     `json:"finished_at,omitempty"`
	InitialCount         int            `json:"initial_count"`
	FinalCount           int            `json:"final_count"`
	CompressionRatio     float64        `json:"compression_ratio"`
	QuotaHeadroomAtStart int            `json:"quota_headroom_at_start"`
	TokenUsageTotal      int            `json:"token_usage_total"`
	Counts               Counts         `json:"counts"`
	RejectionBuckets     map[string]int `json:"rejection_buckets"`
	Error                *RunError      `json:"error,omitempty"`
	// Progress is set for the run this process is executing.
	Progress *Progress `json:"progress,omitempty"`
	// ScopeFilter is the one scope instance the run organizes (the quota banner's button);
	// nil for every scope. The runs list says which.
	ScopeFilter *ScopeInstance `json:"scope_filter,omitempty"`
}

// RunDetail is a run with its typed report (nil for a queued run or an unreadable report).
type RunDetail struct {
	RunSummary
	Report *Report `json:"report"`
	// ReportError says why a stored report could not be read (a newer version).
	ReportError *RunError `json:"report_error,omitempty"`
}

type runRow struct {
	RunSummary
	report      string
	scopeFilter string
}

// rowOf reads a stored run; lists read only the head of each report, not its decisions.
func rowOf(o memory.OrganizerRun) *runRow {
	r := &runRow{report: o.Report, scopeFilter: o.ScopeFilter}
	r.ID, r.Trigger, r.Mode, r.Status, r.Phase = o.ID, Trigger(o.Trigger), Mode(o.Mode), Status(o.Status), Phase(o.Phase)
	r.StartedAt, r.FinishedAt = o.StartedAt, o.FinishedAt
	r.ScopeFilter = decodeScopeFilter(o.ScopeFilter)
	r.InitialCount, r.FinalCount, r.CompressionRatio = o.InitialCount, o.FinalCount, o.CompressionRatio
	r.QuotaHeadroomAtStart, r.TokenUsageTotal = o.QuotaHeadroomAtStart, o.TokenUsageTotal
	r.RejectionBuckets = map[string]int{}
	var head struct {
		Version          int            `json:"version"`
		Counts           Counts         `json:"counts"`
		RejectionBuckets map[string]int `json:"rejection_buckets"`
		Error            *RunError      `json:"error"`
	}
	if json.Unmarshal([]byte(r.report), &head) == nil && head.Version == ReportVersion {
		r.Counts, r.Error = head.Counts, head.Error
		if head.RejectionBuckets != nil {
			r.RejectionBuckets = head.RejectionBuckets
		}
	}
	if r.Error == nil && o.Error != "" {
		r.Error = &RunError{Code: o.Error, Message: o.Error}
	}
	return r
}

// runStore reads and writes the run records through the memory store, which owns the index.
type runStore struct{ store *memory.Store }

func (rs runStore) insertQueued(ctx context.Context, id string, trigger Trigger, mode Mode, only *ScopeInstance, at time.Time) error {
	return rs.store.QueueScopedOrganizerRun(ctx, id, string(trigger), string(mode), encodeScopeFilter(only), at)
}

// oldestQueued returns the id of the queued run asked for first.
func (rs runStore) oldestQueued(ctx context.Context) (string, bool, error) {
	return rs.store.OldestQueuedOrganizerRun(ctx)
}

// claim turns a queued run into a running one; false when it was no longer queued (aborted).
func (rs runStore) claim(ctx context.Context, id string, at time.Time) (bool, error) {
	return rs.store.ClaimOrganizerRun(ctx, id, string(PhaseScan), at)
}

// progressRow is what a running run writes at each checkpoint.
type progressRow struct {
	phase        Phase
	initial      int
	final        int
	ratio        float64
	headroom     int
	tokens       int
	report       string
	reportChange bool
}

func (p progressRow) stored() memory.RunProgress {
	return memory.RunProgress{Phase: string(p.phase), InitialCount: p.initial, FinalCount: p.final,
		CompressionRatio: p.ratio, QuotaHeadroomAtStart: p.headroom, TokenUsageTotal: p.tokens, Report: p.report,
		KeepReport: !p.reportChange}
}

// update writes a running run's row; false when the row is no longer running (aborted by
// another process), which the run takes as its cue to stop.
func (rs runStore) update(ctx context.Context, id string, p progressRow) (bool, error) {
	return rs.store.UpdateRunningOrganizerRun(ctx, id, p.stored())
}

// finish records a run's end whatever its row says now; the report is always written.
func (rs runStore) finish(ctx context.Context, id string, status Status, p progressRow, errCode string, at time.Time) error {
	sp := p.stored()
	sp.KeepReport = false
	return rs.store.FinishOrganizerRun(ctx, id, string(status), sp, errCode, at)
}

// setStatus moves a run from one status to another; false when it was not in from.
func (rs runStore) setStatus(ctx context.Context, id string, from, to Status, errCode string, at time.Time) (bool, error) {
	return rs.store.SetOrganizerRunStatus(ctx, id, string(from), string(to), errCode, at)
}

// saveReport stores a finished run's report after a review applied decisions.
func (rs runStore) saveReport(ctx context.Context, id string, final int, ratio float64, report string) error {
	return rs.store.SaveOrganizerRunReport(ctx, id, final, ratio, report)
}

func (rs runStore) get(ctx context.Context, id string) (*runRow, error) {
	o, ok, err := rs.store.OrganizerRun(ctx, id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, codeErr(CodeRunNotFound, map[string]any{"Run": id}, "unable to find run %s", id)
	}
	return rowOf(o), nil
}

// list pages runs newest first, only those in statuses when any are given.
func (rs runStore) list(ctx context.Context, statuses []Status, limit, offset int) ([]*runRow, error) {
	var ss []string
	for _, st := range statuses {
		ss = append(ss, string(st))
	}
	runs, err := rs.store.OrganizerRuns(ctx, ss, limit, offset)
	if err != nil {
		return nil, err
	}
	var out []*runRow
	for _, o := range runs {
		out = append(out, rowOf(o))
	}
	return out, nil
}

func (rs runStore) count(ctx context.Context, status Status) (int, error) {
	return rs.store.CountOrganizerRuns(ctx, string(status))
}

// lastScheduledDone is when the newest finished scheduled run started.
func (rs runStore) lastScheduledDone(ctx context.Context) (time.Time, bool, error) {
	return rs.store.LatestOrganizerRunStart(ctx, string(TriggerScheduled), string(StatusDone))
}

// createdSince counts live ordinary memories created after t.
func (rs runStore) createdSince(ctx context.Context, t time.Time) (int, error) {
	return rs.store.CountCreatedSince(ctx, t)
}

// failInterrupted marks runs left "running" by a process that died as failed.
func (rs runStore) failInterrupted(ctx context.Context, at time.Time) (int, error) {
	return rs.store.FailRunningOrganizerRuns(ctx, CodeInterrupted, at)
}
