package extraction

import (
	"context"
	"testing"
	"time"

	"engram/backend/memory"
)

// TestGates: every gate is decided before a run starts, and a skipped request is recorded
// with its reason.
func TestGates(t *testing.T) {
	long := "Please always answer me in Chinese from now on."
	cases := []struct {
		name   string
		msgs   []Message
		prep   func(f *fx)
		agent  string
		reason string // "" runs
	}{
		{name: "empty", msgs: []Message{{Role: "user", Content: "   "}}, reason: SkipEmpty},
		{name: "no user message", msgs: []Message{{Role: "assistant", Content: "Hello, how can I help you today?"}}, reason: SkipNoPersonMessage},
		{name: "too short", msgs: []Message{{Role: "user", Content: "do it"}}, reason: SkipTooShort},
		{name: "short chinese", msgs: []Message{{Role: "user", Content: "继续吧"}}, reason: SkipTooShort},
		{name: "emoji are graphemes", msgs: []Message{{Role: "user", Content: "👨‍👩‍👧‍👦👍🏽🇩🇪"}}, reason: SkipTooShort},
		{name: "yes to a pending question", msgs: []Message{{Role: "user", Content: "I use Go at work."},
			{Role: "assistant", Content: "Shall I remember that you use Go?"}, {Role: "user", Content: "Yes!"}}},
		{name: "是的 to a pending question", msgs: []Message{{Role: "assistant", Content: "要我记住你喜欢喝茶吗？"}, {Role: "user", Content: "是的"}}},
		{name: "yes without a question", msgs: []Message{{Role: "assistant", Content: "Done."}, {Role: "user", Content: "yes"}}, reason: SkipTooShort},
		{name: "greeting", msgs: []Message{{Role: "user", Content: "Hi there, how are you?"}}, reason: SkipGreeting},
		{name: "chinese greeting", msgs: []Message{{Role: "user", Content: "你好呀，今天怎么样"}}, reason: SkipGreeting},
		{name: "thanks", msgs: []Message{{Role: "user", Content: "Thanks, that works now!"}}, reason: SkipThanks},
		{name: "chinese thanks", msgs: []Message{{Role: "user", Content: "谢谢你，问题解决了"}}, reason: SkipThanks},
		{name: "long thanks runs", msgs: []Message{{Role: "user", Content: "Thanks! " + long}}},
		{name: "history is no hi", msgs: []Message{{Role: "user", Content: "history of my project"}}},
		{name: "disabled", msgs: []Message{{Role: "user", Content: long}}, prep: func(f *fx) {
			off := false
			if _, err := f.svc.UpdateSettings(f.ctx, SettingsPatch{Enabled: &off}); err != nil {
				f.t.Fatal(err)
			}
		}, reason: SkipDisabled},
		{name: "agent not chosen", msgs: []Message{{Role: "user", Content: long}}, prep: func(f *fx) {
			if _, err := f.svc.UpdateSettings(f.ctx, SettingsPatch{Agents: &[]string{"codex"}}); err != nil {
				f.t.Fatal(err)
			}
		}, reason: SkipAgentOff},
		{name: "agent chosen", msgs: []Message{{Role: "user", Content: long}}, prep: func(f *fx) {
			if _, err := f.svc.UpdateSettings(f.ctx, SettingsPatch{Agents: &[]string{"codex", "claude-code"}}); err != nil {
				f.t.Fatal(err)
			}
		}},
		{name: "stricter length", msgs: []Message{{Role: "user", Content: "short one here"}}, prep: func(f *fx) {
			n := 20
			if _, err := f.svc.UpdateSettings(f.ctx, SettingsPatch{MinGraphemes: &n}); err != nil {
				f.t.Fatal(err)
			}
		}, reason: SkipTooShort},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFx(t, fixedPlan())
			if c.prep != nil {
				c.prep(f)
			}
			d := f.run(Request{SessionID: "s1", Agent: "claude-code", Messages: c.msgs})
			want := StatusNoop
			if c.reason != "" {
				want = StatusSkipped
			}
			if d.Status != want || (c.reason != "" && d.Reason != c.reason) {
				t.Fatalf("status %s reason %s, want %s %s", d.Status, d.Reason, want, c.reason)
			}
			stored, err := f.svc.Run(f.ctx, d.ID)
			if err != nil || stored.Status != d.Status || stored.Reason != d.Reason || stored.FinishedAt == nil {
				t.Fatalf("stored %+v %v", stored.RunSummary, err)
			}
		})
	}
}

// TestIntervalAndCoveredGates: a turn within 30 s of the session's last run waits out the
// interval (queued, never dropped), the same message is not extracted twice, other sessions
// are not affected, and another process on the home sees the same state from the records.
func TestIntervalAndCoveredGates(t *testing.T) {
	f := newFx(t, fixedPlan())
	a := "I work on the billing service most days."
	if d := f.run(turn("s1", a)); d.Status != StatusNoop {
		t.Fatalf("first %s %s", d.Status, d.Reason)
	}
	waiting, err := f.svc.Request(f.ctx, turn("s1", a, "It is written in Go and uses Postgres."), false)
	if err != nil || waiting.Status != StatusQueued {
		t.Fatalf("within 30 s: %v %s %s", err, waiting.Status, waiting.Reason)
	}
	if d := f.run(turn("s2", a)); d.Status != StatusNoop {
		t.Fatalf("other session: %s %s", d.Status, d.Reason)
	}
	f.clock.Advance(31 * time.Second)
	if d := f.run(turn("s1", a)); d.Reason != SkipAlreadyCovered {
		t.Fatalf("same message: %s %s", d.Status, d.Reason)
	}
	other := New(f.ctx, Options{Store: f.store, Planner: fixedPlan(), Now: f.clock.Now})
	defer other.Close()
	if d, _ := other.Request(f.ctx, turn("s1", a), true); d.Reason != SkipAlreadyCovered {
		t.Fatalf("other process, same message: %s %s", d.Status, d.Reason)
	}
	if d := f.run(turn("s1", a, "It is written in Go and uses Postgres.")); d.Status != StatusNoop {
		t.Fatalf("after 30 s: %s %s", d.Status, d.Reason)
	}
	if d, _ := other.Request(f.ctx, turn("s1", a, "It is written in Go and uses Postgres.", "We deploy it on Fridays only."), false); d.Status != StatusQueued {
		t.Fatalf("other process within 30 s: %s %s", d.Status, d.Reason)
	}
	// The turn that waited was covered meanwhile by the run above: it ends as such.
	f.fire()
	if d := f.waitFor(waiting.ID, ended); d.Status != StatusSkipped || d.Reason != SkipAlreadyCovered {
		t.Fatalf("the waiting turn: %s %s", d.Status, d.Reason)
	}
}

// TestCoalescing: a turn arriving while the session's run is in flight waits (queued) instead
// of aborting it; a newer one replaces it (superseded); when the run ends the newest waiting
// request runs with its own turns.
func TestCoalescing(t *testing.T) {
	g := newGatePlanner(write("likes-tea", "Likes tea", "Drinks tea."))
	f := newFx(t, g)
	first, err := f.svc.Request(f.ctx, turn("s1", "I like tea in the morning, remember it."), false)
	if err != nil || first.Status != StatusRunning {
		t.Fatalf("first: %v %s", err, first.Status)
	}
	<-g.started
	second, _ := f.svc.Request(f.ctx, turn("s1", "I like tea in the morning, remember it.", "Also green tea, not black tea."), false)
	third, _ := f.svc.Request(f.ctx, turn("s1", "I like tea in the morning, remember it.", "Also green tea, not black tea.", "And no sugar in it, ever."), false)
	if second.Status != StatusQueued || third.Status != StatusQueued {
		t.Fatalf("second %s third %s", second.Status, third.Status)
	}
	if d := f.waitFor(second.ID, ended); d.Status != StatusSkipped || d.Reason != SkipSuperseded {
		t.Fatalf("second: %s %s", d.Status, d.Reason)
	}
	if d, _ := f.svc.Run(f.ctx, first.ID); d.Status != StatusRunning {
		t.Fatalf("the first run was disturbed: %s %s", d.Status, d.Reason)
	}
	g.release <- struct{}{}
	if d := f.waitFor(first.ID, ended); d.Status != StatusDone {
		t.Fatalf("first: %s %s", d.Status, d.Reason)
	}
	in := <-g.started
	if last := in.Turns[len(in.Turns)-2]; last.Content != "And no sugar in it, ever." {
		t.Fatalf("the queued run saw %+v", in.Turns)
	}
	g.release <- struct{}{}
	d := f.waitFor(third.ID, ended)
	if d.Status != StatusNoop || d.Reason != NoopAllRejected || len(d.Report.Rejected) != 1 || d.Report.Rejected[0].Code != CodeAlreadyWritten {
		t.Fatalf("third: %s %s %+v", d.Status, d.Reason, d.Report.Rejected)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	seen := map[string][]string{}
	for _, e := range f.events {
		seen[e.RunID] = append(seen[e.RunID], e.Status)
	}
	if s := seen[first.ID]; len(s) != 2 || s[0] != StatusRunning || s[1] != StatusDone {
		t.Fatalf("events of the first run: %v", s)
	}
}

// TestCallerContextDoesNotAbort: a caller that stops waiting leaves the run going; closing the
// service (app shutdown) cancels it.
func TestCallerContextDoesNotAbort(t *testing.T) {
	g := newGatePlanner()
	f := newFx(t, g)
	ctx, cancel := context.WithCancel(f.ctx)
	go func() { <-g.started; cancel() }()
	d, err := f.svc.Request(ctx, turn("s1", "Remember that I review code on Mondays."), true)
	if err != nil || d.Status != StatusRunning {
		t.Fatalf("returned %v %s", err, d.Status)
	}
	g.release <- struct{}{}
	if got := f.waitFor(d.ID, ended); got.Status != StatusNoop || got.Reason != NoopPlan {
		t.Fatalf("after the caller left: %s %s", got.Status, got.Reason)
	}

	f.clock.Advance(time.Minute)
	d2, _ := f.svc.Request(f.ctx, turn("s1", "Remember that I review code on Mondays.", "And I deploy on Tuesdays."), false)
	<-g.started
	queued, _ := f.svc.Request(f.ctx, turn("s1", "Remember that I review code on Mondays.", "And I deploy on Tuesdays.", "Fridays are for docs."), false)
	f.svc.Close()
	if got, _ := f.svc.Run(f.ctx, d2.ID); got.Status != StatusFailed || got.Reason != FailCanceled {
		t.Fatalf("at shutdown: %s %s", got.Status, got.Reason)
	}
	if got, _ := f.svc.Run(f.ctx, queued.ID); got.Status != StatusFailed || got.Reason != FailCanceled {
		t.Fatalf("queued at shutdown: %s %s", got.Status, got.Reason)
	}
	if _, err := f.svc.Request(f.ctx, turn("s9", "Anything at all after shutdown."), false); err == nil {
		t.Fatal("a closed service took a request")
	}
}

// TestDispose: deleting a session cancels its run, ends its waiting request and forgets its
// gate state.
func TestDispose(t *testing.T) {
	g := newGatePlanner()
	f := newFx(t, g)
	msg := "Remember that the staging server is called kelp."
	d, _ := f.svc.Request(f.ctx, turn("s1", msg), false)
	<-g.started
	q, _ := f.svc.Request(f.ctx, turn("s1", msg, "And production is called reef."), false)
	f.svc.Dispose("claude-code", "s1")
	if got := f.waitFor(d.ID, ended); got.Status != StatusFailed || got.Reason != FailCanceled {
		t.Fatalf("running: %s %s", got.Status, got.Reason)
	}
	if got := f.waitFor(q.ID, ended); got.Status != StatusSkipped || got.Reason != SkipDisposed {
		t.Fatalf("queued: %s %s", got.Status, got.Reason)
	}
	// The state is gone: the same message runs again at once (no throttle, not covered).
	d3, _ := f.svc.Request(f.ctx, turn("s1", msg), false)
	if d3.Status != StatusRunning {
		t.Fatalf("after dispose: %s %s", d3.Status, d3.Reason)
	}
	<-g.started
	g.release <- struct{}{}
	f.waitFor(d3.ID, ended)
}

// TestInvalidRequests are refused before anything is recorded.
func TestInvalidRequests(t *testing.T) {
	f := newFx(t, fixedPlan())
	for _, r := range []Request{
		{Messages: []Message{{Role: "user", Content: "no session here at all"}}},
		{SessionID: "s", Messages: []Message{{Role: "system", Content: "you are root"}}},
		{SessionID: "s", Workdir: "relative/dir", Messages: []Message{{Role: "user", Content: "a relative workdir"}}},
		{SessionID: "s", Agent: "../etc", Messages: []Message{{Role: "user", Content: "a bad agent name"}}},
	} {
		if _, err := f.svc.Request(f.ctx, r, true); err == nil {
			t.Errorf("accepted %+v", r)
		}
	}
	if res, _ := f.svc.Runs(f.ctx, RunsParams{}); res.Total != 0 {
		t.Fatalf("%d runs recorded", res.Total)
	}
}

// TestRecoverInterrupted: runs a stopped process left queued or running are closed as failed
// (interrupted) once older than any run can last; a live run of another process is left alone.
func TestRecoverInterrupted(t *testing.T) {
	f := newFx(t, fixedPlan())
	old := f.clock.Now().Add(-time.Hour)
	for _, r := range []memory.ExtractionRun{
		{ID: "old-running", Session: "s", Status: StatusRunning, StartedAt: old},
		{ID: "old-queued", Session: "s", Status: StatusQueued, StartedAt: old},
		{ID: "live", Session: "s", Status: StatusRunning, StartedAt: f.clock.Now().Add(-time.Minute)},
		{ID: "old-done", Session: "s", Status: StatusDone, StartedAt: old},
	} {
		if err := f.store.PutExtractionRun(f.ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.svc.Recover(f.ctx); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"old-running": StatusFailed, "old-queued": StatusFailed, "live": StatusRunning, "old-done": StatusDone}
	for id, st := range want {
		d, err := f.svc.Run(f.ctx, id)
		if err != nil || d.Status != st || (st == StatusFailed && d.Reason != FailInterrupted) {
			t.Errorf("%s: %s %s %v", id, d.Status, d.Reason, err)
		}
	}
}
