package recall

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"engram/backend/embed"
	"engram/backend/memory"
	"engram/backend/vector"
)

// clock is a movable clock for memory.Options.Now.
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

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// t0 is where test clocks start: a Wednesday, mid-afternoon UTC.
var t0 = time.Date(2024, 5, 15, 15, 0, 0, 0, time.UTC)

// env is one store on a fresh home with recall over it.
type env struct {
	t     testing.TB
	ctx   context.Context
	home  string
	store *memory.Store
	clock *clock
	svc   *Service
	local *embed.Local
}

type envOpt func(*Options)

// withVectors turns the local embedder on.
func withVectors(o *Options) { o.Embedder = embed.NewLocal(0) }

func newEnv(t testing.TB, opts ...envOpt) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), home: t.TempDir(), clock: &clock{t: t0}}
	s, err := memory.Open(e.ctx, e.home, memory.Options{Now: e.clock.Now, Location: time.UTC, Logger: quiet, QuotaLimit: 100000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	e.store = s
	o := Options{Logger: quiet}
	for _, f := range opts {
		f(&o)
	}
	if l, ok := o.Embedder.(*embed.Local); ok {
		e.local = l
	}
	e.svc = New(s, o)
	return e
}

// mem describes a memory to write.
type mem struct {
	scope      memory.Scope
	workdir    string
	agent      string
	typ        memory.Type
	slug       string
	title      string
	body       string
	tags       []string
	aliases    []string
	source     *memory.Source
	unreviewed bool
	conf       memory.Confidence
	created    time.Time
}

// write applies the memories (as an import, so that dates may be set) and fails on any error.
func (e *env) write(ms ...mem) []memory.ItemResult {
	e.t.Helper()
	var items []memory.Item
	for _, m := range ms {
		title, body := m.title, m.body
		if title == "" {
			title = m.slug
		}
		if body == "" {
			body = title
		}
		scope := m.scope
		if scope == "" {
			scope = memory.ScopeGlobal
		}
		typ := m.typ
		if typ == "" {
			typ = memory.TypeUser
		}
		reviewed := !m.unreviewed
		conf, quote := m.conf, "verbatim evidence"
		if conf == "" {
			conf = memory.ConfidenceHigh
		}
		it := memory.Item{Op: memory.OpWrite, Scope: scope, Workdir: m.workdir, Agent: m.agent, Type: typ, Slug: m.slug,
			Title: &title, Body: &body, Tags: m.tags, Aliases: m.aliases, Source: m.source, Reviewed: &reviewed,
			Confidence: conf, SourceQuote: &quote}
		if !m.created.IsZero() {
			c := m.created
			it.Created, it.Updated = &c, &c
		}
		items = append(items, it)
	}
	res, err := e.store.ApplyBatch(e.ctx, memory.Batch{Items: items, Actor: memory.ActorImport})
	if err != nil {
		e.t.Fatal(err)
	}
	for _, r := range res.Results {
		if !r.OK {
			e.t.Fatalf("write %s failed: %s %s", r.Slug, r.Code, r.Message)
		}
	}
	return res.Results
}

// embedAll computes every vector now.
func (e *env) embedAll() {
	e.t.Helper()
	if e.local == nil {
		e.t.Fatal("env has no embedder")
	}
	if err := vector.NewIndexer(e.store, e.local, vector.IndexerOptions{Logger: quiet}).Run(e.ctx); err != nil {
		e.t.Fatal(err)
	}
}

// search runs a recall without counting access.
func (e *env) search(q string, p ...func(*SearchParams)) SearchResult {
	e.t.Helper()
	sp := SearchParams{Query: q, Limit: 10, NoTouch: true}
	for _, f := range p {
		f(&sp)
	}
	res, err := e.svc.Search(e.ctx, sp)
	if err != nil {
		e.t.Fatalf("search %q: %v", q, err)
	}
	return res
}

// slugs lists the hits' slugs in order.
func slugs(res SearchResult) []string {
	out := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		out[i] = h.Memory.Slug
	}
	return out
}

// rankOf is the 0-based place of slug among the hits, or -1.
func rankOf(res SearchResult, slug string) int {
	for i, h := range res.Hits {
		if h.Memory.Slug == slug {
			return i
		}
	}
	return -1
}
