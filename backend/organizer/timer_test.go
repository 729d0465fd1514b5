package organizer

import (
	"fmt"
	"testing"
	"time"

	"engram/backend/memory"
)

func enabled(st Settings) func(*Options) {
	return func(o *Options) { o.Settings = st }
}

func onSettings() Settings {
	st := DefaultSettings()
	st.FrequencyHours, st.MinHoursBetweenRuns, st.MinNewMemories = 24, 12, 3
	return st
}

// the scheduling timer is hours away; the lock-retry timer only a minute.
const schedTimer = time.Hour

func TestTimerArmsFromNextRunAt(t *testing.T) {
	e := newEnv(t)
	// A previous process planned the next run five hours from now.
	if err := saveJSON(e.ctx, e.store, scheduleKey, schedule{NextRunAt: baseTime.Add(5 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	svc := e.newService(e.store, enabled(onSettings()))
	timers := e.clock.pending(schedTimer)
	if len(timers) != 1 || timers[0].d != 5*time.Hour {
		t.Fatalf("timers = %d (first %v), want one armed for 5h from next_run_at", len(timers), durations(timers))
	}
	st, err := svc.Status(e.ctx)
	if err != nil || !st.Armed || st.NextRunAt == nil || !st.NextRunAt.Equal(baseTime.Add(5*time.Hour)) {
		t.Fatalf("status = %+v %v", st, err)
	}
}

func TestTimerNotArmedWhenDisabled(t *testing.T) {
	e := newEnv(t) // testSettings: disabled
	if n := len(e.clock.pending(schedTimer)); n != 0 {
		t.Fatalf("%d timers armed while disabled", n)
	}
	// Turning it on arms one timer a frequency away; turning it off disarms it.
	on := true
	if _, err := e.svc.UpdateSettings(e.ctx, SettingsPatch{Enabled: &on}); err != nil {
		t.Fatal(err)
	}
	timers := e.clock.pending(schedTimer)
	if len(timers) != 1 || timers[0].d != 24*time.Hour {
		t.Fatalf("after enabling: %v, want one 24h timer", durations(timers))
	}
	off := false
	if _, err := e.svc.UpdateSettings(e.ctx, SettingsPatch{Enabled: &off}); err != nil {
		t.Fatal(err)
	}
	if n := len(e.clock.pending(schedTimer)); n != 0 {
		t.Fatalf("%d timers armed after disabling", n)
	}
	st, _ := e.svc.Status(e.ctx)
	if st.Armed || st.NextRunAt != nil {
		t.Fatalf("status after disabling = %+v", st)
	}
	// A one-shot process never arms one, whatever the settings.
	e2 := newEnv(t, enabled(onSettings()), func(o *Options) { o.DisableScheduler = true })
	if n := len(e2.clock.pending(schedTimer)); n != 0 {
		t.Fatalf("%d timers armed with the scheduler disabled", n)
	}
}

func TestOverdueTimerWaitsForStartupDelay(t *testing.T) {
	e := newEnv(t)
	if err := saveJSON(e.ctx, e.store, scheduleKey, schedule{NextRunAt: baseTime.Add(-3 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	e.newService(e.store, enabled(onSettings()), func(o *Options) { o.StartupDelay = 90 * time.Second })
	timers := e.clock.pending(90 * time.Second)
	if len(timers) != 1 || timers[0].d != 90*time.Second {
		t.Fatalf("timers = %v, want one at the startup delay", durations(timers))
	}
}

func TestTimerTickRunsThroughGates(t *testing.T) {
	e := newEnv(t, enabled(onSettings()))
	dupes(e)
	tick := func() {
		t.Helper()
		timers := e.clock.pending(schedTimer)
		if len(timers) != 1 {
			t.Fatalf("timers = %v, want exactly one scheduling timer", durations(timers))
		}
		e.clock.Advance(timers[0].d)
		timers[0].fire()
		e.wait()
	}
	runs := func() []RunSummary {
		t.Helper()
		r, err := e.svc.Runs(e.ctx, RunsParams{})
		if err != nil {
			t.Fatal(err)
		}
		return r.Runs
	}

	tick() // first ever tick: no previous run, the gates pass
	r := runs()
	if len(r) != 1 || r[0].Trigger != TriggerScheduled || r[0].Status != StatusDone || r[0].Counts.Applied != 3 {
		t.Fatalf("runs after the first tick = %+v", r)
	}
	timers := e.clock.pending(schedTimer)
	if len(timers) != 1 || timers[0].d != 24*time.Hour {
		t.Fatalf("re-armed timers = %v, want one 24h away", durations(timers))
	}

	// Too soon: the frequency is shortened below the minimum gap.
	one := 1
	if _, err := e.svc.UpdateSettings(e.ctx, SettingsPatch{FrequencyHours: &one}); err != nil {
		t.Fatal(err)
	}
	tick()
	if st, _ := e.svc.Status(e.ctx); st.LastSkip != SkipTooSoon || len(runs()) != 1 {
		t.Fatalf("skip = %q runs = %d, want too_soon and no new run", st.LastSkip, len(runs()))
	}

	// Long enough later but too few new memories.
	e.clock.Advance(12 * time.Hour)
	tick()
	if st, _ := e.svc.Status(e.ctx); st.LastSkip != SkipTooFewNew || len(runs()) != 1 {
		t.Fatalf("skip = %q runs = %d, want too_few_new_memories", st.LastSkip, len(runs()))
	}

	// Enough new memories: the next tick runs.
	for i := 0; i < 3; i++ {
		e.write(memory.ActorExtractor, item(fmt.Sprintf("new-fact-%d", i), "New fact", fmt.Sprintf("A new distinct fact %d %s.", i, string(rune('k'+i)))))
	}
	tick()
	st, _ := e.svc.Status(e.ctx)
	if st.LastSkip != "" || len(runs()) != 2 || st.LastRun == nil || st.LastRun.Status != StatusDone {
		t.Fatalf("status = %+v runs = %d, want a second done run", st, len(runs()))
	}

	// A run already active: the tick is skipped, not queued.
	bp := newBlockingPlanner()
	e.svc.planner = bp
	e.clock.Advance(13 * time.Hour)
	for i := 3; i < 6; i++ {
		e.write(memory.ActorExtractor, item(fmt.Sprintf("new-fact-%d", i), "New fact", fmt.Sprintf("Another fact %d %s.", i, string(rune('k'+i)))))
	}
	ref, _ := e.svc.RunNow(e.ctx, TriggerManual)
	bp.waitEntered(t)
	timers = e.clock.pending(schedTimer)
	timers[0].fire()
	if st, _ := e.svc.Status(e.ctx); st.LastSkip != SkipBusy || st.Queued != 0 {
		t.Fatalf("skip = %q queued = %d, want busy and nothing queued", st.LastSkip, st.Queued)
	}
	close(bp.release)
	e.wait()
	if d := e.detail(ref.ID); d.Status != StatusDone {
		t.Fatalf("manual run = %s", d.Status)
	}
}

func durations(ts []*fakeTimer) []time.Duration {
	var out []time.Duration
	for _, t := range ts {
		out = append(out, t.d)
	}
	return out
}

// TestStaleRunningRowDoesNotBlockTheSchedule: a row left "running" by a process that died
// after this one started is recovered at the next tick instead of skipping forever as busy.
func TestStaleRunningRowDoesNotBlockTheSchedule(t *testing.T) {
	e := newEnv(t, enabled(onSettings()))
	e.deadRunningRow("01DEAD")
	timers := e.clock.pending(schedTimer)
	if len(timers) != 1 {
		t.Fatalf("timers = %v", durations(timers))
	}
	e.clock.Advance(timers[0].d)
	timers[0].fire()
	e.wait()
	if d := e.detail("01DEAD"); d.Status != StatusFailed || d.Error == nil || d.Error.Code != CodeInterrupted {
		t.Fatalf("stale row = %s %+v, want failed/interrupted", d.Status, d.Error)
	}
	st, _ := e.svc.Status(e.ctx)
	if st.LastSkip != "" || st.LastRun == nil || st.LastRun.ID == "01DEAD" || st.LastRun.Status != StatusDone {
		t.Fatalf("status = %+v, want the tick to have run", st)
	}
}
