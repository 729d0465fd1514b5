package organizer

import (
	"testing"
	"time"

	"engram/backend/memory"
)

// TestFullScopeGetsItsScheduledRuns: a full scope refuses new memories, so the rule "at least N
// new memories since the last run" skipped every scheduled run on it for ever and nothing tidied
// it. A scope over the organizer's target now gets its run whatever the count; only a run that
// would repeat the last one — which freed nothing, with nothing changed since — is skipped, so
// the timer does not loop on it. Over the ladder (critical) and exhausted; a real store whose
// quota limit puts the scope there.
func TestFullScopeGetsItsScheduledRuns(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit int
		level string
	}{
		{"critical", 20, memory.LevelCritical},
		{"exhausted", 10, memory.LevelExhausted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			dupes(e) // written under the default limit, then the home is opened under tc.limit
			e.store = e.openStore(tc.limit)
			st := onSettings()
			st.MinNewMemories = 5
			e.svc = e.newService(e.store, enabled(st))
			tick := func() string {
				t.Helper()
				e.clock.Advance(13 * time.Hour)
				timers := e.clock.pending(schedTimer)
				if len(timers) != 1 {
					t.Fatalf("%d scheduling timers", len(timers))
				}
				timers[0].fire()
				e.wait()
				s, err := e.svc.Status(e.ctx)
				if err != nil {
					t.Fatal(err)
				}
				return s.LastSkip
			}
			count := func() int {
				r, err := e.svc.Runs(e.ctx, RunsParams{})
				if err != nil {
					t.Fatal(err)
				}
				return len(r.Runs)
			}
			if skip := tick(); skip != "" || count() != 1 {
				t.Fatalf("first tick: skip %q, %d runs", skip, count())
			}
			if q, _ := e.store.Quota(e.ctx); q.Level != tc.level {
				t.Fatalf("quota level %s, want %s", q.Level, tc.level)
			}
			// The first run freed room; the scope is still over the target with no new memory:
			// it runs again (it was skipped as too_few_new_memories, every tick).
			if skip := tick(); skip != "" || count() != 2 {
				t.Fatalf("second tick on a full scope: skip %q, %d runs; want a run", skip, count())
			}
			// That run freed nothing and nothing changed since: the next tick is skipped, said why.
			if skip := tick(); skip != SkipNothingToFree || count() != 2 {
				t.Fatalf("third tick: skip %q, %d runs; want %s and no run", skip, count(), SkipNothingToFree)
			}
			// A person edits a memory: there may be something to tidy again.
			body := "The user lives in Berlin, works remotely and cycles to the office twice a week."
			e.write(memory.ActorUser, memory.Item{Op: memory.OpUpdate, Slug: "lives-berlin", Scope: memory.ScopeGlobal, Body: &body})
			if skip := tick(); skip != "" || count() != 3 {
				t.Fatalf("tick after an edit: skip %q, %d runs; want a run", skip, count())
			}
			if skip := tick(); skip != SkipNothingToFree || count() != 3 {
				t.Fatalf("tick after that: skip %q, %d runs; want %s", skip, count(), SkipNothingToFree)
			}
		})
	}
}
