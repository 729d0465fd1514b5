package organizer

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
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
}

// RunDetail is a run with its typed report (nil for a queued run or an unreadable report).
type RunDetail struct {
	RunSummary
	Report *Report `json:"report"`
	// ReportError says why a stored report could not be read (a newer version).
	ReportError *RunError `json:"report_error,omitempty"`
}

const runColumns = `id, trigger, mode, status, phase, started_at, finished_at, initial_count, final_count,
	compression_ratio, quota_headroom_at_start, token_usage_total, report, error`

type runRow struct {
	RunSummary
	report string
}

func ts(t time.Time) string { return t.UTC().Format(memory.IndexTimeLayout) }

func parseTS(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func scanRun(sc interface{ Scan(...any) error }) (*runRow, error) {
	var (
		r                runRow
		trigger, mode    string
		status, phase    string
		started, errCode string
		finished         sql.NullString
	)
	if err := sc.Scan(&r.ID, &trigger, &mode, &status, &phase, &started, &finished, &r.InitialCount, &r.FinalCount,
		&r.CompressionRatio, &r.QuotaHeadroomAtStart, &r.TokenUsageTotal, &r.report, &errCode); err != nil {
		return nil, err
	}
	r.Trigger, r.Mode, r.Status, r.Phase = Trigger(trigger), Mode(mode), Status(status), Phase(phase)
	r.StartedAt = parseTS(started)
	if finished.Valid && finished.String != "" {
		t := parseTS(finished.String)
		r.FinishedAt = &t
	}
	r.RejectionBuckets = map[string]int{}
	var head struct {
		Version          int            `json:"version"`
		Counts           Counts         `json:"counts"`
		RejectionBuckets map[string]int `json:"rejection_buckets"`
		Error            *RunError      `json:"error"`
	}
	// Lists read only the head of each report, not its decisions.
	if json.Unmarshal([]byte(r.report), &head) == nil && head.Version == ReportVersion {
		r.Counts, r.Error = head.Counts, head.Error
		if head.RejectionBuckets != nil {
			r.RejectionBuckets = head.RejectionBuckets
		}
	}
	if r.Error == nil && errCode != "" {
		r.Error = &RunError{Code: errCode, Message: errCode}
	}
	return &r, nil
}

// runStore reads and writes memory_organize_runs.
type runStore struct{ db *sql.DB }

func (rs runStore) insertQueued(ctx context.Context, id string, trigger Trigger, mode Mode, at time.Time) error {
	if _, err := rs.db.ExecContext(ctx, `INSERT INTO memory_organize_runs(id, trigger, mode, status, phase, started_at)
		VALUES(?, ?, ?, ?, '', ?)`, id, string(trigger), string(mode), string(StatusQueued), ts(at)); err != nil {
		return fmt.Errorf("organizer: unable to record run: %w", err)
	}
	return nil
}

// oldestQueued returns the id of the queued run asked for first.
func (rs runStore) oldestQueued(ctx context.Context) (string, bool, error) {
	var id string
	err := rs.db.QueryRowContext(ctx, `SELECT id FROM memory_organize_runs WHERE status = 'queued'
		ORDER BY started_at, id LIMIT 1`).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("organizer: unable to read queued runs: %w", err)
	}
	return id, true, nil
}

// claim turns a queued run into a running one; false when it was no longer queued (aborted).
func (rs runStore) claim(ctx context.Context, id string, at time.Time) (bool, error) {
	res, err := rs.db.ExecContext(ctx, `UPDATE memory_organize_runs SET status = 'running', phase = ?, started_at = ?
		WHERE id = ? AND status = 'queued'`, string(PhaseScan), ts(at), id)
	if err != nil {
		return false, fmt.Errorf("organizer: unable to start run %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
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

// update writes a running run's row; false when the row is no longer running (aborted by
// another process), which the run takes as its cue to stop.
func (rs runStore) update(ctx context.Context, id string, p progressRow) (bool, error) {
	q := `UPDATE memory_organize_runs SET phase = ?, initial_count = ?, final_count = ?, compression_ratio = ?,
		quota_headroom_at_start = ?, token_usage_total = ?`
	args := []any{string(p.phase), p.initial, p.final, p.ratio, p.headroom, p.tokens}
	if p.reportChange {
		q += `, report = ?`
		args = append(args, p.report)
	}
	q += ` WHERE id = ? AND status = 'running'`
	res, err := rs.db.ExecContext(ctx, q, append(args, id)...)
	if err != nil {
		return false, fmt.Errorf("organizer: unable to record run %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// finish records a run's end whatever its row says now.
func (rs runStore) finish(ctx context.Context, id string, status Status, p progressRow, errCode string, at time.Time) error {
	if _, err := rs.db.ExecContext(ctx, `UPDATE memory_organize_runs SET status = ?, phase = ?, finished_at = ?,
		initial_count = ?, final_count = ?, compression_ratio = ?, quota_headroom_at_start = ?, token_usage_total = ?,
		report = ?, error = ? WHERE id = ?`, string(status), string(p.phase), ts(at), p.initial, p.final, p.ratio,
		p.headroom, p.tokens, p.report, errCode, id); err != nil {
		return fmt.Errorf("organizer: unable to record the end of run %s: %w", id, err)
	}
	return nil
}

// setStatus moves a run from one status to another; false when it was not in from.
func (rs runStore) setStatus(ctx context.Context, id string, from, to Status, errCode string, at time.Time) (bool, error) {
	res, err := rs.db.ExecContext(ctx, `UPDATE memory_organize_runs SET status = ?, finished_at = ?, error = ?
		WHERE id = ? AND status = ?`, string(to), ts(at), errCode, id, string(from))
	if err != nil {
		return false, fmt.Errorf("organizer: unable to update run %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// saveReport stores a finished run's report after a review applied decisions.
func (rs runStore) saveReport(ctx context.Context, id string, final int, ratio float64, report string) error {
	if _, err := rs.db.ExecContext(ctx, `UPDATE memory_organize_runs SET final_count = ?, compression_ratio = ?, report = ?
		WHERE id = ?`, final, ratio, report, id); err != nil {
		return fmt.Errorf("organizer: unable to record run %s: %w", id, err)
	}
	return nil
}

func (rs runStore) get(ctx context.Context, id string) (*runRow, error) {
	r, err := scanRun(rs.db.QueryRowContext(ctx, `SELECT `+runColumns+` FROM memory_organize_runs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, codeErr(CodeRunNotFound, map[string]any{"Run": id}, "unable to find run %s", id)
	}
	if err != nil {
		return nil, fmt.Errorf("organizer: unable to read run %s: %w", id, err)
	}
	return r, nil
}

func (rs runStore) list(ctx context.Context, where string, limit, offset int, args ...any) ([]*runRow, error) {
	q := `SELECT ` + runColumns + ` FROM memory_organize_runs`
	if where != "" {
		q += ` WHERE ` + where
	}
	q += ` ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`
	rows, err := rs.db.QueryContext(ctx, q, append(args, limit, offset)...)
	if err != nil {
		return nil, fmt.Errorf("organizer: unable to list runs: %w", err)
	}
	defer rows.Close()
	var out []*runRow
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, fmt.Errorf("organizer: unable to read a run: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (rs runStore) count(ctx context.Context, status Status) (int, error) {
	var n int
	if err := rs.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_organize_runs WHERE status = ?`, string(status)).Scan(&n); err != nil {
		return 0, fmt.Errorf("organizer: unable to count runs: %w", err)
	}
	return n, nil
}

// lastScheduledDone is when the newest finished scheduled run started.
func (rs runStore) lastScheduledDone(ctx context.Context) (time.Time, bool, error) {
	var s sql.NullString
	if err := rs.db.QueryRowContext(ctx, `SELECT MAX(started_at) FROM memory_organize_runs
		WHERE trigger = 'scheduled' AND status = 'done'`).Scan(&s); err != nil {
		return time.Time{}, false, fmt.Errorf("organizer: unable to read the last run: %w", err)
	}
	if !s.Valid || s.String == "" {
		return time.Time{}, false, nil
	}
	return parseTS(s.String), true, nil
}

// createdSince counts live ordinary memories created after t.
func (rs runStore) createdSince(ctx context.Context, t time.Time) (int, error) {
	var n int
	if err := rs.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_meta WHERE archived = 0 AND type <> 'daily'
		AND created > ?`, ts(t)).Scan(&n); err != nil {
		return 0, fmt.Errorf("organizer: unable to count new memories: %w", err)
	}
	return n, nil
}

// failInterrupted marks runs left "running" by a process that died as failed.
func (rs runStore) failInterrupted(ctx context.Context, at time.Time) (int, error) {
	res, err := rs.db.ExecContext(ctx, `UPDATE memory_organize_runs SET status = 'failed', finished_at = ?, error = ?
		WHERE status = 'running'`, ts(at), CodeInterrupted)
	if err != nil {
		return 0, fmt.Errorf("organizer: unable to recover interrupted runs: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
