package settings

import (
	"net/url"
	"strings"
)

// Embeddings chooses how memories become vectors and where the vectors live. The API key of
// an OpenAI-compatible endpoint is not a setting: it lives only in the home's key file
// (llm/keyring), filed under the endpoint like a language model's key.
type Embeddings struct {
	// Provider is "" or "local" (the default: no download, no network), "openai" (any
	// OpenAI-compatible /embeddings endpoint: OpenAI, Ollama, LM Studio, vLLM…) or "off".
	Provider string `json:"provider"`
	// BaseURL of the OpenAI-compatible endpoint; "" is OpenAI's public API.
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
	// VectorBackend is "" or "sqlite" (the index itself) or "http" (an external store at
	// VectorURL; vectors are still recorded in the index).
	VectorBackend string `json:"vector_backend"`
	VectorURL     string `json:"vector_url"`
}

// EmbeddingsPatch changes some Embeddings fields; nil leaves a field as it is.
type EmbeddingsPatch struct {
	Provider      *string `json:"provider,omitempty"`
	BaseURL       *string `json:"base_url,omitempty"`
	Model         *string `json:"model,omitempty"`
	VectorBackend *string `json:"vector_backend,omitempty"`
	VectorURL     *string `json:"vector_url,omitempty"`
}

// EffectiveProvider is Provider with the default spelled out.
func (e Embeddings) EffectiveProvider() string {
	if e.Provider == "" {
		return "local"
	}
	return e.Provider
}

// EffectiveBackend is VectorBackend with the default spelled out.
func (e Embeddings) EffectiveBackend() string {
	if e.VectorBackend == "" {
		return "sqlite"
	}
	return e.VectorBackend
}

// applyEmbeddings validates p onto e, then checks the result as a whole: "openai" needs a
// model and "http" a store URL, so a half-made choice is refused rather than saved and
// failing later in the background. URLs must be absolute http(s) without credentials (a key
// pasted into one would otherwise land in the settings row).
func applyEmbeddings(e *Embeddings, p *EmbeddingsPatch) error {
	if p == nil {
		return nil
	}
	next := *e
	if p.Provider != nil {
		switch v := strings.TrimSpace(*p.Provider); v {
		case "", "local", "openai", "off":
			next.Provider = v
		default:
			return &InvalidError{Field: "embeddings.provider", Value: truncate(v, 60)}
		}
	}
	if p.BaseURL != nil {
		v, ok := httpURL(*p.BaseURL)
		if !ok {
			return &InvalidError{Field: "embeddings.base_url", Value: shownURL(*p.BaseURL)}
		}
		next.BaseURL = v
	}
	if p.Model != nil {
		m := strings.TrimSpace(*p.Model)
		if len(m) > MaxModelLen || strings.ContainsAny(m, "\n\r\t") {
			return &InvalidError{Field: "embeddings.model", Value: truncate(m, 60)}
		}
		next.Model = m
	}
	if p.VectorBackend != nil {
		switch v := strings.TrimSpace(*p.VectorBackend); v {
		case "", "sqlite", "http":
			next.VectorBackend = v
		default:
			return &InvalidError{Field: "embeddings.vector_backend", Value: truncate(v, 60)}
		}
	}
	if p.VectorURL != nil {
		v, ok := httpURL(*p.VectorURL)
		if !ok {
			return &InvalidError{Field: "embeddings.vector_url", Value: shownURL(*p.VectorURL)}
		}
		next.VectorURL = v
	}
	if next.Provider == "openai" && next.Model == "" {
		return &InvalidError{Field: "embeddings.model", Value: ""}
	}
	if next.VectorBackend == "http" && next.VectorURL == "" && next.EffectiveProvider() != "off" {
		return &InvalidError{Field: "embeddings.vector_url", Value: ""}
	}
	*e = next
	return nil
}

// httpURL trims raw and accepts "" or an absolute http(s) URL without credentials, query or
// fragment.
func httpURL(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", true
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	return raw, true
}

// shownURL is a refused URL as a refusal may name it: without credentials, query or fragment
// (where a pasted key would be).
func shownURL(raw string) string {
	raw = strings.TrimSpace(raw)
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		raw = raw[:i]
	}
	return withoutCredentials(raw)
}
