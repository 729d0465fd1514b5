package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"engram/backend/api"
	"engram/backend/embed"
	"engram/backend/i18n"
	"engram/backend/llm/keyring"
	"engram/backend/settings"
	"engram/backend/vector"
)

const embedKey = "sk-embed-WIRE0123456789abcdefKEY"

// embeddingsServer is a loopback OpenAI-compatible /v1/embeddings endpoint. It answers with
// real vectors (the local embedder's, 64 wide, so similar texts are near), demands the bearer
// key, and holds back document batches (more than one input) while gated, so a test can
// search in the middle of a re-embedding.
type embeddingsServer struct {
	*httptest.Server
	local embed.Embedder
	gate  chan struct{}

	mu       sync.Mutex
	docs     int      // document texts embedded
	queries  int      // single texts embedded (search queries, tests)
	auths    []string // every Authorization header seen
	held     int      // document batches waiting at the gate
	released bool
}

func newEmbeddingsServer(t *testing.T) *embeddingsServer {
	s := &embeddingsServer{local: embed.NewLocal(64), gate: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() { s.release(); s.Close() })
	return s
}

func (s *embeddingsServer) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil ||
		req.Model != "fake-embed" || len(req.Input) == 0 {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.auths = append(s.auths, r.Header.Get("Authorization"))
	s.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+embedKey {
		http.Error(w, `{"error":{"message":"Incorrect API key provided"}}`, http.StatusUnauthorized)
		return
	}
	if len(req.Input) > 1 {
		s.mu.Lock()
		s.held++
		s.mu.Unlock()
		select {
		case <-s.gate:
		case <-r.Context().Done():
			return
		}
		s.mu.Lock()
		s.docs += len(req.Input)
		s.mu.Unlock()
	}
	if len(req.Input) == 1 {
		s.mu.Lock()
		s.queries++
		s.mu.Unlock()
	}
	vecs, _ := s.local.Embed(r.Context(), req.Input)
	data := make([]map[string]any, len(vecs))
	for i, v := range vecs {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": v}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data,
		"usage": map[string]int{"prompt_tokens": len(req.Input), "total_tokens": len(req.Input)}})
}

func (s *embeddingsServer) heldBatches() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held
}

func (s *embeddingsServer) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.released {
		s.released = true
		close(s.gate)
	}
}

// waitUntil polls a state with a generous deadline; it asserts the state, never a duration.
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("never reached: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// openRunning opens long-running services (the indexer runs in the background) with the log
// going to logs.
func openRunning(t *testing.T, home string, logs *bytes.Buffer) (*Services, func()) {
	t.Helper()
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := Open(context.Background(), Options{Home: home, Lang: "en", Catalog: cat,
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	svc.Background()
	var once sync.Once
	closeNow := func() { once.Do(func() { svc.Close() }) }
	t.Cleanup(closeNow)
	return svc, closeNow
}

func hasVia(res api.SearchResult, slug, via string) bool {
	for _, h := range res.Hits {
		if h.Memory.Slug == slug && slices.Contains(h.Via, via) {
			return true
		}
	}
	return false
}

// TestSwitchingEmbeddingsReembedsInTheBackground: a home on the local embedder is switched to
// an OpenAI-compatible endpoint in Settings → Embeddings. Every memory is embedded again by
// the new model in the background (its key, set through the api, reaches the endpoint), search
// keeps answering while that runs and uses the new vectors afterwards; then embeddings are
// turned off and search goes on lexically. The key is found nowhere but llm.keys (0600).
func TestSwitchingEmbeddingsReembedsInTheBackground(t *testing.T) {
	home := t.TempDir()
	var logs bytes.Buffer
	svc, closeNow := openRunning(t, home, &logs)
	ctx := context.Background()
	user := svc.API(ctx, api.ActorUser)
	var evMu sync.Mutex
	var events []vector.Progress
	defer svc.Events.Subscribe(func(name string, data any) {
		if p, ok := data.(vector.Progress); ok && name == api.EventEmbeddingProgress {
			evMu.Lock()
			events = append(events, p)
			evMu.Unlock()
		}
	})()

	const n = 12
	writeNotes(t, user, n)
	st, err := user.Recall.EmbedStatus(api.Empty{})
	if err != nil || st.Provider != "local" || st.Backend != "sqlite" || !strings.HasPrefix(st.Model, "local") {
		t.Fatalf("fresh status: %+v %v", st, err)
	}
	waitUntil(t, "local vectors for every memory", func() bool {
		p := svc.Indexer().Progress()
		return p.Total == n && p.Done == n && !p.Running
	})

	srv := newEmbeddingsServer(t)
	if _, err := user.Settings.Update(settings.Patch{Embeddings: &settings.EmbeddingsPatch{Provider: sp("openai"),
		BaseURL: sp(srv.URL + "/v1"), Model: sp("fake-embed")}}); err != nil {
		t.Fatal(err)
	}
	st, _ = user.Recall.EmbedStatus(api.Empty{})
	if st.Provider != "openai" || st.Model != "openai:fake-embed" || st.KeySet || !st.Local || st.Endpoint != srv.URL+"/v1" {
		t.Fatalf("switched status: %+v", st)
	}
	// Pending from the start: nobody reads "0 of 0, done" before the first pass reports.
	if p := st.Progress; p.Model != "openai:fake-embed" || p.Total != n || p.Done != 0 {
		t.Fatalf("progress right after the switch: %+v", p)
	}
	for _, actor := range []string{api.ActorBridge, api.ActorTool} {
		_, err := svc.API(ctx, actor).Embeddings.SetKey(api.SetEmbeddingsKeyParams{Key: embedKey})
		var ae *api.Error
		if !errors.As(err, &ae) || ae.Code != api.CodeEmbeddingsKeyDesktopOnly || ae.Message == "" {
			t.Fatalf("%s set the embeddings key: %v", actor, err)
		}
	}
	st, err = user.Embeddings.SetKey(api.SetEmbeddingsKeyParams{Key: embedKey})
	if err != nil || !st.KeySet || st.Error != nil {
		t.Fatalf("set key: %+v %v", st, err)
	}
	if raw, _ := json.Marshal(st); bytes.Contains(raw, []byte(embedKey)) {
		t.Fatalf("status carries the key: %s", raw)
	}

	// The new model's pass is under way and held at the endpoint: search still answers.
	waitUntil(t, "a re-embedding batch reaches the endpoint", func() bool { return srv.heldBatches() > 0 })
	p := svc.Indexer().Progress()
	if p.Model != "openai:fake-embed" || p.Total != n || p.Done == n {
		t.Fatalf("progress during the re-embedding: %+v", p)
	}
	res, err := user.Memory.Search(api.SearchParams{Query: "green tea"})
	if err != nil || len(res.Hits) == 0 || res.Hits[0].Memory.Slug != "note-0" {
		t.Fatalf("search during the re-embedding: %+v %v", res, err)
	}

	srv.release()
	waitUntil(t, "every memory embedded by the new model", func() bool {
		p := svc.Indexer().Progress()
		return p.Model == "openai:fake-embed" && p.Done == n && p.Total == n && !p.Running
	})
	if done, total, err := svc.Store.VectorCounts(ctx, "openai:fake-embed"); err != nil || done != n || total != n {
		t.Fatalf("memory_vec for the new model: %d/%d %v", done, total, err)
	}
	srv.mu.Lock()
	docs, auths := srv.docs, append([]string{}, srv.auths...)
	srv.mu.Unlock()
	if docs < n || !slices.Contains(auths, "Bearer "+embedKey) {
		t.Fatalf("endpoint embedded %d documents, auth %q", docs, auths)
	}
	srv.mu.Lock()
	queriesBefore := srv.queries
	srv.mu.Unlock()
	res, err = user.Memory.Search(api.SearchParams{Query: "green tea morning"})
	srv.mu.Lock()
	queriesAfter := srv.queries
	srv.mu.Unlock()
	if queriesAfter != queriesBefore+1 {
		t.Fatalf("search did not embed its query with the new model (%d → %d)", queriesBefore, queriesAfter)
	}
	if err != nil || len(res.Hits) == 0 || res.Hits[0].Memory.Slug != "note-0" || !hasVia(res, "note-0", "vector") {
		t.Fatalf("search after the re-embedding (want the vector path): %+v %v", res, err)
	}
	evMu.Lock()
	sawDone := slices.ContainsFunc(events, func(p vector.Progress) bool {
		return p.Model == "openai:fake-embed" && p.Done == n && p.Total == n && !p.Running
	})
	evMu.Unlock()
	if !sawDone {
		t.Fatal("no embedding.progress event told the new model's pass finished")
	}
	tr, err := user.Embeddings.Test(api.Empty{})
	if err != nil || !tr.OK || tr.Dim != 64 || tr.Model != "openai:fake-embed" {
		t.Fatalf("embeddings.test: %+v %v", tr, err)
	}

	// Off: no indexer, no vector path; search still answers from text.
	if _, err := user.Settings.Update(settings.Patch{Embeddings: &settings.EmbeddingsPatch{Provider: sp("off")}}); err != nil {
		t.Fatal(err)
	}
	if svc.Indexer() != nil {
		t.Fatal("an indexer still runs with embeddings off")
	}
	st, _ = user.Recall.EmbedStatus(api.Empty{})
	if st.Provider != "off" || st.Model != "" || st.Settings.Provider != "off" {
		t.Fatalf("off status: %+v", st)
	}
	res, err = user.Memory.Search(api.SearchParams{Query: "green tea"})
	if err != nil || len(res.Hits) == 0 || res.Hits[0].Memory.Slug != "note-0" || hasVia(res, "note-0", "vector") {
		t.Fatalf("search with embeddings off: %+v %v", res, err)
	}
	tr, _ = user.Embeddings.Test(api.Empty{})
	if tr.OK || tr.Error == nil || tr.Error.Code != api.CodeEmbeddingsOff || tr.Error.Message == "" {
		t.Fatalf("test while off: %+v", tr)
	}

	exp, err := user.Memory.Export(api.ExportParams{Scope: api.ScopeGlobal})
	if err != nil || strings.Contains(exp.JSONL, embedKey) {
		t.Fatalf("export: %v", err)
	}
	closeNow()
	assertKeyOnlyInKeyFile(t, home, embedKey)
	if strings.Contains(logs.String(), embedKey) {
		t.Fatal("the log shows the key")
	}
}

// assertKeyOnlyInKeyFile walks the home: the only file holding key is llm.keys, mode 0600.
func assertKeyOnlyInKeyFile(t *testing.T, home, key string) {
	t.Helper()
	var holders []string
	err := filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(key)) {
			holders = append(holders, filepath.Base(p))
		}
		return nil
	})
	if err != nil || len(holders) != 1 || holders[0] != keyring.File {
		t.Fatalf("files holding the key: %v %v", holders, err)
	}
	if fi, err := os.Stat(filepath.Join(home, keyring.File)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode: %v %v", fi.Mode(), err)
	}
}

// TestModelFacingCallersCannotChangeEmbeddings: MCP's api (actor tool), by method or through
// Call, is refused with a translated error and the settings stay as they were; the person
// (window, CLI) and remote access may change them.
func TestModelFacingCallersCannotChangeEmbeddings(t *testing.T) {
	svc, _ := openWithCatalog(t, t.TempDir())
	ctx := context.Background()
	cases := []struct {
		actor   string
		viaCall bool
		allowed bool
	}{
		{api.ActorTool, false, false},
		{api.ActorTool, true, false},
		{api.ActorUser, false, true},
		{api.ActorBridge, true, true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s call=%v", c.actor, c.viaCall), func(t *testing.T) {
			a := svc.API(ctx, c.actor)
			before, _ := svc.Settings.Get(ctx)
			target := "off"
			if before.Embeddings.Provider == "off" {
				target = "local"
			}
			var err error
			if c.viaCall {
				_, err = a.Call("settings.update", json.RawMessage(`{"embeddings":{"provider":"`+target+`"}}`))
			} else {
				_, err = a.Settings.Update(settings.Patch{Embeddings: &settings.EmbeddingsPatch{Provider: sp(target)}})
			}
			after, _ := svc.Settings.Get(ctx)
			if !c.allowed {
				var ae *api.Error
				if !errors.As(err, &ae) || ae.Code != api.CodeEmbeddingsPersonOnly || ae.Message == "" || ae.Message == ae.I18nKey {
					t.Fatalf("tool changed embeddings: %v", err)
				}
				if after.Embeddings != before.Embeddings {
					t.Fatalf("a refused change landed: %+v", after.Embeddings)
				}
				return
			}
			if err != nil || after.Embeddings.Provider != target || svc.Embeddings.State().Provider != target {
				t.Fatalf("%s could not change embeddings: %v %+v", c.actor, err, svc.Embeddings.State())
			}
		})
	}
}
