package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"engram/backend/coded"
)

// OpenAIConfig configures an OpenAI-compatible /embeddings endpoint: OpenAI itself, or a
// local server such as Ollama (BaseURL "http://127.0.0.1:11434/v1"), LM Studio or vLLM.
type OpenAIConfig struct {
	// BaseURL is the API root; "/embeddings" is appended.
	BaseURL string
	// APIKey is sent as a bearer token when set.
	APIKey string
	// Model is the embedding model name.
	Model string
	// BatchSize is how many texts go in one request (default 64).
	BatchSize int
	// Timeout bounds each request (default 30 s).
	Timeout time.Duration
	// Client replaces the HTTP client (tests); its own timeout is kept.
	Client *http.Client
}

// OpenAI embeds through an OpenAI-compatible endpoint.
type OpenAI struct {
	cfg    OpenAIConfig
	url    string
	client *http.Client
}

// maxEmbeddingResponse bounds a response body; a misbehaving server cannot exhaust memory.
const maxEmbeddingResponse = 64 << 20

// NewOpenAI validates cfg and returns the client.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	u, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, codeErr(CodeInvalidConfig, err, map[string]any{"Field": "base_url", "Value": cfg.BaseURL},
			"the embeddings base URL %q is not an http(s) URL", cfg.BaseURL)
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, codeErr(CodeInvalidConfig, nil, map[string]any{"Field": "model", "Value": ""}, "an embedding model name is required")
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 64
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	c := http.Client{Timeout: cfg.Timeout}
	if cfg.Client != nil {
		c = *cfg.Client
	}
	c.CheckRedirect = stayOn(u)
	return &OpenAI{cfg: cfg, url: u.String() + "/embeddings", client: &c}, nil
}

// stayOn follows a redirect only on the endpoint's own host and never from https to plain
// http: the texts embedded are the person's memories, and Go's client keeps the bearer token
// on a downgrade to http and sends the body to whatever host a redirect names.
func stayOn(base *url.URL) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		to := req.URL
		if !strings.EqualFold(to.Hostname(), base.Hostname()) || (base.Scheme == "https" && to.Scheme != "https") {
			return fmt.Errorf("the endpoint redirected the call to %s://%s, which is not followed", to.Scheme, to.Host)
		}
		if len(via) >= 5 {
			return errors.New("stopped after 5 redirects")
		}
		return nil
	}
}

// Model is "openai:<model>": vectors of two servers running the same model are interchangeable.
func (o *OpenAI) Model() string { return "openai:" + o.cfg.Model }

type embeddingRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embeddingResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// Embed sends the texts in batches; any transport failure, non-2xx status, malformed body or
// inconsistent width is an embedding_failed error.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	dim := 0
	for start := 0; start < len(texts); start += o.cfg.BatchSize {
		part := texts[start:min(start+o.cfg.BatchSize, len(texts))]
		vecs, err := o.batch(ctx, part)
		if err != nil {
			return nil, err
		}
		for _, v := range vecs {
			if dim == 0 {
				dim = len(v)
			}
			if len(v) == 0 || len(v) != dim {
				return nil, o.fail(nil, "vectors of different widths (%d and %d)", dim, len(v))
			}
			Normalize(v)
			out = append(out, v)
		}
	}
	return out, nil
}

// fail is an embedding_failed error. Its text never holds the API key: a server that echoes
// the key it was sent in its error body ("Invalid API key sk-…", as some compatible servers and
// proxies do) had it shown by "Test", logged by the indexer and returned to search.
func (o *OpenAI) fail(cause error, format string, a ...any) *Error {
	msg := fmt.Sprintf(format, a...)
	if k := o.cfg.APIKey; len(k) >= 4 {
		msg = strings.ReplaceAll(msg, k, "[redacted]")
	}
	args := map[string]any{"Model": o.cfg.Model, "Detail": msg}
	if key := coded.NetReasonKey(cause); key != "" {
		args["DetailKey"] = key // why the server was not reached, in the person's language
	}
	return codeErr(CodeEmbeddingFailed, cause, args, "unable to embed with %s: %s", o.cfg.Model, msg)
}

func (o *OpenAI) batch(ctx context.Context, texts []string) ([][]float32, error) {
	body, _ := json.Marshal(embeddingRequest{Model: o.cfg.Model, Input: texts})
	ctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.url, bytes.NewReader(body))
	if err != nil {
		return nil, o.fail(err, "%v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if o.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.cfg.APIKey)
	}
	resp, err := o.client.Do(req)
	if err != nil {
		return nil, o.fail(err, "%v", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxEmbeddingResponse+1))
	if err != nil {
		return nil, o.fail(err, "reading the response: %v", err)
	}
	if len(data) > maxEmbeddingResponse {
		return nil, o.fail(nil, "response larger than %d bytes", maxEmbeddingResponse)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// The key is taken out before the body is cut, or a cut key would keep its start.
		body := string(data)
		if k := o.cfg.APIKey; len(k) >= 4 {
			body = strings.ReplaceAll(body, k, "[redacted]")
		}
		return nil, o.fail(nil, "HTTP %d: %s", resp.StatusCode, clip(body, 200))
	}
	var er embeddingResponse
	if err := json.Unmarshal(data, &er); err != nil {
		return nil, o.fail(err, "unreadable response: %v", err)
	}
	if len(er.Data) != len(texts) {
		return nil, o.fail(nil, "%d vectors for %d texts", len(er.Data), len(texts))
	}
	out := make([][]float32, len(texts))
	for i, d := range er.Data {
		idx := d.Index
		if idx < 0 || idx >= len(texts) || out[idx] != nil {
			idx = i // servers that omit or repeat the index answer in order
		}
		if out[idx] != nil {
			return nil, o.fail(nil, "duplicate vector index %d", d.Index)
		}
		out[idx] = d.Embedding
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
