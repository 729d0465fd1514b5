package settings

import (
	"net/url"
	"strings"
)

// LLM names the language model extraction and the organizer call. The API key is not a
// setting: it lives only in the home's key file (llm/keyring).
type LLM struct {
	// Provider is "" (no model: the offline extractor and rules only), "openai" (any
	// OpenAI-compatible endpoint, by BaseURL) or "anthropic".
	Provider string `json:"provider"`
	// BaseURL of the endpoint; "" is the provider's public API.
	BaseURL   string `json:"base_url"`
	Model     string `json:"model"`
	Streaming bool   `json:"streaming"`
}

// LLMPatch changes some LLM fields; nil leaves a field as it is.
type LLMPatch struct {
	Provider  *string `json:"provider,omitempty"`
	BaseURL   *string `json:"base_url,omitempty"`
	Model     *string `json:"model,omitempty"`
	Streaming *bool   `json:"streaming,omitempty"`
}

// MaxModelLen bounds a model name (real ones are under 100 characters).
const MaxModelLen = 200

// applyLLM validates p onto l. A base URL must be an absolute http(s) URL without credentials
// (a key pasted into it would otherwise land in the settings row); the value a refusal
// names has any credentials cut out.
func applyLLM(l *LLM, p *LLMPatch) error {
	if p == nil {
		return nil
	}
	if p.Provider != nil {
		switch *p.Provider {
		case "", "openai", "anthropic":
			l.Provider = *p.Provider
		default:
			return &InvalidError{Field: "llm.provider", Value: *p.Provider}
		}
	}
	if p.BaseURL != nil {
		raw := strings.TrimSpace(*p.BaseURL)
		if raw != "" {
			u, err := url.Parse(raw)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
				u.RawQuery != "" || u.Fragment != "" {
				return &InvalidError{Field: "llm.base_url", Value: withoutCredentials(raw)}
			}
		}
		l.BaseURL = raw
	}
	if p.Model != nil {
		m := strings.TrimSpace(*p.Model)
		if len(m) > MaxModelLen || strings.ContainsAny(m, "\n\r\t") {
			return &InvalidError{Field: "llm.model", Value: truncate(m, 60)}
		}
		l.Model = m
	}
	if p.Streaming != nil {
		l.Streaming = *p.Streaming
	}
	return nil
}

func withoutCredentials(raw string) string {
	if i := strings.Index(raw, "://"); i >= 0 {
		rest := raw[i+3:]
		if at := strings.LastIndex(strings.SplitN(rest, "/", 2)[0], "@"); at >= 0 {
			return raw[:i+3] + rest[at+1:]
		}
	}
	return truncate(raw, 200)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
