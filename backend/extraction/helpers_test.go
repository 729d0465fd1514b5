package extraction

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"engram/backend/i18n"
	"engram/backend/llm"
	"engram/backend/memory"
	"engram/backend/settings"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// t0 is where test clocks start.
var t0 = time.Date(2026, 3, 4, 15, 0, 0, 0, time.UTC)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// planFunc is a scripted Planner.
type planFunc func(ctx context.Context, in Input) (Outcome, error)

func (f planFunc) Plan(ctx context.Context, in Input) (Outcome, error) { return f(ctx, in) }

// fixedPlan answers every run with the same plan, as model "scripted".
func fixedPlan(items ...PlanItem) Planner {
	return planFunc(func(context.Context, Input) (Outcome, error) {
		return Outcome{Plan: Plan{Status: PlanUpdated, Items: items}, Model: "scripted", InputTokens: 120, OutputTokens: 40}, nil
	})
}

// gatePlanner blocks each run until released (or its context ends) and reports what it saw.
type gatePlanner struct {
	mu      sync.Mutex
	inputs  []Input
	started chan Input
	release chan struct{}
	items   []PlanItem
}

func newGatePlanner(items ...PlanItem) *gatePlanner {
	return &gatePlanner{started: make(chan Input, 16), release: make(chan struct{}, 16), items: items}
}

func (g *gatePlanner) Plan(ctx context.Context, in Input) (Outcome, error) {
	g.mu.Lock()
	g.inputs = append(g.inputs, in)
	g.mu.Unlock()
	g.started <- in
	select {
	case <-g.release:
	case <-ctx.Done():
		return Outcome{Model: "scripted"}, ctx.Err()
	}
	return Outcome{Plan: Plan{Status: PlanUpdated, Items: g.items}, Model: "scripted"}, nil
}

// scriptedClient is an in-process llm.Client answering from a script; a nil reply blocks
// until the call's context ends.
type scriptedClient struct {
	mu      sync.Mutex
	replies []*llm.Response
	reqs    []llm.Request
}

func (c *scriptedClient) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	c.mu.Lock()
	c.reqs = append(c.reqs, req)
	if len(c.replies) == 0 {
		c.mu.Unlock()
		return llm.Response{}, errors.New("llm: script exhausted")
	}
	r := c.replies[0]
	c.replies = c.replies[1:]
	c.mu.Unlock()
	if r == nil {
		<-ctx.Done()
		return llm.Response{}, ctx.Err()
	}
	return *r, nil
}

func (c *scriptedClient) Provider() string { return "scripted" }
func (c *scriptedClient) Model() string    { return "scripted-model" }

func (c *scriptedClient) requests() []llm.Request {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]llm.Request{}, c.reqs...)
}

func textReply(s string) *llm.Response {
	return &llm.Response{Text: s, Model: "scripted-model", Usage: llm.Usage{InputTokens: 100, OutputTokens: 10}}
}

func toolReply(args string) *llm.Response {
	return &llm.Response{Model: "scripted-model", Usage: llm.Usage{InputTokens: 100, OutputTokens: 30},
		ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "SubmitMemoryPlan", Arguments: json.RawMessage(args)}}}
}

// testCatalog is the message catalog of locales/, loaded once for every test.
var testCatalog = func() func(t *testing.T) *i18n.Catalog {
	load := sync.OnceValues(func() (*i18n.Catalog, error) { return i18n.Load(os.DirFS("../../locales")) })
	return func(t *testing.T) *i18n.Catalog {
		t.Helper()
		cat, err := load()
		if err != nil {
			t.Fatal(err)
		}
		return cat
	}
}()

// fx is one store on a fresh home with recall and the extraction controller over it.
type fx struct {
	t      *testing.T
	ctx    context.Context
	home   string
	store  *memory.Store
	clock  *clock
	svc    *Service
	mu     sync.Mutex
	events []StatusEvent
	timers []*fxTimer
}

// fxTimer is a timer the test fires by hand (fx.fire), so waiting out the interval gate
// takes no real time.
type fxTimer struct {
	f       func()
	stopped bool
}

// fire runs every armed timer that was not stopped.
func (f *fx) fire() {
	f.mu.Lock()
	ts := f.timers
	f.timers = nil
	f.mu.Unlock()
	for _, t := range ts {
		f.mu.Lock()
		run := !t.stopped
		t.stopped = true
		f.mu.Unlock()
		if run {
			t.f()
		}
	}
}

type fxOpt func(*memory.Options, *Options)

func withQuota(n int) fxOpt { return func(m *memory.Options, _ *Options) { m.QuotaLimit = n } }

func withPlanTimeout(d time.Duration) fxOpt {
	return func(_ *memory.Options, o *Options) { o.PlanTimeout = d }
}

func newFx(t *testing.T, p Planner, opts ...fxOpt) *fx {
	t.Helper()
	f := &fx{t: t, ctx: context.Background(), home: t.TempDir(), clock: &clock{t: t0}}
	mo := memory.Options{Now: f.clock.Now, Location: time.UTC, Logger: quiet}
	o := Options{Planner: p, Logger: quiet, Publish: func(e StatusEvent) {
		f.mu.Lock()
		f.events = append(f.events, e)
		f.mu.Unlock()
	}, After: func(_ time.Duration, fn func()) func() bool {
		t := &fxTimer{f: fn}
		f.mu.Lock()
		f.timers = append(f.timers, t)
		f.mu.Unlock()
		return func() bool {
			f.mu.Lock()
			defer f.mu.Unlock()
			was := !t.stopped
			t.stopped = true
			return was
		}
	}}
	for _, fn := range opts {
		fn(&mo, &o)
	}
	st, err := memory.Open(f.ctx, f.home, mo)
	if err != nil {
		t.Fatal(err)
	}
	f.store = st
	o.Store = st
	// As wire builds it: the catalog, and the person's language from the home's settings.
	o.Catalog, o.Settings = testCatalog(t), settings.New(st, "en")
	f.svc = New(f.ctx, o)
	t.Cleanup(func() {
		f.svc.Close()
		st.Close()
	})
	return f
}

// turn is a request of one session holding the given user messages, each answered by the
// assistant.
func turn(session string, users ...string) Request {
	var msgs []Message
	for _, u := range users {
		msgs = append(msgs, Message{Role: "user", Content: u}, Message{Role: "assistant", Content: "Noted."})
	}
	return Request{SessionID: session, Agent: "claude-code", Messages: msgs}
}

// run sends req and waits for its end.
func (f *fx) run(req Request) RunDetail {
	f.t.Helper()
	d, err := f.svc.Request(f.ctx, req, true)
	if err != nil {
		f.t.Fatalf("request: %v", err)
	}
	return d
}

// waitFor polls the stored run until cond holds (runs end in the background).
func (f *fx) waitFor(id string, cond func(RunDetail) bool) RunDetail {
	f.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		d, err := f.svc.Run(f.ctx, id)
		if err == nil && cond(d) {
			return d
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("run %s never reached the state; last %+v (err %v)", id, d.RunSummary, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func ended(d RunDetail) bool {
	return d.FinishedAt != nil && d.Status != StatusQueued && d.Status != StatusRunning
}

func codes(d RunDetail) []string {
	var out []string
	for _, r := range d.Report.Rejected {
		out = append(out, r.Code)
	}
	return out
}

func write(slug, title, body string) PlanItem {
	return PlanItem{Action: ActionWrite, Slug: slug, Scope: "global", Type: "user", Description: title, Body: body}
}
