package llm

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Timeouts and retry bounds.
const (
	// DefaultTimeout bounds a call (all its retries included) when neither the request nor the
	// config names one.
	DefaultTimeout = 60 * time.Second
	// ExtractionTimeout is what the extraction engine gives each call (DESIGN §10).
	ExtractionTimeout = 45 * time.Second
	// DefaultMaxTokens bounds an answer when the request names no limit (Anthropic requires one).
	DefaultMaxTokens = 4096
	// MaxAttempts is how many calls one Complete makes at most (1 + retries on 429/5xx).
	MaxAttempts = 4
)

// Config names the model to talk to. The API key is not part of it: keys live only in the
// home's key file and are passed to New on their own.
type Config struct {
	Provider string `json:"provider"`
	// BaseURL of the endpoint; "" picks the provider's public API. For OpenAI-compatible
	// servers it ends in /v1 (http://127.0.0.1:11434/v1 for Ollama).
	BaseURL   string        `json:"base_url"`
	Model     string        `json:"model"`
	Streaming bool          `json:"streaming"`
	Timeout   time.Duration `json:"timeout"`
	// HTTPClient overrides the transport (tests); nil uses a fresh http.Client.
	HTTPClient *http.Client `json:"-"`
	// Backoff is the first retry's wait when the provider sends no Retry-After; each retry
	// doubles it. 0 picks 500 ms.
	Backoff time.Duration `json:"-"`
}

// Public endpoints, used when Config.BaseURL is empty.
const (
	OpenAIBaseURL    = "https://api.openai.com/v1"
	AnthropicBaseURL = "https://api.anthropic.com"
)

// Validate checks the provider, the model and the base URL.
func (c Config) Validate() error {
	switch c.Provider {
	case ProviderOpenAI, ProviderAnthropic:
	case "":
		return ErrNotConfigured()
	default:
		return codeErr(CodeInvalidConfig, map[string]any{"Detail": "unknown provider " + c.Provider, "DetailKey": "detail.unknown_provider", "Provider": c.Provider}, "unknown provider %q", c.Provider)
	}
	if strings.TrimSpace(c.Model) == "" {
		return codeErr(CodeNoModel, nil, "no model named")
	}
	if c.BaseURL != "" {
		if err := ValidateBaseURL(c.BaseURL); err != nil {
			return err
		}
	}
	if c.Timeout < 0 {
		return codeErr(CodeInvalidConfig, map[string]any{"Detail": "negative timeout", "DetailKey": "detail.negative_timeout"}, "negative timeout")
	}
	return nil
}

// ValidateBaseURL accepts an absolute http(s) URL without credentials, query or fragment.
func ValidateBaseURL(raw string) error {
	u, err := url.Parse(raw)
	bad := func(why, key string) error {
		return codeErr(CodeInvalidConfig, map[string]any{"Detail": "base URL " + why, "DetailKey": "detail." + key}, "base URL %s", why)
	}
	switch {
	case err != nil:
		return bad("does not parse", "url_unparsable")
	case u.Scheme != "http" && u.Scheme != "https":
		return bad("must start with http:// or https://", "url_scheme")
	case u.Host == "":
		return bad("has no host", "url_no_host")
	case u.User != nil:
		return bad("must not carry credentials", "url_credentials")
	case u.RawQuery != "" || u.Fragment != "":
		return bad("must not carry a query or fragment", "url_query")
	}
	return nil
}

// IsLocal reports whether a base URL points at this machine or the local network (Ollama,
// LM Studio, vLLM on localhost or a LAN address), where servers usually need no key. A key
// filed for such an endpoint is still sent.
func IsLocal(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast())
}

// New builds the client for cfg. key may be empty for an endpoint that needs none (a local
// server); a public endpoint without a key is llm_not_configured. sink receives one row per
// call that reached the provider; nil records nothing.
func New(cfg Config, key string, sink UsageSink) (Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = 500 * time.Millisecond
	}
	if cfg.BaseURL == "" {
		if cfg.Provider == ProviderAnthropic {
			cfg.BaseURL = AnthropicBaseURL
		} else {
			cfg.BaseURL = OpenAIBaseURL
		}
	}
	hc := http.Client{}
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
	}
	hc.CheckRedirect = stayOn(cfg.BaseURL)
	cfg.HTTPClient = &hc
	if key == "" && !IsLocal(cfg.BaseURL) {
		return nil, codeErr(CodeNotConfigured, map[string]any{"Provider": cfg.Provider}, "no API key set for %s", cfg.BaseURL)
	}
	b := &base{cfg: cfg, key: key, sink: sink}
	if cfg.Provider == ProviderAnthropic {
		return newAnthropic(b), nil
	}
	return newOpenAI(b), nil
}

// base holds what both providers share: config, key, sink and the retry loop.
type base struct {
	cfg  Config
	key  string
	sink UsageSink
}

func (b *base) Provider() string { return b.cfg.Provider }
func (b *base) Model() string    { return b.cfg.Model }

// timeout is the request's own bound, else the config's.
func (b *base) timeout(req Request) time.Duration {
	if req.Timeout > 0 {
		return req.Timeout
	}
	return b.cfg.Timeout
}

func maxTokens(req Request) int64 {
	if req.MaxTokens > 0 {
		return int64(req.MaxTokens)
	}
	return DefaultMaxTokens
}

// record sends one usage row; a sink failure is returned to the caller only through logs of
// the sink itself, since the call's answer must not be lost to accounting.
func (b *base) record(ctx context.Context, purpose, model string, u Usage) {
	if b.sink == nil {
		return
	}
	if model == "" {
		model = b.cfg.Model
	}
	if purpose == "" {
		purpose = "unspecified"
	}
	// The call's own context may be cancelled already; the row is still owed.
	_ = b.sink(context.WithoutCancel(ctx), UsageRow{
		At: time.Now().UTC(), Provider: b.cfg.Provider, Model: model, Purpose: purpose,
		InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CostUSD: u.CostUSD,
	})
}

// redact removes the key from any text a provider or transport sent back.
func (b *base) redact(s string) string {
	if b.key != "" && len(b.key) >= 4 {
		s = strings.ReplaceAll(s, b.key, "[redacted]")
	}
	return s
}

// String and GoString name the client without its key, so a client printed into a log or an
// error (%v, %+v, %#v) never shows it.
func (b *base) String() string {
	return "llm client " + b.cfg.Provider + " " + b.cfg.Model + " at " + b.cfg.BaseURL
}
func (b *base) GoString() string { return b.String() }
