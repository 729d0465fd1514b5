package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// OrganizerRun is one row of memory_organize_runs. The organizer owns what its strings mean
// (statuses, phases, triggers, modes and the report's JSON); the store only keeps the rows, so
// that no other package runs SQL on the index.
type OrganizerRun struct {
	ID, Trigger, Mode, Status, Phase string
	// StartedAt is when the run started, or for a queued run when it was asked for.
	StartedAt            time.Time
	FinishedAt           *time.Time
	InitialCount         int
	FinalCount           int
	CompressionRatio     float64
	QuotaHeadroomAtStart int
	TokenUsageTotal      int
	Report               string
	Error                string
	// ScopeFilter is the scope instance the run was asked to organize (the organizer's JSON),
	// empty for every scope.
	ScopeFilter string
}

// RunProgress is what a running run records at a checkpoint or at its end. KeepReport leaves
// the stored report as it is (a checkpoint that only looks for an abort).
type RunProgress struct {
	Phase                string
	InitialCount         int
	FinalCount           int
	CompressionRatio     float64
	QuotaHeadroomAtStart int
	TokenUsageTotal      int
	Report               string
	KeepReport           bool
}

// Run statuses the store itself relies on when it queues, claims and recovers runs.
const (
	runQueued  = "queued"
	runRunning = "running"
	runFailed  = "failed"
)

const organizerRunColumns = `id, trigger, mode, status, phase, started_at, finished_at, initial_count, final_count,
	compression_ratio, quota_headroom_at_start, token_usage_total, report, error, scope_filter`

// parseRunTime reads a run's instant; an unreadable one is the zero time, as before the store
// kept these rows.
func parseRunTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func scanOrganizerRun(sc interface{ Scan(...any) error }) (OrganizerRun, error) {
	var (
		r        OrganizerRun
		started  string
		finished sql.NullString
	)
	if err := sc.Scan(&r.ID, &r.Trigger, &r.Mode, &r.Status, &r.Phase, &started, &finished, &r.InitialCount,
		&r.FinalCount, &r.CompressionRatio, &r.QuotaHeadroomAtStart, &r.TokenUsageTotal, &r.Report, &r.Error, &r.ScopeFilter); err != nil {
		return r, err
	}
	r.StartedAt = parseRunTime(started)
	if finished.Valid && finished.String != "" {
		t := parseRunTime(finished.String)
		r.FinishedAt = &t
	}
	return r, nil
}

// QueueOrganizerRun records a run asked for at at, waiting for the run lock.
func (s *Store) QueueOrganizerRun(ctx context.Context, id, trigger, mode string, at time.Time) error {
	return s.QueueScopedOrganizerRun(ctx, id, trigger, mode, "", at)
}

// QueueScopedOrganizerRun is QueueOrganizerRun for a run limited to one scope instance
// (scopeFilter is the organizer's encoding of it; empty means every scope).
func (s *Store) QueueScopedOrganizerRun(ctx context.Context, id, trigger, mode, scopeFilter string, at time.Time) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO memory_organize_runs(id, trigger, mode, status, phase, started_at, scope_filter)
		VALUES(?, ?, ?, ?, '', ?, ?)`, id, trigger, mode, runQueued, indexTime(at), scopeFilter); err != nil {
		return fmt.Errorf("memory: unable to record run %s: %w", id, err)
	}
	return nil
}

// OldestQueuedOrganizerRun returns the id of the queued run asked for first.
func (s *Store) OldestQueuedOrganizerRun(ctx context.Context) (string, bool, error) {
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT id FROM memory_organize_runs WHERE status = ?
		ORDER BY started_at, id LIMIT 1`, runQueued).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("memory: unable to read queued runs: %w", err)
	}
	return id, true, nil
}

// ClaimOrganizerRun turns a queued run into a running one in phase; false when it was no
// longer queued (aborted meanwhile).
func (s *Store) ClaimOrganizerRun(ctx context.Context, id, phase string, at time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE memory_organize_runs SET status = ?, phase = ?, started_at = ?
		WHERE id = ? AND status = ?`, runRunning, phase, indexTime(at), id, runQueued)
	if err != nil {
		return false, fmt.Errorf("memory: unable to start run %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// UpdateRunningOrganizerRun records a checkpoint of a running run; false when the row is no
// longer running (aborted by another process), which the run takes as its cue to stop.
func (s *Store) UpdateRunningOrganizerRun(ctx context.Context, id string, p RunProgress) (bool, error) {
	q := `UPDATE memory_organize_runs SET phase = ?, initial_count = ?, final_count = ?, compression_ratio = ?,
		quota_headroom_at_start = ?, token_usage_total = ?`
	args := []any{p.Phase, p.InitialCount, p.FinalCount, p.CompressionRatio, p.QuotaHeadroomAtStart, p.TokenUsageTotal}
	if !p.KeepReport {
		q += `, report = ?`
		args = append(args, p.Report)
	}
	q += ` WHERE id = ? AND status = ?`
	res, err := s.db.ExecContext(ctx, q, append(args, id, runRunning)...)
	if err != nil {
		return false, fmt.Errorf("memory: unable to record run %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// FinishOrganizerRun records a run's end whatever its row says now.
func (s *Store) FinishOrganizerRun(ctx context.Context, id, status string, p RunProgress, errCode string, at time.Time) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE memory_organize_runs SET status = ?, phase = ?, finished_at = ?,
		initial_count = ?, final_count = ?, compression_ratio = ?, quota_headroom_at_start = ?, token_usage_total = ?,
		report = ?, error = ? WHERE id = ?`, status, p.Phase, indexTime(at), p.InitialCount, p.FinalCount,
		p.CompressionRatio, p.QuotaHeadroomAtStart, p.TokenUsageTotal, p.Report, errCode, id); err != nil {
		return fmt.Errorf("memory: unable to record the end of run %s: %w", id, err)
	}
	return nil
}

// SetOrganizerRunStatus moves a run from one status to another, marking it finished at at;
// false when it was not in from.
func (s *Store) SetOrganizerRunStatus(ctx context.Context, id, from, to, errCode string, at time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE memory_organize_runs SET status = ?, finished_at = ?, error = ?
		WHERE id = ? AND status = ?`, to, indexTime(at), errCode, id, from)
	if err != nil {
		return false, fmt.Errorf("memory: unable to update run %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// SaveOrganizerRunReport stores a finished run's report after a review applied decisions.
func (s *Store) SaveOrganizerRunReport(ctx context.Context, id string, final int, ratio float64, report string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE memory_organize_runs SET final_count = ?, compression_ratio = ?, report = ?
		WHERE id = ?`, final, ratio, report, id); err != nil {
		return fmt.Errorf("memory: unable to record run %s: %w", id, err)
	}
	return nil
}

// OrganizerRun returns one run; ok is false when there is none with that id.
func (s *Store) OrganizerRun(ctx context.Context, id string) (OrganizerRun, bool, error) {
	r, err := scanOrganizerRun(s.db.QueryRowContext(ctx, `SELECT `+organizerRunColumns+` FROM memory_organize_runs
		WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return OrganizerRun{}, false, nil
	}
	if err != nil {
		return OrganizerRun{}, false, fmt.Errorf("memory: unable to read run %s: %w", id, err)
	}
	return r, true, nil
}

// OrganizerRuns pages runs newest first, only those in statuses when any are given.
func (s *Store) OrganizerRuns(ctx context.Context, statuses []string, limit, offset int) ([]OrganizerRun, error) {
	q := `SELECT ` + organizerRunColumns + ` FROM memory_organize_runs`
	var args []any
	if len(statuses) > 0 {
		q += ` WHERE status IN (?` + strings.Repeat(`, ?`, len(statuses)-1) + `)`
		for _, st := range statuses {
			args = append(args, st)
		}
	}
	q += ` ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`
	rows, err := s.db.QueryContext(ctx, q, append(args, limit, offset)...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to list runs: %w", err)
	}
	defer rows.Close()
	var out []OrganizerRun
	for rows.Next() {
		r, err := scanOrganizerRun(rows)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to read a run: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// CountOrganizerRuns counts the runs in status.
func (s *Store) CountOrganizerRuns(ctx context.Context, status string) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_organize_runs WHERE status = ?`, status).Scan(&n); err != nil {
		return 0, fmt.Errorf("memory: unable to count runs: %w", err)
	}
	return n, nil
}

// LatestOrganizerRunStart is when the newest run with trigger and status started; ok is false
// when there is none.
func (s *Store) LatestOrganizerRunStart(ctx context.Context, trigger, status string) (time.Time, bool, error) {
	var v sql.NullString
	if err := s.db.QueryRowContext(ctx, `SELECT MAX(started_at) FROM memory_organize_runs
		WHERE trigger = ? AND status = ?`, trigger, status).Scan(&v); err != nil {
		return time.Time{}, false, fmt.Errorf("memory: unable to read the last run: %w", err)
	}
	if !v.Valid || v.String == "" {
		return time.Time{}, false, nil
	}
	return parseRunTime(v.String), true, nil
}

// FailRunningOrganizerRuns marks every run left "running" as failed with errCode: the caller
// holds the run lock, so their process died.
func (s *Store) FailRunningOrganizerRuns(ctx context.Context, errCode string, at time.Time) (int, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE memory_organize_runs SET status = ?, finished_at = ?, error = ?
		WHERE status = ?`, runFailed, indexTime(at), errCode, runRunning)
	if err != nil {
		return 0, fmt.Errorf("memory: unable to recover interrupted runs: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// CountCreatedSince counts live ordinary memories (not archived, not daily) created after t.
func (s *Store) CountCreatedSince(ctx context.Context, t time.Time) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_meta WHERE archived = 0 AND type <> 'daily'
		AND created > ?`, metaTime(t)).Scan(&n); err != nil {
		return 0, fmt.Errorf("memory: unable to count new memories: %w", err)
	}
	return n, nil
}
