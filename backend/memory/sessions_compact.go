package memory

import (
	"context"
	"fmt"
	"strings"
)

// CompactSession folds a session's older messages into its summary when it holds more than
// SessionCompactAt messages: the deferred half of a RecordSession with Defer set, run in the
// background by long-lived processes so a model's summary never delays the recording caller.
// It reports whether it compacted; a session gone meanwhile is not an error.
func (s *Store) CompactSession(ctx context.Context, agent, id string, summarise Summariser) (bool, error) {
	if s.readOnly {
		return false, s.readOnlyErr()
	}
	ok, err := s.compactSession(ctx, agent, id, summarise, SessionCompactAt)
	if err != nil && CodeOf(err) == CodeSessionNotFound {
		return false, nil
	}
	return ok, err
}

// compactSession folds all but the last SessionKeep messages into the summary once the
// session holds more than over messages. The summariser runs outside any transaction; the
// fold then applies only if nobody compacted the session meanwhile. A failing summariser (an
// LLM that is down) falls back to the extractive summary, so the bound always holds.
func (s *Store) compactSession(ctx context.Context, agent, id string, summarise Summariser, over int) (bool, error) {
	sess, err := s.getSession(ctx, agent, id)
	if err != nil {
		return false, err
	}
	if sess.TurnsKept <= over {
		return false, nil
	}
	turns, err := s.SessionTurns(ctx, agent, id)
	if err != nil {
		return false, err
	}
	fold := turns[:len(turns)-SessionKeep]
	// The session's summary is the project's it was first seen in (history search there reads
	// it); a message recorded in another project makes that project's own summary
	// (session_summaries), so no project's summary holds another's words and none leaves the
	// session unsummarised.
	var own []SessionTurn
	for _, t := range fold {
		if t.ProjectKey == sess.ProjectKey {
			own = append(own, t)
		}
	}
	others, err := s.otherProjectFolds(ctx, sess, fold)
	if err != nil {
		return false, err
	}
	summary := sess.Summary
	if len(own) > 0 {
		in := SummaryInput{Session: sess, Previous: sess.Summary, Turns: own}
		if in.Produced, err = s.producedTurns(ctx, agent, id, own); err != nil {
			return false, err
		}
		summary = s.summariseFold(ctx, in, summarise)
	}
	if err := s.summariseOtherProjects(ctx, sess, others, summarise); err != nil {
		return false, err
	}
	last := fold[len(fold)-1].Seq
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("memory: unable to compact session: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE sessions SET summary = ?, summarized = summarized + ?
		WHERE agent = ? AND id = ? AND summarized = ?`, summary, len(fold), agent, id, sess.Summarized)
	if err != nil {
		return false, fmt.Errorf("memory: unable to compact session: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil // compacted (or deleted) by someone else meanwhile
	}
	if err := storeProjectSummaries(ctx, tx, sess, others, indexTime(s.Now())); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM session_turns WHERE agent = ? AND session = ? AND seq <= ?`,
		agent, id, last); err != nil {
		return false, fmt.Errorf("memory: unable to compact session: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("memory: unable to compact session: %w", err)
	}
	return true, nil
}

// producedTurns lists which of turns produced a memory: memories whose source names this
// session and turn (extraction records the seq as source.turn).
func (s *Store) producedTurns(ctx context.Context, agent, id string, turns []SessionTurn) (map[int]bool, error) {
	out := map[int]bool{}
	if len(turns) == 0 {
		return out, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT json_extract(source, '$.turn') FROM memory_meta
		WHERE json_extract(source, '$.session') = ? AND json_extract(source, '$.turn') BETWEEN ? AND ?
		AND COALESCE(json_extract(source, '$.agent'), '') IN ('', ?)`, id, turns[0].Seq, turns[len(turns)-1].Seq, agent)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read a session's memories: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var turn int
		if err := rows.Scan(&turn); err != nil {
			return nil, fmt.Errorf("memory: unable to read a session's memories: %w", err)
		}
		out[turn] = true
	}
	return out, rows.Err()
}

// summaryLineChars bounds one message's line in an extractive summary.
const summaryLineChars = 300

// ExtractiveSummary is the summary without a model: the previous summary, then the first and
// last of the folded messages and every one that produced a memory, each on one line.
func ExtractiveSummary(in SummaryInput) string {
	var b strings.Builder
	if p := strings.TrimSpace(in.Previous); p != "" {
		b.WriteString(p)
		b.WriteByte('\n')
	}
	for i, t := range in.Turns {
		if i != 0 && i != len(in.Turns)-1 && !in.Produced[t.Seq] {
			continue
		}
		line := strings.Join(strings.Fields(t.Content), " ")
		if r := []rune(line); len(r) > summaryLineChars {
			line = string(r[:summaryLineChars]) + "…"
		}
		mark := ""
		if in.Produced[t.Seq] {
			mark = " *"
		}
		fmt.Fprintf(&b, "- #%d %s%s: %s\n", t.Seq, t.Role, mark, line)
	}
	return strings.TrimRight(b.String(), "\n")
}

// trimSummary keeps a summary within MaxSessionSummary, dropping its oldest lines first.
func trimSummary(s string) string {
	for len(s) > MaxSessionSummary {
		i := strings.IndexByte(s, '\n')
		if i < 0 || i+1 >= len(s) {
			return cut(s, MaxSessionSummary)
		}
		s = s[i+1:]
	}
	return s
}
