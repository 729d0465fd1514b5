package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"engram/backend/api"
	"engram/backend/settings"
	"engram/backend/wire"
)

// TestEmbeddingsVerbs: status of a fresh home (local), then a home switched to an
// OpenAI-compatible endpoint on 127.0.0.1: no key, the key read from stdin and shown only as
// set, the test embedding one text with it; an unknown sub-verb is a usage error.
func TestEmbeddingsVerbs(t *testing.T) {
	const key = "sk-embed-CLI0123456789abcdefKEY"
	var mu sync.Mutex
	var auths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "fake-embed" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		data := make([]map[string]any, len(req.Input))
		for i := range req.Input {
			data[i] = map[string]any{"object": "embedding", "index": i, "embedding": []float32{1, 2, 3, 4}}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data})
	}))
	defer srv.Close()

	h := newHome(t)
	if out := h.ok("embeddings", "status"); !strings.Contains(out, "local") || !strings.Contains(out, "sqlite") {
		t.Fatalf("status of a fresh home: %s", out)
	}
	if out := h.ok("embeddings", "test"); !strings.Contains(out, "256-dimension") {
		t.Fatalf("test of the local embedder: %s", out)
	}
	ctx := context.Background()
	svc, err := wire.Open(ctx, wire.Options{Home: h.dir, Lang: "en", Catalog: h.cat, Passive: true})
	if err != nil {
		t.Fatal(err)
	}
	p, u, m := "openai", srv.URL+"/v1", "fake-embed"
	if _, err := svc.API(ctx, api.ActorUser).Settings.Update(settings.Patch{Embeddings: &settings.EmbeddingsPatch{Provider: &p, BaseURL: &u, Model: &m}}); err != nil {
		t.Fatal(err)
	}
	svc.Close()

	if out := h.ok("embeddings", "status"); !strings.Contains(out, "openai:fake-embed") || !strings.Contains(out, "no key needed") {
		t.Fatalf("status after the switch: %s", out)
	}
	if code, out, errs := h.run(key+"\n", "embeddings", "key", "set"); code != 0 || strings.Contains(out+errs, key) {
		t.Fatalf("key set: %d %q %q", code, out, errs)
	}
	if out := h.ok("embeddings", "status"); !strings.Contains(out, "key set") || strings.Contains(out, key) {
		t.Fatalf("status with a key: %s", out)
	}
	if out := h.ok("embeddings", "test"); !strings.Contains(out, "openai:fake-embed returned a 4-dimension vector") {
		t.Fatalf("test: %s", out)
	}
	mu.Lock()
	last := auths[len(auths)-1]
	mu.Unlock()
	if last != "Bearer "+key {
		t.Fatalf("the endpoint got auth %q", last)
	}
	if code, _, _ := h.run("", "embeddings", "frobnicate"); code != 2 {
		t.Fatalf("unknown sub-verb exit %d", code)
	}
}
