package embed

import (
	"log/slog"
	"strings"
	"time"

	"engram/backend/memory"
)

// Config chooses the embedding provider and where vectors live.
type Config struct {
	// Provider is "local" (default: no download, no network), "openai" (any OpenAI-compatible
	// /embeddings endpoint, Ollama included) or "off".
	Provider string `json:"provider"`
	// LocalDim is the local embedder's width (default 256).
	LocalDim int `json:"local_dim,omitempty"`
	// BaseURL, APIKey and Model configure the "openai" provider.
	BaseURL string `json:"base_url,omitempty"`
	APIKey  string `json:"api_key,omitempty"`
	Model   string `json:"model,omitempty"`
	// VectorBackend is "sqlite" (default: memory_vec and an in-process index) or "http" (an
	// external store at VectorStoreURL; vectors are still recorded in memory_vec).
	VectorBackend  string `json:"vector_backend,omitempty"`
	VectorStoreURL string `json:"vector_store_url,omitempty"`
	// Timeout bounds each provider or backend request (default 30 s).
	Timeout time.Duration `json:"timeout,omitempty"`
}

// Setup is what a Config builds: the embedder, the searcher recall queries, and the sink the
// indexer also writes to (nil for SQLite). Embedder is nil when embeddings are off.
type Setup struct {
	Embedder Embedder
	Searcher Searcher
	Sink     Sink
}

// Build validates cfg and constructs the pieces. A misconfiguration is an error, never a
// silent fallback: "http" without a URL, or an unknown provider or backend, is refused by name.
func Build(cfg Config, store *memory.Store, log *slog.Logger) (Setup, error) {
	var st Setup
	switch strings.ToLower(strings.TrimSpace(cfg.Provider)) {
	case "", "local":
		st.Embedder = NewLocal(cfg.LocalDim)
	case "openai":
		o, err := NewOpenAI(OpenAIConfig{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model, Timeout: cfg.Timeout})
		if err != nil {
			return st, err
		}
		st.Embedder = o
	case "off", "none":
		return st, nil
	default:
		return st, codeErr(CodeInvalidConfig, nil, map[string]any{"Field": "provider", "Value": cfg.Provider},
			"unknown embedding provider %q (use local, openai or off)", cfg.Provider)
	}
	switch strings.ToLower(strings.TrimSpace(cfg.VectorBackend)) {
	case "", "sqlite":
		st.Searcher = NewIndex(store, st.Embedder.Model())
	case "http":
		if strings.TrimSpace(cfg.VectorStoreURL) == "" {
			return st, codeErr(CodeInvalidConfig, nil, map[string]any{"Field": "vector_store_url", "Value": ""},
				"vector backend http needs vector_store_url")
		}
		h, err := NewHTTPStore(cfg.VectorStoreURL, HTTPStoreOptions{Timeout: cfg.Timeout, Logger: log})
		if err != nil {
			return st, err
		}
		st.Searcher, st.Sink = h, h
	default:
		return st, codeErr(CodeInvalidConfig, nil, map[string]any{"Field": "vector_backend", "Value": cfg.VectorBackend},
			"unknown vector backend %q (use sqlite or http)", cfg.VectorBackend)
	}
	return st, nil
}
