package recall

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"

	"engram/backend/embed"
	"engram/backend/memory"
	"engram/backend/vector"
)

// scriptedStore answers /search with whatever the test sets; it may also stall or fail.
type scriptedStore struct {
	mu     sync.Mutex
	body   string
	status int
	delay  time.Duration
}

func (s *scriptedStore) set(status int, body string, delay time.Duration) {
	s.mu.Lock()
	s.status, s.body, s.delay = status, body, delay
	s.mu.Unlock()
}

func (s *scriptedStore) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	s.mu.Lock()
	status, body, delay := s.status, s.body, s.delay
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	if r.URL.Path != "/search" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.WriteHeader(status)
	io.WriteString(w, body)
}

func TestExternalVectorStoreIsUntrusted(t *testing.T) {
	backend := &scriptedStore{status: 200, body: `{"results": []}`}
	srv := httptest.NewServer(backend)
	defer srv.Close()
	hs, err := vector.NewHTTPStore(srv.URL, vector.HTTPStoreOptions{Timeout: 300 * time.Millisecond, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, func(o *Options) {
		o.Embedder = embed.NewLocal(0)
		o.Vectors = hs
	})
	wd := t.TempDir()
	r := e.write(
		mem{slug: "mine", title: "Garden", body: "Tomatoes grow on the balcony."},
		mem{slug: "theirs", scope: memory.ScopeAgent, agent: "other-agent", title: "Secret", body: "Another agent's private note."},
		mem{slug: "elsewhere", scope: memory.ScopeProject, workdir: t.TempDir(), title: "Other project", body: "Not this project."},
		mem{slug: "gone", title: "Deleted", body: "Soon deleted."},
	)
	if res, err := e.store.ApplyBatch(e.ctx, memory.Batch{Items: []memory.Item{{Op: memory.OpDelete, ID: r[3].ID}}}); err != nil || res.Failed > 0 {
		t.Fatal(err, res)
	}
	unknown := ulid.Make().String()
	backend.set(200, fmt.Sprintf(`{"results": [
		{"id": %q, "score": 0.99}, {"id": %q, "score": 0.98}, {"id": %q, "score": 0.97},
		{"id": %q, "score": 0.96}, {"id": "'; DROP TABLE memory_meta; --", "score": 0.95}, {"id": %q, "score": 0.5}]}`,
		r[1].ID, r[2].ID, r[3].ID, unknown, r[0].ID), 0)
	// A query with no lexical match: only the backend's answer can produce hits.
	res, err := e.svc.Search(e.ctx, SearchParams{Query: "zyxwvut", Workdir: wd, Agent: "me", NoTouch: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].Memory.ID != r[0].ID {
		t.Fatalf("only the visible, existing memory survives re-hydration and the local filter: %v", slugs(res))
	}
	if !strings.Contains(strings.Join(res.Hits[0].Via, ","), "vector") {
		t.Errorf("via %v", res.Hits[0].Via)
	}
	// The agent itself sees its own note.
	own, _ := e.svc.Search(e.ctx, SearchParams{Query: "zyxwvut", Agent: "other-agent", NoTouch: true})
	if rankOf(own, "theirs") < 0 || rankOf(own, "elsewhere") >= 0 {
		t.Fatalf("the owner sees it, other projects stay out: %v", slugs(own))
	}
	if _, err := e.store.Get(e.ctx, r[0].ID); err != nil {
		t.Fatal("the index is intact")
	}

	// Transport failures: a search returns the error; prompt assembly goes on lexically.
	for name, set := range map[string]func(){
		"non-2xx": func() { backend.set(502, "bad gateway", 0) },
		"timeout": func() { backend.set(200, `{"results": []}`, 2*time.Second) },
		"garbage": func() { backend.set(200, `<html>`, 0) },
	} {
		set()
		_, err := e.svc.Search(e.ctx, SearchParams{Query: "tomatoes", NoTouch: true})
		if err == nil || !vector.IsBackendError(err) {
			t.Errorf("%s: the failure must surface, got %v", name, err)
		}
		best, err := e.svc.Search(e.ctx, SearchParams{Query: "tomatoes", NoTouch: true, BestEffort: true})
		if err != nil || rankOf(best, "mine") != 0 || len(best.Warnings) != 1 || best.Warnings[0].Code != vector.CodeVectorBackend {
			t.Errorf("%s: best effort keeps the lexical hits and warns: %v %+v %v", name, slugs(best), best.Warnings, err)
		}
		ctx, err := e.svc.BuildContext(e.ctx, ContextParams{Query: "tomatoes", MaxTokens: 300})
		if err != nil || !strings.Contains(ctx.Text, "Tomatoes") || len(ctx.Warnings) != 1 {
			t.Errorf("%s: build_context goes on: %v %+v", name, err, ctx)
		}
	}
}
