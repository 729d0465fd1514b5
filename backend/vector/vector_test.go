package vector

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"engram/backend/embed"
	"engram/backend/memory"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func openStore(t *testing.T) *memory.Store {
	t.Helper()
	s, err := memory.Open(context.Background(), t.TempDir(), memory.Options{Logger: quiet, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func write(t *testing.T, s *memory.Store, items ...memory.Item) []memory.ItemResult {
	t.Helper()
	res, err := s.ApplyBatch(context.Background(), memory.Batch{Items: items})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		if !r.OK {
			t.Fatalf("%s: %s", r.Code, r.Message)
		}
	}
	return res.Results
}

func note(scope memory.Scope, workdir, agent, slug, body string) memory.Item {
	title := slug
	return memory.Item{Op: memory.OpWrite, Scope: scope, Workdir: workdir, Agent: agent, Type: memory.TypeUser, Slug: slug,
		Title: &title, Body: &body}
}

func TestEncodeDecode(t *testing.T) {
	v := []float32{0, 1, -2.5, float32(math.Pi)}
	got := DecodeVec(EncodeVec(v), nil)
	for i := range v {
		if got[i] != v[i] {
			t.Fatalf("%v != %v", got, v)
		}
	}
}

func TestIndexerAndIndex(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	wd := t.TempDir()
	r := write(t, s,
		note(memory.ScopeGlobal, "", "", "cat-note", "I adopted a grey cat named Mochi"),
		note(memory.ScopeProject, wd, "", "build-note", "Run make build to compile the project"),
		note(memory.ScopeAgent, "", "claude", "agent-note", "The cat sleeps on the keyboard"),
	)
	l := embed.NewLocal(0)
	var mu sync.Mutex
	var seen []Progress
	ix := NewIndexer(s, l, IndexerOptions{Logger: quiet, Batch: 2, OnProgress: func(p Progress) {
		mu.Lock()
		seen = append(seen, p)
		mu.Unlock()
	}})
	if err := ix.Run(ctx); err != nil {
		t.Fatal(err)
	}
	p := ix.Progress()
	if p.Done != 3 || p.Total != 3 || p.Running || p.Model != l.Model() {
		t.Fatalf("progress %+v", p)
	}
	if len(seen) < 3 {
		t.Fatalf("progress reported per batch: %+v", seen)
	}
	idx := NewIndex(s, l.Model())
	q := l.Vector("grey cat")
	m, err := idx.Search(ctx, q, 10, memory.Filter{Scope: memory.ScopeGlobal})
	if err != nil || len(m) != 1 || m[0].ID != r[0].ID || m[0].RID == 0 {
		t.Fatalf("global filter: %+v %v", m, err)
	}
	m, _ = idx.Search(ctx, q, 10, memory.Filter{Agent: "claude"})
	if len(m) != 2 {
		t.Fatalf("agent sees global and its own: %+v", m)
	}
	m, _ = idx.Search(ctx, q, 10, memory.Filter{Agent: "other"})
	if len(m) != 1 {
		t.Fatalf("another agent does not see claude's note: %+v", m)
	}
	// An edit makes the vector stale; the next run recomputes it and the index picks it up.
	body := "Mochi the cat now has a sister called Tofu"
	write(t, s, memory.Item{Op: memory.OpUpdate, ID: r[0].ID, Body: &body, Mode: "replace"})
	if done, total, _ := s.VectorCounts(ctx, l.Model()); done != 2 || total != 3 {
		t.Fatalf("after edit: %d/%d", done, total)
	}
	if err := ix.Run(ctx); err != nil {
		t.Fatal(err)
	}
	m, _ = idx.Search(ctx, l.Vector("sister Tofu"), 1, memory.Filter{})
	if len(m) != 1 || m[0].ID != r[0].ID {
		t.Fatalf("updated vector not seen: %+v", m)
	}
	// A delete drops the vector from the index.
	write(t, s, memory.Item{Op: memory.OpDelete, ID: r[0].ID})
	m, _ = idx.Search(ctx, q, 10, memory.Filter{})
	for _, x := range m {
		if x.ID == r[0].ID {
			t.Fatal("deleted memory still in the index")
		}
	}
	// A new model rebuilds every vector.
	l2 := embed.NewLocal(128)
	if done, _, _ := s.VectorCounts(ctx, l2.Model()); done != 0 {
		t.Fatal("other model has no vectors yet")
	}
	if err := NewIndexer(s, l2, IndexerOptions{Logger: quiet}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if done, total, _ := s.VectorCounts(ctx, l2.Model()); done != 2 || total != 2 {
		t.Fatalf("rebuild on model change: %d/%d", done, total)
	}
	if n := NewIndex(s, l.Model()); func() int { n.Search(ctx, q, 1, memory.Filter{}); return n.Len() }() != 0 {
		t.Fatal("the old model's vectors are replaced")
	}
}

func TestIndexTwoStageMatchesExact(t *testing.T) {
	// Enough rows for the folded first stage; the best match must survive it.
	x := &Index{model: "m", pos: map[int64]int{}}
	l := embed.NewLocal(0)
	texts := make([]string, 0, twoStageFrom+10)
	for i := 0; i < twoStageFrom+10; i++ {
		texts = append(texts, fmt.Sprintf("note %d about topic %d and thing %d", i, i%97, i%13))
	}
	texts[12345] = "a purple giraffe plays the saxophone at midnight"
	vecs, _ := l.Embed(context.Background(), texts)
	for i, v := range vecs {
		x.add(memory.VectorEntry{RID: int64(i + 1), ID: fmt.Sprint(i), Scope: memory.ScopeGlobal, Type: memory.TypeUser, Vec: EncodeVec(v)})
	}
	q := l.Vector("giraffe saxophone")
	if best := x.exact(q, 1, allowAll(x)); best[0].i != 12345 {
		t.Fatalf("exact best %d", best[0].i)
	}
	got := x.twoStage(q, 5, allowAll(x))
	if len(got) == 0 || got[0].i != 12345 {
		t.Fatalf("two-stage best %+v", got)
	}
}

// fakeBackend is a scripted vector store speaking the HTTP contract.
type fakeBackend struct {
	mu      sync.Mutex
	results func() (int, string)
	delay   time.Duration
	got     map[string][]json.RawMessage
}

func (f *fakeBackend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	if f.got == nil {
		f.got = map[string][]json.RawMessage{}
	}
	f.got[r.URL.Path] = append(f.got[r.URL.Path], body)
	f.mu.Unlock()
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-r.Context().Done():
			return
		}
	}
	switch r.URL.Path {
	case "/v1/search":
		code, out := f.results()
		w.WriteHeader(code)
		io.WriteString(w, out)
	case "/v1/get_embeddings":
		io.WriteString(w, `{"embeddings": {"01HZX0000000000000000000AA": [0.5, 0.5], "not-asked": [1]}}`)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

func TestHTTPStoreContract(t *testing.T) {
	ctx := context.Background()
	fb := &fakeBackend{results: func() (int, string) {
		return 200, `{"results": [{"id": "01HZX0000000000000000000AA", "score": 0.9}, {"id": "../../etc/passwd", "score": 0.8},
			{"id": "01HZX0000000000000000000AA", "score": 0.7}, {"id": "01HZX0000000000000000000BB", "score": 0.6}]}`
	}}
	srv := httptest.NewServer(fb)
	defer srv.Close()
	h, err := NewHTTPStore(srv.URL+"/v1/", HTTPStoreOptions{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	wd := t.TempDir()
	m, err := h.Search(ctx, []float32{1, 0}, 10, memory.Filter{Workdir: wd, Agent: "claude"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 2 || m[0].ID != "01HZX0000000000000000000AA" || m[0].RID != 0 {
		t.Fatalf("malformed and duplicate ids dropped, none trusted as a row: %+v", m)
	}
	var sent struct {
		Filter WireFilter `json:"filter"`
		Limit  int        `json:"limit"`
	}
	json.Unmarshal(fb.got["/v1/search"][0], &sent)
	if sent.Limit != 10 || len(sent.Filter.Scopes) != 3 || sent.Filter.Scopes[2].Key != "claude" {
		t.Fatalf("filter sent: %+v", sent)
	}
	if err := h.Insert(ctx, []Item{{ID: "x", Vector: []float32{1}, Payload: Payload{Scope: "global"}}}); err != nil {
		t.Fatal(err)
	}
	if err := h.Delete(ctx, []string{"x"}); err != nil {
		t.Fatal(err)
	}
	emb, err := h.GetEmbeddings(ctx, []string{"01HZX0000000000000000000AA"})
	if err != nil || len(emb) != 1 {
		t.Fatalf("get_embeddings keeps only what was asked: %v %v", emb, err)
	}
}

func TestHTTPStoreFailures(t *testing.T) {
	ctx := context.Background()
	for name, fb := range map[string]*fakeBackend{
		"non-2xx":    {results: func() (int, string) { return 503, "overloaded" }},
		"bad json":   {results: func() (int, string) { return 200, "{not json" }},
		"timeout":    {results: func() (int, string) { return 200, `{"results": []}` }, delay: 2 * time.Second},
		"wrong type": {results: func() (int, string) { return 200, `{"results": {"id": 1}}` }},
	} {
		srv := httptest.NewServer(fb)
		h, _ := NewHTTPStore(srv.URL+"/v1", HTTPStoreOptions{Timeout: 150 * time.Millisecond, Logger: quiet})
		_, err := h.Search(ctx, []float32{1}, 5, memory.Filter{})
		if err == nil || !IsBackendError(err) {
			t.Errorf("%s: want a vector_backend_failed error, got %v", name, err)
		}
		srv.Close()
	}
	// A refused connection.
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	h, _ := NewHTTPStore(url, HTTPStoreOptions{ConnectTimeout: 200 * time.Millisecond, Timeout: 500 * time.Millisecond})
	if _, err := h.Search(ctx, []float32{1}, 5, memory.Filter{}); !IsBackendError(err) {
		t.Errorf("refused: %v", err)
	}
	if _, err := NewHTTPStore("ftp://example", HTTPStoreOptions{}); err == nil {
		t.Error("a non-http URL is refused")
	}
}

func TestIndexerWithExternalSink(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	fb := &fakeBackend{results: func() (int, string) { return 200, `{"results": []}` }}
	srv := httptest.NewServer(fb)
	defer srv.Close()
	h, _ := NewHTTPStore(srv.URL+"/v1", HTTPStoreOptions{Logger: quiet})
	r := write(t, s, note(memory.ScopeGlobal, "", "", "one-note", "first"), note(memory.ScopeGlobal, "", "", "two-note", "second"))
	ix := NewIndexer(s, embed.NewLocal(0), IndexerOptions{Sink: h, Logger: quiet, Debounce: time.Millisecond})
	stop := ix.Start(ctx)
	defer stop()
	waitFor(t, func() bool { p := ix.Progress(); return p.Total == 2 && p.Done == 2 })
	write(t, s, memory.Item{Op: memory.OpDelete, ID: r[0].ID})
	waitFor(t, func() bool {
		fb.mu.Lock()
		defer fb.mu.Unlock()
		for _, b := range fb.got["/v1/delete"] {
			if strings.Contains(string(b), r[0].ID) {
				return true
			}
		}
		return false
	})
	fb.mu.Lock()
	inserts := len(fb.got["/v1/insert"])
	fb.mu.Unlock()
	if inserts == 0 {
		t.Fatal("vectors were not sent to the external store")
	}
	// The sink failing leaves the vectors pending and reports the error.
	fsrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) }))
	defer fsrv.Close()
	hf, _ := NewHTTPStore(fsrv.URL, HTTPStoreOptions{Logger: quiet})
	s2 := openStore(t)
	write(t, s2, note(memory.ScopeGlobal, "", "", "one-note", "first"))
	ix2 := NewIndexer(s2, embed.NewLocal(0), IndexerOptions{Sink: hf, Logger: quiet})
	if err := ix2.Run(ctx); !IsBackendError(err) || ix2.Progress().Error == "" || ix2.Progress().Done != 0 {
		t.Fatalf("sink failure: %v %+v", err, ix2.Progress())
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// BenchmarkIndexSearch100k measures one vector search over 100k local vectors (both stages).
func BenchmarkIndexSearch100k(b *testing.B) {
	x := &Index{model: "m", pos: map[int64]int{}}
	l := embed.NewLocal(0)
	for i := 0; i < 100000; i++ {
		v := l.Vector(fmt.Sprintf("note %d about topic %d and thing %d with word%d", i, i%997, i%13, i%5003))
		x.add(memory.VectorEntry{RID: int64(i + 1), ID: fmt.Sprint(i), Scope: memory.ScopeGlobal, Type: memory.TypeUser, Vec: EncodeVec(v)})
	}
	q := l.Vector("topic 42 thing 7")
	allow := allowAll(x)
	b.ResetTimer()
	c0 := cpuNanos()
	for i := 0; i < b.N; i++ {
		x.twoStage(q, 100, allow)
	}
	// CPU time beside the wall time: on a shared machine the wall time swings with the load.
	b.ReportMetric(float64(cpuNanos()-c0)/float64(b.N), "cpu-ns/op")
}

// cpuNanos is the process's user and system time so far.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func TestBuildConfig(t *testing.T) {
	s := openStore(t)
	st, err := Build(embed.Config{}, s, quiet)
	if err != nil || st.Embedder == nil || st.Sink != nil {
		t.Fatalf("default: %+v %v", st, err)
	}
	if _, ok := st.Searcher.(*Index); !ok {
		t.Fatal("default searcher is the SQLite index")
	}
	off, err := Build(embed.Config{Provider: "off"}, s, quiet)
	if err != nil || off.Embedder != nil || off.Searcher != nil {
		t.Fatalf("off: %+v %v", off, err)
	}
	for _, bad := range []embed.Config{{VectorBackend: "http"}, {VectorBackend: "qdrant"}, {Provider: "magic"},
		{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1"}} {
		if _, err := Build(bad, s, quiet); err == nil {
			t.Errorf("%+v must be refused", bad)
		}
	}
	h, err := Build(embed.Config{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "nomic-embed-text",
		VectorBackend: "http", VectorStoreURL: "http://127.0.0.1:6333/collections/memories/"}, s, quiet)
	if err != nil || h.Sink == nil || h.Embedder.Model() != "openai:nomic-embed-text" {
		t.Fatalf("%+v %v", h, err)
	}
}

// allowAll lets every class of x through.
func allowAll(x *Index) []bool {
	a := make([]bool, len(x.classes))
	for i := range a {
		a[i] = true
	}
	return a
}
