package extraction

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"engram/backend/llm/llmtest"
	"engram/backend/memory"
	"engram/backend/settings"
)

// record keeps msgs in the session as the api does before each run.
func (f *fx) record(session string, msgs ...Message) {
	f.t.Helper()
	var turns []memory.TurnInput
	for _, m := range msgs {
		turns = append(turns, memory.TurnInput{Role: m.Role, Content: m.Content, MsgID: m.ID})
	}
	if _, err := f.store.RecordSession(f.ctx, memory.SessionRecord{Agent: "claude-code", Session: session, Turns: turns}, nil); err != nil {
		f.t.Fatal(err)
	}
}

// process is another Engram process on the fixture's home (the next hook's detached run).
func (f *fx) process(p Planner) *Service {
	s := New(f.ctx, Options{Store: f.store, Planner: p, Logger: quiet, Now: f.clock.Now, Passive: true,
		Catalog: testCatalog(f.t), Settings: settings.New(f.store, "en")})
	f.t.Cleanup(s.Close)
	return s
}

// A turn whose run failed is planned again by the next run that sees it. The trigger: a
// hook's detached `engram extract` was killed mid-run (its row ended failed, canceled); the
// hook never sends a claimed turn again, and the next turn's run read it from the stored
// session as context "its own run planned": the offline extractor skipped it and the model was
// asked for "the last user turn" only, so "remember …" was lost. A turn whose run ended is
// still context (planned="earlier").
func TestFailedTurnIsPlannedAgain(t *testing.T) {
	first := Message{Role: "user", Content: "Remember that I prefer kebab-case for URL paths.", ID: "u1"}
	next := []Message{{Role: "user", Content: "Please run the unit tests again now.", ID: "u2"}, {Role: "assistant", Content: "Running.", ID: "a2"}}
	for _, killed := range []bool{true, false} {
		for _, offline := range []bool{true, false} {
			t.Run(fmt.Sprintf("killed %v offline %v", killed, offline), func(t *testing.T) {
				g := newGatePlanner()
				f := newFx(t, g)
				f.record("s1", first)
				d1, err := f.svc.Request(f.ctx, Request{SessionID: "s1", Agent: "claude-code", Messages: []Message{first}}, false)
				if err != nil {
					t.Fatal(err)
				}
				<-g.started
				if !killed {
					g.release <- struct{}{} // the run ends (its plan is empty: noop)
					f.waitFor(d1.ID, ended)
				}
				f.svc.Close() // the process ends: a run still going is cancelled
				rows, _, _ := f.store.ExtractionRuns(f.ctx, memory.ExtractionRunFilter{Session: "s1"})
				if want := map[bool]string{true: StatusFailed, false: StatusNoop}[killed]; len(rows) != 1 || rows[0].Status != want {
					t.Fatalf("first run %+v, want %s", rows, want)
				}

				f.clock.Advance(60e9)
				f.record("s1", next...)
				var srv *llmtest.Server
				var p Planner = NewOffline()
				if !offline {
					srv = llmtest.NewOpenAI(t)
					srv.Push(llmtest.Call("SubmitMemoryPlan", `{"status":"noop","items":[]}`))
					p = modelOn(t, srv)
				}
				d, err := f.process(p).Request(f.ctx, Request{SessionID: "s1", Agent: "claude-code", Messages: next}, true)
				if err != nil {
					t.Fatal(err)
				}
				if offline {
					_, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "feedback-prefer-kebab-case-url-paths")
					wrote := len(d.Report.Applied) > 0
					if wrote != killed {
						t.Fatalf("run %+v %+v (lookup %v): want the failed turn planned %v", d.RunSummary, d.Report, err, killed)
					}
					return
				}
				msgs := srv.Requests()[0].Messages()
				sent := fmt.Sprint(msgs[len(msgs)-1]["content"])
				marked := strings.Contains(sent, `<user-turn n="1" planned="earlier">`)
				if !strings.Contains(sent, first.Content) || marked == killed || strings.Contains(sent, `<user-turn n="2" planned`) {
					t.Fatalf("the model was sent (killed %v):\n%s", killed, sent)
				}
			})
		}
	}
}

// A one-shot process (the CLI) whose caller gives up mid-run (a signal) says how the run
// ended — failed, canceled — not that it is still running. The trigger: a killed detached
// `engram extract` wrote "Extraction: Running (0 applied, 0 refused)" into hook.log.
func TestOneShotReportsTheRealEnd(t *testing.T) {
	g := newGatePlanner()
	f := newFx(t, nil)
	svc := f.process(g)
	ctx, cancel := context.WithCancel(f.ctx)
	go func() {
		<-g.started
		cancel()
	}()
	d, err := svc.Request(ctx, turn("s1", "Remember that I prefer kebab-case for URL paths."), true)
	if err != nil || d.Status != StatusFailed || d.Reason != FailCanceled || d.FinishedAt == nil {
		t.Fatalf("run %+v %v, want failed (canceled) with its end", d.RunSummary, err)
	}
}
