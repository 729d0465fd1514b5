package extraction

import (
	"context"
	"slices"
	"time"

	"engram/backend/memory"
)

// A turn whose run failed is planned again. The trigger: the detached `engram extract` of a
// hook was killed mid-run; its row ended failed (canceled), the hook had already claimed the
// turn so it was never sent again, and the next turn's run took it from the stored session as
// context "their own runs planned" — the model was asked to plan only the last turn, the
// offline extractor skipped it, and the fact was lost. Each run now records the person's
// messages it planned (Report.Covered, by ContentHash); an earlier message of the window that
// only failed runs covered is presented as new (not in Input.Planned), so both planners read it.

// plannedRecorded lists, of the stored session's user messages put in the window as context
// (their ContentHash in prior), the ones a run of the session planned or is planning: all but
// those that only runs which failed covered. self is the asking run's id, left out.
func (s *Service) plannedRecorded(ctx context.Context, key sessionKey, self string, prior []string) []string {
	if len(prior) == 0 {
		return nil
	}
	rows, _, err := s.o.Store.ExtractionRuns(ctx, memory.ExtractionRunFilter{Session: key.session, Caller: key.caller(), Limit: 20})
	if err != nil {
		return prior // as before: context the runs of their own turns planned
	}
	now := s.o.Now()
	planned, failed := map[string]bool{}, map[string]bool{}
	for _, row := range rows {
		if row.ID == self {
			continue
		}
		d := detailOf(row)
		switch {
		case row.Status == StatusFailed:
			mark(failed, d.Report.Covered)
		case (row.Status == StatusRunning || row.Status == StatusQueued) && now.Sub(row.StartedAt) > staleAfter:
			mark(failed, d.Report.Covered) // a process that died without a word (Recover closes it)
		default:
			mark(planned, d.Report.Covered)
		}
	}
	var out []string
	for _, h := range prior {
		if planned[h] || !failed[h] {
			out = append(out, h)
		}
	}
	return out
}

func mark(set map[string]bool, hashes []string) {
	for _, h := range hashes {
		set[h] = true
	}
}

// covers lists the ContentHash of the user messages of turns that are not in planned: what
// a run plans as new (the window's newest message among them).
func covers(turns []Message, planned []string) []string {
	var out []string
	for _, m := range turns {
		if m.Role != "user" {
			continue
		}
		if h := ContentHash(m.Content); !slices.Contains(planned, h) && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// endGrace bounds how long a one-shot process's request waits, once its caller gave up (a
// signal), for the run it cancelled to record its end.
const endGrace = 10 * time.Second

// awaitEnd cancels r for a one-shot process whose caller gave up, and waits (within endGrace)
// for its end to be recorded. The trigger: a killed `engram extract` printed its run as
// "Running (0 applied, 0 refused)" into hook.log while the row ended failed (canceled); it
// now prints the end the row holds.
func (s *Service) awaitEnd(r *run) {
	s.mu.Lock()
	cancel := r.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	select {
	case <-r.done:
	case <-time.After(endGrace):
	}
}
