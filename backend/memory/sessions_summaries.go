package memory

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// ProjectSummary is the summary of a session's messages recorded in another project than the
// one the session was first seen in (Session.Summary is that first project's): one session id
// used from two projects keeps each project's words in that project's summary.
type ProjectSummary struct {
	Workdir    string `json:"workdir,omitempty"`
	ProjectKey string `json:"project_key,omitempty"`
	Summary    string `json:"summary"`
	Summarized int    `json:"summarized"`
}

// projectFold is the part of a fold recorded in one project other than the session's first.
type projectFold struct {
	key, workdir string
	turns        []SessionTurn
	previous     ProjectSummary
	summary      string
}

// otherProjectFolds groups the fold's messages recorded outside the session's first project
// by their project, oldest first, each with that project's summary so far.
func (s *Store) otherProjectFolds(ctx context.Context, sess Session, fold []SessionTurn) ([]*projectFold, error) {
	var out []*projectFold
	by := map[string]*projectFold{}
	for _, t := range fold {
		if t.ProjectKey == sess.ProjectKey {
			continue
		}
		f := by[t.ProjectKey]
		if f == nil {
			f = &projectFold{key: t.ProjectKey, workdir: t.Workdir}
			by[t.ProjectKey] = f
			out = append(out, f)
		}
		f.turns = append(f.turns, t)
	}
	for _, f := range out {
		err := s.db.QueryRowContext(ctx, `SELECT workdir, summary, summarized FROM session_summaries
			WHERE agent = ? AND session = ? AND scope_key = ?`, sess.Agent, sess.ID, f.key).
			Scan(&f.previous.Workdir, &f.previous.Summary, &f.previous.Summarized)
		if err != nil && err != sql.ErrNoRows {
			return nil, fmt.Errorf("memory: unable to read a session's project summary: %w", err)
		}
	}
	return out, nil
}

// summariseFold writes the summary of one project's folded messages: the model's when there
// is one and it answers, else the extractive one. in.Session names that project, so nothing of
// another project's reaches the summariser.
func (s *Store) summariseFold(ctx context.Context, in SummaryInput, summarise Summariser) string {
	summary := ""
	if summarise != nil {
		var err error
		if summary, err = summarise(ctx, in); err != nil {
			s.log.Warn("memory: the session summariser failed; keeping an extractive summary", "session", in.Session.ID, "err", err)
			summary = ""
		}
	}
	if strings.TrimSpace(summary) == "" {
		summary = ExtractiveSummary(in)
	}
	// A model's summary is stored like a message: whatever the guard refuses in a memory is
	// redacted from it too (the turns it read were redacted, its own words were not).
	return trimSummary(RedactSecrets(summary))
}

// summariseOtherProjects fills each fold's new summary, each from its own project's messages
// and previous summary only.
func (s *Store) summariseOtherProjects(ctx context.Context, sess Session, folds []*projectFold, summarise Summariser) error {
	for _, f := range folds {
		own := sess
		own.Workdir, own.ProjectKey, own.Summary, own.Summarized = f.workdir, f.key, f.previous.Summary, f.previous.Summarized
		in := SummaryInput{Session: own, Previous: f.previous.Summary, Turns: f.turns}
		var err error
		if in.Produced, err = s.producedTurns(ctx, sess.Agent, sess.ID, f.turns); err != nil {
			return err
		}
		f.summary = s.summariseFold(ctx, in, summarise)
	}
	return nil
}

// storeProjectSummaries writes the folds' summaries in the compaction's transaction.
func storeProjectSummaries(ctx context.Context, tx *sql.Tx, sess Session, folds []*projectFold, now string) error {
	for _, f := range folds {
		if _, err := tx.ExecContext(ctx, `INSERT INTO session_summaries(agent, session, scope_key, workdir, summary, summarized, updated)
			VALUES(?, ?, ?, ?, ?, ?, ?) ON CONFLICT(agent, session, scope_key) DO UPDATE SET workdir = excluded.workdir,
			summary = excluded.summary, summarized = session_summaries.summarized + excluded.summarized, updated = excluded.updated`,
			sess.Agent, sess.ID, f.key, f.workdir, f.summary, len(f.turns), now); err != nil {
			return fmt.Errorf("memory: unable to compact session: %w", err)
		}
	}
	return nil
}

// projectSummaries lists a session's summaries of its other projects, oldest project first.
func (s *Store) projectSummaries(ctx context.Context, agent, id string) ([]ProjectSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT workdir, scope_key, summary, summarized FROM session_summaries
		WHERE agent = ? AND session = ? AND summary != '' ORDER BY rowid`, agent, id)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read a session's project summaries: %w", err)
	}
	defer rows.Close()
	var out []ProjectSummary
	for rows.Next() {
		var p ProjectSummary
		if err := rows.Scan(&p.Workdir, &p.ProjectKey, &p.Summary, &p.Summarized); err != nil {
			return nil, fmt.Errorf("memory: unable to read a session's project summaries: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
