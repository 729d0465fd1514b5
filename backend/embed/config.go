package embed

import (
	"strings"
	"time"
)

// Config chooses the embedding provider and where vectors live (the latter is read by
// vector.Build).
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

// New builds the embedder cfg names; nil (and no error) when embeddings are off. An unknown
// provider is refused by name, never replaced by a silent fallback.
func New(cfg Config) (Embedder, error) {
	switch strings.ToLower(strings.TrimSpace(cfg.Provider)) {
	case "", "local":
		return NewLocal(cfg.LocalDim), nil
	case "openai":
		o, err := NewOpenAI(OpenAIConfig{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model, Timeout: cfg.Timeout})
		if err != nil {
			return nil, err
		}
		return o, nil
	case "off", "none":
		return nil, nil
	default:
		return nil, codeErr(CodeInvalidConfig, nil, map[string]any{"Field": "provider", "Value": cfg.Provider},
			"unknown embedding provider %q (use local, openai or off)", cfg.Provider)
	}
}
