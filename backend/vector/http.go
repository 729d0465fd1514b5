package vector

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"engram/backend/embed"
	"engram/backend/memory"
)

// HTTPStore is an external vector store reached over HTTP (DESIGN §10). Engram keeps the rows,
// the filters and every isolation guard; the backend only says which ids lie nearest to a
// query vector. It serves four POST endpoints under its base URL:
//
//	/insert          {"items": [{"id", "vector", "payload": {scope, scope_key, type}}]}
//	/search          {"vector", "limit", "filter": {scopes: [{scope, key}], type, archived}}
//	                 → {"results": [{"id", "score"}]}
//	/delete          {"ids": [...]}
//	/get_embeddings  {"ids": [...]} → {"embeddings": {"<id>": [...]}}
//
// The filter is sent so that the backend may prune before ranking; nothing depends on it doing
// so. Whatever /search returns is untrusted: ids that are not ULIDs are dropped here with a
// warning, and recall loads every remaining id from the local index with the caller's filter
// applied again, so unknown, deleted or foreign-scope ids never surface. Transport failures
// (refused connection, timeout, non-2xx, unreadable body) are returned as
// vector_backend_failed errors.
type HTTPStore struct {
	base     string
	client   *http.Client
	log      *slog.Logger
	projects *memory.Projects
}

// HTTPStoreOptions tune the client; zero values take the defaults.
type HTTPStoreOptions struct {
	// ConnectTimeout bounds dialing (default 10 s).
	ConnectTimeout time.Duration
	// Timeout bounds each whole request (default 30 s).
	Timeout time.Duration
	Logger  *slog.Logger
	// Projects keys the workdirs of search filters (the store's; nil reads the files each time).
	Projects *memory.Projects
}

// maxBackendResponse bounds a response body.
const maxBackendResponse = 64 << 20

// NewHTTPStore returns a client for the backend at baseURL (trailing slashes trimmed).
func NewHTTPStore(baseURL string, opts HTTPStoreOptions) (*HTTPStore, error) {
	base := strings.TrimRight(strings.TrimSpace(baseURL), "/")
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, codeErr(embed.CodeInvalidConfig, err, map[string]any{"Field": "vector_store_url", "Value": baseURL},
			"the vector store URL %q is not an http(s) URL", baseURL)
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = 10 * time.Second
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	tr := &http.Transport{
		Proxy:                 nil, // a store on loopback must not be routed through a proxy
		DialContext:           (&net.Dialer{Timeout: opts.ConnectTimeout}).DialContext,
		TLSHandshakeTimeout:   opts.ConnectTimeout,
		ResponseHeaderTimeout: opts.Timeout,
		MaxIdleConnsPerHost:   4,
	}
	return &HTTPStore{base: base, client: &http.Client{Transport: tr, Timeout: opts.Timeout}, log: opts.Logger, projects: opts.Projects}, nil
}

// Name is the backend's kind.
func (h *HTTPStore) Name() string { return "http" }

// Payload is what the backend keeps beside a vector so that it may filter.
type Payload struct {
	Scope    string `json:"scope"`
	ScopeKey string `json:"scope_key"`
	Type     string `json:"type"`
}

// Item is one vector to insert (or replace).
type Item struct {
	ID      string    `json:"id"`
	Vector  []float32 `json:"vector"`
	Payload Payload   `json:"payload"`
}

// WireScope is one scope instance a search may return.
type WireScope struct {
	Scope string `json:"scope"`
	Key   string `json:"key,omitempty"`
}

// WireFilter is the caller's filter as sent to the backend.
type WireFilter struct {
	Scopes   []WireScope `json:"scopes,omitempty"`
	Type     string      `json:"type,omitempty"`
	Archived bool        `json:"archived"`
}

// WireFilterOf renders f for the backend.
func WireFilterOf(f memory.Filter, ps *memory.Projects) WireFilter {
	w := WireFilter{Type: string(f.Type), Archived: f.Archived}
	key := ""
	if f.Workdir != "" {
		if k, err := ps.Key(f.Workdir); err == nil {
			key = k
		}
	}
	switch {
	case f.Scope == memory.ScopeGlobal:
		w.Scopes = []WireScope{{Scope: "global"}}
	case f.Scope == memory.ScopeProject:
		w.Scopes = []WireScope{{Scope: "project", Key: key}}
	case f.Scope == memory.ScopeAgent:
		w.Scopes = []WireScope{{Scope: "agent", Key: f.Agent}}
	case f.Workdir != "" || f.Agent != "":
		w.Scopes = []WireScope{{Scope: "global"}}
		if key != "" {
			w.Scopes = append(w.Scopes, WireScope{Scope: "project", Key: key})
		}
		if f.Agent != "" {
			w.Scopes = append(w.Scopes, WireScope{Scope: "agent", Key: f.Agent})
		}
	}
	return w
}

func (h *HTTPStore) fail(op string, cause error, format string, a ...any) *Error {
	detail := fmt.Sprintf(format, a...)
	return codeErr(CodeVectorBackend, cause, map[string]any{"Op": op, "Detail": detail},
		"vector store %s failed: %s", op, detail)
}

// post sends body to path and decodes a 2xx JSON answer into out (when non-nil).
func (h *HTTPStore) post(ctx context.Context, op string, body, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return h.fail(op, err, "%v", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.base+"/"+op, bytes.NewReader(data))
	if err != nil {
		return h.fail(op, err, "%v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.client.Do(req)
	if err != nil {
		return h.fail(op, err, "%v", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBackendResponse+1))
	if err != nil {
		return h.fail(op, err, "reading the response: %v", err)
	}
	if len(raw) > maxBackendResponse {
		return h.fail(op, nil, "response larger than %d bytes", maxBackendResponse)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return h.fail(op, nil, "HTTP %d: %s", resp.StatusCode, clip(string(raw), 200))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return h.fail(op, err, "unreadable response: %v", err)
	}
	return nil
}

// Insert stores (or replaces) vectors.
func (h *HTTPStore) Insert(ctx context.Context, items []Item) error {
	if len(items) == 0 {
		return nil
	}
	return h.post(ctx, "insert", map[string]any{"items": items}, nil)
}

// Delete removes vectors by id.
func (h *HTTPStore) Delete(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	return h.post(ctx, "delete", map[string]any{"ids": ids}, nil)
}

// GetEmbeddings returns the stored vectors of ids; ids the backend does not know are absent,
// and so is anything it returns for an id that was not asked for.
func (h *HTTPStore) GetEmbeddings(ctx context.Context, ids []string) (map[string][]float32, error) {
	out := map[string][]float32{}
	if len(ids) == 0 {
		return out, nil
	}
	var resp struct {
		Embeddings map[string][]float32 `json:"embeddings"`
	}
	if err := h.post(ctx, "get_embeddings", map[string]any{"ids": ids}, &resp); err != nil {
		return nil, err
	}
	asked := map[string]bool{}
	for _, id := range ids {
		asked[id] = true
	}
	for id, v := range resp.Embeddings {
		if asked[id] && len(v) > 0 {
			out[id] = v
		}
	}
	return out, nil
}

// Search asks the backend for the nearest ids. Malformed ids and non-finite scores are dropped
// with a warning; duplicates keep their first (best) place.
func (h *HTTPStore) Search(ctx context.Context, vec []float32, limit int, f memory.Filter) ([]Match, error) {
	if limit <= 0 || len(vec) == 0 {
		return nil, nil
	}
	var resp struct {
		Results []struct {
			ID    string  `json:"id"`
			Score float64 `json:"score"`
		} `json:"results"`
	}
	if err := h.post(ctx, "search", map[string]any{"vector": vec, "limit": limit, "filter": WireFilterOf(f, h.projects)}, &resp); err != nil {
		return nil, err
	}
	out := make([]Match, 0, len(resp.Results))
	seen := map[string]bool{}
	for _, r := range resp.Results {
		if _, err := ulid.ParseStrict(r.ID); err != nil {
			h.log.Warn("vector: vector store returned a malformed id; dropped", "id", clip(r.ID, 64))
			continue
		}
		if math.IsNaN(r.Score) || math.IsInf(r.Score, 0) || seen[r.ID] {
			continue
		}
		seen[r.ID] = true
		out = append(out, Match{ID: r.ID, Score: r.Score})
		if len(out) >= limit {
			break
		}
	}
	return out, nil
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
