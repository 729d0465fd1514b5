package vector

import (
	"context"
	"errors"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"engram/backend/embed"
	"engram/backend/memory"
)

// TestRuntimeSwitches: a runtime started in the background embeds with the local model; an
// external HTTP store then receives every memory again (a different local width is a
// different model); turning embeddings off stops the indexer and tells the listener; a
// configuration that cannot be built is an error and leaves embeddings off, not on another
// embedder.
func TestRuntimeSwitches(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	write(t, s, note(memory.ScopeGlobal, "", "", "one-note", "first note"), note(memory.ScopeGlobal, "", "", "two-note", "second note"),
		note(memory.ScopeGlobal, "", "", "three-note", "third note"))
	fb := &fakeBackend{results: func() (int, string) { return 200, `{"results": []}` }}
	srv := httptest.NewServer(fb)
	defer srv.Close()

	var mu sync.Mutex
	var switched []Setup
	rt := NewRuntime(s, RuntimeOptions{Logger: quiet, Indexer: IndexerOptions{Logger: quiet, Debounce: time.Millisecond},
		OnSwitch: func(st Setup) { mu.Lock(); switched = append(switched, st); mu.Unlock() }})
	if err := rt.Apply(ctx, embed.Config{}); err != nil {
		t.Fatal(err)
	}
	stop := rt.Start(ctx)
	defer stop()
	local := rt.Embedder().Model()
	waitFor(t, func() bool { p := rt.State().Progress; return p.Model == local && p.Total == 3 && p.Done == 3 })
	if st := rt.State(); st.Provider != "local" || st.Backend != "sqlite" {
		t.Fatalf("local state: %+v", st)
	}

	cases := []struct {
		name     string
		cfg      embed.Config
		provider string
		backend  string
		wantErr  bool
	}{
		{"external store", embed.Config{Provider: "local", LocalDim: 128, VectorBackend: "http", VectorStoreURL: srv.URL + "/v1"}, "local", "http", false},
		{"off", embed.Config{Provider: "off"}, "off", "", false},
		{"http without url", embed.Config{Provider: "local", VectorBackend: "http"}, "off", "", true},
		{"unknown provider", embed.Config{Provider: "cohere"}, "off", "", true},
		{"back to local", embed.Config{}, "local", "sqlite", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := rt.Apply(ctx, c.cfg)
			var ee *embed.Error
			var ve *Error
			if c.wantErr != (err != nil) || (err != nil && !errors.As(err, &ee) && !errors.As(err, &ve)) {
				t.Fatalf("apply: %v", err)
			}
			st := rt.State()
			if st.Provider != c.provider || st.Backend != c.backend || (rt.Err() != nil) != c.wantErr {
				t.Fatalf("state %+v err %v", st, rt.Err())
			}
			mu.Lock()
			last := switched[len(switched)-1]
			mu.Unlock()
			if (last.Embedder == nil) != (c.provider == "off") || (rt.Indexer() == nil) != (c.provider == "off") {
				t.Fatalf("listener or indexer out of step: %+v %v", last, rt.Indexer())
			}
			if c.provider == "off" {
				return
			}
			model := rt.Embedder().Model()
			waitFor(t, func() bool {
				p := rt.State().Progress
				return p.Model == model && p.Total == 3 && p.Done == 3 && !p.Running
			})
			if done, total, err := s.VectorCounts(ctx, model); err != nil || done != 3 || total != 3 {
				t.Fatalf("vectors of %s: %d/%d %v", model, done, total, err)
			}
			if c.backend == "http" {
				fb.mu.Lock()
				inserts := len(fb.got["/v1/insert"])
				fb.mu.Unlock()
				if inserts == 0 || last.Sink == nil {
					t.Fatal("the external store received no vectors")
				}
			}
		})
	}
}

// ReloadIfChanged reloads when what the configuration is read from changed, and only then; a
// stamp that cannot be read now ("": the index being repaired) keeps what runs — it turned a
// working embedder off until the next look.
func TestReloadIfChangedFollowsTheStamp(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	stamp, cfg := "a", embed.Config{}
	reads := 0
	rt := NewRuntime(s, RuntimeOptions{Logger: quiet,
		Config: func(context.Context) (embed.Config, error) {
			reads++
			if stamp == "" {
				return embed.Config{}, errors.New("settings unreadable")
			}
			return cfg, nil
		},
		Stamp: func() string { return stamp }})
	if err := rt.Reload(ctx); err != nil || rt.Embedder() == nil {
		t.Fatalf("first load: %v", err)
	}
	for _, step := range []struct {
		stamp  string
		reload bool
	}{{"a", false}, {"", false}, {"b", true}, {"b", false}} {
		stamp = step.stamp
		before := reads
		changed, err := rt.ReloadIfChanged(ctx)
		if changed != step.reload || err != nil || (reads > before) != step.reload {
			t.Errorf("stamp %q: reloaded %v (config read %d times), %v; want %v", step.stamp, changed, reads-before, err, step.reload)
		}
		if rt.Embedder() == nil {
			t.Fatalf("stamp %q: embeddings turned off", step.stamp)
		}
	}
}
