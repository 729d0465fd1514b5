package memory

import (
	"context"
	"database/sql"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMain lets the test binary double as a child process for the multi-process tests: when
// ENGRAM_TEST_CHILD names a role it runs that role instead of the tests (see crash_test.go).
func TestMain(m *testing.M) {
	if role := os.Getenv("ENGRAM_TEST_CHILD"); role != "" {
		os.Exit(runChild(role))
	}
	os.Exit(m.Run())
}

// testClock is a movable clock for Options.Now, safe for concurrent use.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock(t time.Time) *testClock { return &testClock{t: t} }

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// env is one store on a fresh temporary home.
type env struct {
	t     *testing.T
	ctx   context.Context
	home  string
	s     *Store
	clock *testClock
	opts  Options
}

var quietLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

// baseTime is a fixed instant the tests start their clocks at (a Tuesday, mid-morning UTC).
var baseTime = time.Date(2024, 5, 14, 10, 30, 0, 0, time.UTC)

func newEnv(t *testing.T, tweak ...func(*Options)) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), home: t.TempDir(), clock: newClock(baseTime)}
	e.opts = Options{Now: e.clock.Now, Location: time.UTC, Logger: quietLogger}
	for _, f := range tweak {
		f(&e.opts)
	}
	e.s = e.open()
	return e
}

// open opens another Store on the same home with the env's options.
func (e *env) open() *Store {
	e.t.Helper()
	s, err := Open(e.ctx, e.home, e.opts)
	if err != nil {
		e.t.Fatalf("Open(%s): %v", e.home, err)
	}
	e.t.Cleanup(func() { s.Close() })
	return s
}

// reopen closes the env's store and opens a new one (which reconciles on open).
func (e *env) reopen() {
	e.t.Helper()
	if err := e.s.Close(); err != nil {
		e.t.Fatalf("Close: %v", err)
	}
	e.s = e.open()
}

func sp(s string) *string { return &s }
func bp(b bool) *bool     { return &b }

// wr is a global user write with a quote good enough for high confidence.
func wr(slug, title, body string) Item {
	return Item{Op: OpWrite, Scope: ScopeGlobal, Type: TypeUser, Slug: slug, Title: sp(title), Body: sp(body),
		Confidence: ConfidenceHigh, SourceQuote: sp("the user said so explicitly")}
}

func (e *env) batch(actor string, items ...Item) BatchResult {
	e.t.Helper()
	res, err := e.s.ApplyBatch(e.ctx, Batch{Items: items, Actor: actor, Session: "sess-1", Model: "model-x"})
	if err != nil {
		e.t.Fatalf("ApplyBatch: %v", err)
	}
	if len(res.Results) != len(items) {
		e.t.Fatalf("ApplyBatch returned %d results for %d items", len(res.Results), len(items))
	}
	return res
}

// do applies one item as the user and returns its result.
func (e *env) do(it Item) ItemResult {
	e.t.Helper()
	return e.batch(ActorUser, it).Results[0]
}

// ok applies one item as the user and fails the test unless it succeeded.
func (e *env) ok(it Item) ItemResult {
	e.t.Helper()
	r := e.do(it)
	if !r.OK {
		e.t.Fatalf("%s %s: want ok, got %s: %s", it.Op, it.Slug, r.Code, r.Message)
	}
	return r
}

func (e *env) wantCode(it Item, code string) ItemResult {
	e.t.Helper()
	r := e.do(it)
	if r.OK || r.Code != code {
		e.t.Fatalf("%s %q: want code %s, got ok=%v code=%q msg=%q", it.Op, it.Slug, code, r.OK, r.Code, r.Message)
	}
	return r
}

// file reads a memory file relative to the memory folder.
func (e *env) file(rel string) []byte {
	e.t.Helper()
	data, err := os.ReadFile(filepath.Join(e.s.Root(), filepath.FromSlash(rel)))
	if err != nil {
		e.t.Fatalf("read %s: %v", rel, err)
	}
	return data
}

// parsed reads and parses a memory file.
func (e *env) parsed(rel string) *Memory {
	e.t.Helper()
	m, err := Parse(e.file(rel))
	if err != nil {
		e.t.Fatalf("parse %s: %v", rel, err)
	}
	return m
}

// editByHand changes the memory file at rel as a person with an editor would: parsed,
// changed by edit, rendered and written over the file, with no reconcile after.
func (e *env) editByHand(rel string, edit func(m *Memory)) {
	e.t.Helper()
	m := e.parsed(rel)
	edit(m)
	data, err := Render(m)
	if err != nil {
		e.t.Fatalf("render %s: %v", rel, err)
	}
	e.put(rel, data)
}

func (e *env) exists(rel string) bool {
	_, err := os.Stat(filepath.Join(e.s.Root(), filepath.FromSlash(rel)))
	return err == nil
}

// put writes a file by hand, as a person with an editor would, creating folders.
func (e *env) put(rel string, data []byte) {
	e.t.Helper()
	p := filepath.Join(e.s.Root(), filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) get(id string) *Memory {
	e.t.Helper()
	m, err := e.s.Get(e.ctx, id)
	if err != nil {
		e.t.Fatalf("Get(%s): %v", id, err)
	}
	return m
}

// columnOf is the one text column a query returns, row by row.
func columnOf(t testing.TB, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

func (e *env) count(query string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.s.db.QueryRowContext(e.ctx, query, args...).Scan(&n); err != nil {
		e.t.Fatalf("%s: %v", query, err)
	}
	return n
}

func (e *env) search(q string, f Filter) []lexicalHit {
	e.t.Helper()
	hits, err := e.lexical(q, f)
	if err != nil {
		e.t.Fatalf("Search(%q): %v", q, err)
	}
	return hits
}

func hitSlugs(hits []lexicalHit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Memory.Slug)
	}
	return out
}

func hasSlug(hits []lexicalHit, slug string) bool {
	for _, h := range hits {
		if h.Memory.Slug == slug {
			return true
		}
	}
	return false
}

func (e *env) reconcile() ReconcileReport {
	e.t.Helper()
	rep, err := e.s.Reconcile(e.ctx)
	if err != nil {
		e.t.Fatalf("Reconcile: %v", err)
	}
	return rep
}

func hasWarning(r ItemResult, code string) bool {
	for _, w := range r.Warnings {
		if w.Code == code {
			return true
		}
	}
	return false
}

// liveFiles lists the memory files a walk would index, relative and slash-separated.
func liveFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") && !(d.Name() == ".archive" && filepath.Dir(p) == root) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".md") && !strings.HasPrefix(d.Name(), ".") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
