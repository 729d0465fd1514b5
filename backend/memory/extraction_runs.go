package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ExtractionRun is one row of extraction_runs. The extraction package owns what its strings
// mean (statuses, skip reasons, the report's JSON); the store only keeps the rows, so that no
// other package runs SQL on the index.
type ExtractionRun struct {
	ID, Session, Agent, Workdir string
	Status, SkipReason          string
	StartedAt                   time.Time
	FinishedAt                  *time.Time
	Model                       string
	ItemsApplied, ItemsRejected int
	InputTokens, OutputTokens   int
	// MessageHash identifies the user message the run covered (the "already covered" gate).
	MessageHash string
	Report      string
}

// ExtractionRunFilter narrows a listing; zero values list everything, newest first.
type ExtractionRunFilter struct {
	Session string
	// Caller, when set, keeps the runs of one caller's session: its agent and its project
	// folder, both compared exactly ("" included). A session id is what the agent said, and
	// two agents (or one agent in two projects) may say the same one.
	Caller *RunCaller
	Status string
	Limit  int
	Offset int
}

// RunCaller is who ran a session's extraction: the agent and the canonical project folder.
type RunCaller struct{ Agent, Workdir string }

const extractionRunColumns = `id, session, agent, workdir, status, skip_reason, started_at, finished_at, model,
	items_applied, items_rejected, input_tokens, output_tokens, message_hash, report`

func scanExtractionRun(sc interface{ Scan(...any) error }) (ExtractionRun, error) {
	var (
		r        ExtractionRun
		started  string
		finished sql.NullString
	)
	if err := sc.Scan(&r.ID, &r.Session, &r.Agent, &r.Workdir, &r.Status, &r.SkipReason, &started, &finished, &r.Model,
		&r.ItemsApplied, &r.ItemsRejected, &r.InputTokens, &r.OutputTokens, &r.MessageHash, &r.Report); err != nil {
		return r, err
	}
	r.StartedAt = parseRunTime(started)
	if finished.Valid && finished.String != "" {
		t := parseRunTime(finished.String)
		r.FinishedAt = &t
	}
	return r, nil
}

func finishedArg(t *time.Time) any {
	if t == nil {
		return nil
	}
	return indexTime(*t)
}

// PutExtractionRun inserts the run or replaces the row of the same id (a run records itself
// when it is claimed and again when it ends).
func (s *Store) PutExtractionRun(ctx context.Context, r ExtractionRun) error {
	if s.readOnly {
		return s.readOnlyErr()
	}
	report := r.Report
	if report == "" {
		report = "{}"
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO extraction_runs(`+extractionRunColumns+`)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(id) DO UPDATE SET status = excluded.status, skip_reason = excluded.skip_reason,
		finished_at = excluded.finished_at, model = excluded.model, items_applied = excluded.items_applied,
		items_rejected = excluded.items_rejected, input_tokens = excluded.input_tokens,
		output_tokens = excluded.output_tokens, message_hash = excluded.message_hash, report = excluded.report,
		started_at = excluded.started_at`,
		r.ID, r.Session, r.Agent, r.Workdir, r.Status, r.SkipReason, indexTime(r.StartedAt), finishedArg(r.FinishedAt),
		r.Model, r.ItemsApplied, r.ItemsRejected, r.InputTokens, r.OutputTokens, r.MessageHash, report)
	if err != nil {
		return fmt.Errorf("memory: unable to record extraction run %s: %w", r.ID, err)
	}
	return nil
}

// ExtractionRunByID returns one run; ok is false when there is none.
func (s *Store) ExtractionRunByID(ctx context.Context, id string) (ExtractionRun, bool, error) {
	r, err := scanExtractionRun(s.db.QueryRowContext(ctx, `SELECT `+extractionRunColumns+` FROM extraction_runs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("memory: unable to read extraction run %s: %w", id, err)
	}
	return r, true, nil
}

// ExtractionRuns lists runs newest first, with the total the filter matches.
func (s *Store) ExtractionRuns(ctx context.Context, f ExtractionRunFilter) ([]ExtractionRun, int, error) {
	var conds []string
	var args []any
	if f.Session != "" {
		conds = append(conds, "session = ?")
		args = append(args, f.Session)
	}
	if f.Caller != nil {
		conds = append(conds, "agent = ? AND workdir = ?")
		args = append(args, f.Caller.Agent, f.Caller.Workdir)
	}
	if f.Status != "" {
		conds = append(conds, "status = ?")
		args = append(args, f.Status)
	}
	where := ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM extraction_runs`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("memory: unable to count extraction runs: %w", err)
	}
	limit := f.Limit
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+extractionRunColumns+` FROM extraction_runs`+where+`
		ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`, append(args, limit, max(f.Offset, 0))...)
	if err != nil {
		return nil, 0, fmt.Errorf("memory: unable to list extraction runs: %w", err)
	}
	defer rows.Close()
	out := []ExtractionRun{}
	for rows.Next() {
		r, err := scanExtractionRun(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("memory: unable to read extraction run: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("memory: unable to list extraction runs: %w", err)
	}
	return out, total, nil
}

// CloseExtractionRuns ends the runs started before before and left in one of statuses (a
// process that stopped while they were queued or running) with status to and reason, at at;
// it returns how many it closed.
func (s *Store) CloseExtractionRuns(ctx context.Context, statuses []string, to, reason string, at, before time.Time) (int, error) {
	if s.readOnly || len(statuses) == 0 {
		return 0, nil
	}
	args := []any{to, reason, indexTime(at), indexTime(before)}
	for _, st := range statuses {
		args = append(args, st)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE extraction_runs SET status = ?, skip_reason = ?, finished_at = ?
		WHERE started_at < ? AND status IN (?`+strings.Repeat(", ?", len(statuses)-1)+`)`, args...)
	if err != nil {
		return 0, fmt.Errorf("memory: unable to close interrupted extraction runs: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// Rejection is a slug a person rejected, remembered until ExpiresAt.
type Rejection struct {
	Scope      Scope     `json:"scope"`
	ScopeKey   string    `json:"scope_key"`
	Slug       string    `json:"slug"`
	Title      string    `json:"title"`
	RejectedAt time.Time `json:"rejected_at"`
}

// ActiveRejections lists the rejections that have not expired, newest first, at most limit.
func (s *Store) ActiveRejections(ctx context.Context, limit int) ([]Rejection, error) {
	if limit <= 0 {
		limit = 200
	}
	rows, err := s.db.QueryContext(ctx, `SELECT scope, scope_key, slug, title, rejected_at FROM memory_rejections
		WHERE expires_at > ? ORDER BY rejected_at DESC LIMIT ?`, s.rfc(s.opts.Now()), limit)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read rejections: %w", err)
	}
	defer rows.Close()
	var out []Rejection
	for rows.Next() {
		var r Rejection
		var at string
		if err := rows.Scan(&r.Scope, &r.ScopeKey, &r.Slug, &r.Title, &at); err != nil {
			return nil, fmt.Errorf("memory: unable to read rejection: %w", err)
		}
		r.RejectedAt = parseRunTime(at)
		out = append(out, r)
	}
	return out, rows.Err()
}
