package vector

import (
	"log/slog"
	"strings"

	"engram/backend/embed"
	"engram/backend/memory"
)

// Setup is what a Config builds: the embedder, the searcher recall queries, and the sink the
// indexer also writes to (nil for SQLite). Embedder is nil when embeddings are off.
type Setup struct {
	Embedder embed.Embedder
	Searcher Searcher
	Sink     Sink
}

// Build validates cfg and constructs the pieces. A misconfiguration is an error, never a
// silent fallback: "http" without a URL, or an unknown provider or backend, is refused by name.
func Build(cfg embed.Config, store *memory.Store, log *slog.Logger) (Setup, error) {
	var st Setup
	emb, err := embed.New(cfg)
	if err != nil || emb == nil {
		return st, err
	}
	st.Embedder = emb
	switch strings.ToLower(strings.TrimSpace(cfg.VectorBackend)) {
	case "", "sqlite":
		st.Searcher = NewIndex(store, st.Embedder.Model())
	case "http":
		if strings.TrimSpace(cfg.VectorStoreURL) == "" {
			return st, codeErr(embed.CodeInvalidConfig, nil, map[string]any{"Field": "vector_store_url", "Value": ""},
				"vector backend http needs vector_store_url")
		}
		h, err := NewHTTPStore(cfg.VectorStoreURL, HTTPStoreOptions{Timeout: cfg.Timeout, Logger: log, Projects: store.Projects()})
		if err != nil {
			return st, err
		}
		st.Searcher, st.Sink = h, h
	default:
		return st, codeErr(embed.CodeInvalidConfig, nil, map[string]any{"Field": "vector_backend", "Value": cfg.VectorBackend},
			"unknown vector backend %q (use sqlite or http)", cfg.VectorBackend)
	}
	return st, nil
}
