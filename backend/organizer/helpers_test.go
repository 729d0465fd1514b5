package organizer

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"engram/backend/memory"
)

// fakeClock is a movable clock whose timers fire only when a test fires them.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	c       *fakeClock
	d       time.Duration
	at      time.Time
	f       func()
	stopped bool
	fired   bool
}

func newFakeClock(t time.Time) *fakeClock { return &fakeClock{now: t} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, d: d, at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.stopped && !t.fired
	t.stopped = true
	return was
}

// pending lists timers neither stopped nor fired whose delay is at least minD (the scheduling
// timer is hours away; the lock-retry timer a minute).
func (c *fakeClock) pending(minD time.Duration) []*fakeTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*fakeTimer
	for _, t := range c.timers {
		if !t.stopped && !t.fired && t.d >= minD {
			out = append(out, t)
		}
	}
	return out
}

// fire runs the timer's function in the calling goroutine, as if its time had come.
func (t *fakeTimer) fire() {
	t.c.mu.Lock()
	if t.stopped || t.fired {
		t.c.mu.Unlock()
		return
	}
	t.fired = true
	t.c.mu.Unlock()
	t.f()
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// baseTime is where every test clock starts.
var baseTime = time.Date(2025, 3, 4, 9, 0, 0, 0, time.UTC)

// env is a real store on a temporary home with an organizer service over it.
type env struct {
	t     *testing.T
	ctx   context.Context
	home  string
	clock *fakeClock
	store *memory.Store
	svc   *Service

	mu     sync.Mutex
	events []Progress
}

// testSettings keep the timer off unless a test turns it on.
func testSettings() Settings {
	st := DefaultSettings()
	st.Enabled = false
	return st
}

func newEnv(t *testing.T, tweak ...func(*Options)) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), home: t.TempDir(), clock: newFakeClock(baseTime)}
	e.store = e.openStore(0)
	e.svc = e.newService(e.store, tweak...)
	return e
}

func (e *env) openStore(limit int) *memory.Store {
	e.t.Helper()
	st, err := memory.Open(e.ctx, e.home, memory.Options{Now: e.clock.Now, Location: time.UTC, Logger: quiet, QuotaLimit: limit})
	if err != nil {
		e.t.Fatalf("memory.Open: %v", err)
	}
	e.t.Cleanup(func() { st.Close() })
	return st
}

func (e *env) newService(st *memory.Store, tweak ...func(*Options)) *Service {
	e.t.Helper()
	opts := Options{Store: st, Clock: e.clock, Settings: testSettings(), Logger: quiet, Progress: e.record}
	for _, f := range tweak {
		f(&opts)
	}
	svc, err := New(opts)
	if err != nil {
		e.t.Fatalf("New: %v", err)
	}
	if err := svc.Start(e.ctx); err != nil {
		e.t.Fatalf("Start: %v", err)
	}
	e.t.Cleanup(func() { svc.Stop() })
	return svc
}

func (e *env) record(p Progress) {
	e.mu.Lock()
	e.events = append(e.events, p)
	e.mu.Unlock()
}

func (e *env) progress() []Progress {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Progress{}, e.events...)
}

func sp(s string) *string { return &s }

// item is a global user memory with a quote good enough for high confidence.
func item(slug, title, body string) memory.Item {
	return memory.Item{Op: memory.OpWrite, Scope: memory.ScopeGlobal, Type: memory.TypeUser, Slug: slug, Title: sp(title),
		Body: sp(body), Confidence: memory.ConfidenceHigh, SourceQuote: sp("the user said so in chat")}
}

// write applies items as actor (extractor entries start unreviewed, the user's reviewed) and
// returns the new ids by slug.
func (e *env) write(actor string, items ...memory.Item) map[string]string {
	e.t.Helper()
	res, err := e.store.ApplyBatch(e.ctx, memory.Batch{Items: items, Actor: actor})
	if err != nil {
		e.t.Fatalf("ApplyBatch: %v", err)
	}
	ids := map[string]string{}
	for i, r := range res.Results {
		if !r.OK {
			e.t.Fatalf("write %s: %s %s", items[i].Slug, r.Code, r.Message)
		}
		ids[r.Slug] = r.ID
	}
	return ids
}

// run asks for a run, waits for it (and anything queued behind it) and returns its detail.
func (e *env) run(trigger Trigger) RunDetail {
	e.t.Helper()
	ref, err := e.svc.RunNow(e.ctx, trigger)
	if err != nil {
		e.t.Fatalf("RunNow: %v", err)
	}
	e.wait()
	return e.detail(ref.ID)
}

func (e *env) wait() {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(e.ctx, 30*time.Second)
	defer cancel()
	if err := e.svc.WaitIdle(ctx); err != nil {
		e.t.Fatalf("WaitIdle: %v", err)
	}
}

func (e *env) detail(id string) RunDetail {
	e.t.Helper()
	d, err := e.svc.Run(e.ctx, id)
	if err != nil {
		e.t.Fatalf("Run(%s): %v", id, err)
	}
	return d
}

// live returns every live ordinary memory by slug (within one scope instance per slug).
func (e *env) live() map[string]*memory.Memory {
	e.t.Helper()
	out := map[string]*memory.Memory{}
	err := e.store.ScanMemories(e.ctx, memory.Filter{NoDaily: true}, "", func(m *memory.Memory) bool {
		out[string(m.Scope)+"/"+m.Slug] = m
		return true
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

func (e *env) exists(rel string) bool {
	_, err := os.Stat(filepath.Join(e.store.Root(), filepath.FromSlash(rel)))
	return err == nil
}

// decisionFor finds the decision acting on the entry with id (as target or keeper).
func decisionFor(rep *Report, id string) *Decision {
	for i := range rep.Decisions {
		d := &rep.Decisions[i]
		if d.Into != nil && d.Into.ID == id {
			return d
		}
		for _, t := range d.Targets {
			if t.ID == id {
				return d
			}
		}
	}
	return nil
}

func sorted(v []string) []string {
	out := append([]string{}, v...)
	sort.Strings(out)
	return out
}

// blockingPlanner holds its first Plan call until released (or the run's context ends), so a
// test can act while a run is active. Later calls plan offline at once.
type blockingPlanner struct {
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func newBlockingPlanner() *blockingPlanner {
	return &blockingPlanner{entered: make(chan struct{}), release: make(chan struct{})}
}

func (p *blockingPlanner) Name() string { return "blocking" }

func (p *blockingPlanner) Plan(ctx context.Context, in PlanInput) (PlanOutput, error) {
	first := false
	p.once.Do(func() { first = true })
	if first {
		close(p.entered)
		select {
		case <-p.release:
		case <-ctx.Done():
			return PlanOutput{}, ctx.Err()
		}
	}
	return OfflinePlanner{}.Plan(ctx, in)
}

func (p *blockingPlanner) waitEntered(t *testing.T) {
	t.Helper()
	select {
	case <-p.entered:
	case <-time.After(30 * time.Second):
		t.Fatal("the planner was never called")
	}
}

// deadRunningRow records a run left "running" in phase plan by a process that died.
func (e *env) deadRunningRow(id string) {
	e.t.Helper()
	if err := e.store.QueueOrganizerRun(e.ctx, id, string(TriggerScheduled), string(ModeStandard), baseTime); err != nil {
		e.t.Fatal(err)
	}
	if ok, err := e.store.ClaimOrganizerRun(e.ctx, id, string(PhasePlan), baseTime); err != nil || !ok {
		e.t.Fatalf("claim %s: %v %v", id, ok, err)
	}
}
