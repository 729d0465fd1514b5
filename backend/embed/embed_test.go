package embed

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func cos(a, b []float32) float64 { return float64(Dot(a, b)) }

func TestLocalEmbedder(t *testing.T) {
	l := NewLocal(0)
	if l.Dim() != DefaultLocalDim || !strings.Contains(l.Model(), "256") {
		t.Fatalf("model %s dim %d", l.Model(), l.Dim())
	}
	vs, err := l.Embed(context.Background(), []string{
		"I adopted a grey cat last week",
		"I adopted a grey cat last week",
		"We adopted a gray kitten recently",
		"The quarterly tax report is due",
		"我上周领养了一只灰色的猫",
		"我领养了一只小猫",
		"",
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs[:6] {
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-5 {
			t.Fatalf("vector %d not normalised: %f", i, n)
		}
	}
	if cos(vs[0], vs[1]) < 0.9999 {
		t.Fatal("same text, same vector")
	}
	if !(cos(vs[0], vs[2]) > cos(vs[0], vs[3])+0.1) {
		t.Fatalf("related texts should be closer: %.3f vs %.3f", cos(vs[0], vs[2]), cos(vs[0], vs[3]))
	}
	if !(cos(vs[4], vs[5]) > cos(vs[4], vs[3])+0.2) {
		t.Fatalf("Chinese: %.3f vs %.3f", cos(vs[4], vs[5]), cos(vs[4], vs[3]))
	}
	for _, x := range vs[6] {
		if x != 0 {
			t.Fatal("empty text gives a zero vector")
		}
	}
	// Concepts: a category and its member meet even across languages.
	c, _ := l.Embed(context.Background(), []string{"pets", "my dog", "宠物", "my tax form"})
	if !(cos(c[0], c[1]) > cos(c[0], c[3])) || !(cos(c[2], c[1]) > cos(c[2], c[3])) {
		t.Fatalf("concept features: %.3f %.3f %.3f %.3f", cos(c[0], c[1]), cos(c[0], c[3]), cos(c[2], c[1]), cos(c[2], c[3]))
	}
}

func TestOpenAIEmbedder(t *testing.T) {
	var auth string
	var calls int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		calls++
		var req embeddingRequest
		json.NewDecoder(r.Body).Decode(&req)
		if r.URL.Path != "/v1/embeddings" || req.Model != "nomic-embed-text" {
			w.WriteHeader(400)
			return
		}
		var data []map[string]any
		for i := len(req.Input) - 1; i >= 0; i-- { // out of order: the index decides
			data = append(data, map[string]any{"index": i, "embedding": []float32{float32(len(req.Input[i])), 3, 4}})
		}
		json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	defer srv.Close()
	o, err := NewOpenAI(OpenAIConfig{BaseURL: srv.URL + "/v1/", Model: "nomic-embed-text", APIKey: "k", BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := o.Embed(context.Background(), []string{"a", "bbb", "cc"})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 || auth != "Bearer k" || len(vs) != 3 || o.Model() != "openai:nomic-embed-text" {
		t.Fatalf("calls %d auth %q", calls, auth)
	}
	// Normalised and in input order: [len, 3, 4] / norm.
	if math.Abs(float64(vs[1][0])-3/math.Sqrt(34)) > 1e-6 {
		t.Fatalf("order or normalisation: %v", vs)
	}
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(401) }))
	defer bad.Close()
	o2, _ := NewOpenAI(OpenAIConfig{BaseURL: bad.URL, Model: "m"})
	if _, err := o2.Embed(context.Background(), []string{"x"}); err == nil || !isEmbeddingFailed(err) {
		t.Fatalf("401: %v", err)
	}
	if _, err := NewOpenAI(OpenAIConfig{BaseURL: "localhost:11434", Model: "m"}); err == nil {
		t.Fatal("a URL without scheme is refused")
	}
}

// isEmbeddingFailed reports whether err is a provider's coded transport failure.
func isEmbeddingFailed(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeEmbeddingFailed
}

func TestNewChoosesTheProvider(t *testing.T) {
	for _, c := range []struct {
		cfg   Config
		model string // "" when embeddings are off
		code  string // set when the config is refused
	}{
		{Config{}, "local-hash-v2/256", ""},
		{Config{Provider: " Local ", LocalDim: 64}, "local-hash-v2/64", ""},
		{Config{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "nomic-embed-text"}, "openai:nomic-embed-text", ""},
		{Config{Provider: "off"}, "", ""},
		{Config{Provider: "none"}, "", ""},
		{Config{Provider: "magic"}, "", CodeInvalidConfig},
		{Config{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1"}, "", CodeInvalidConfig},
	} {
		emb, err := New(c.cfg)
		var e *Error
		switch {
		case c.code != "":
			if !errors.As(err, &e) || e.Code != c.code || emb != nil {
				t.Errorf("%+v: want %s, got %v", c.cfg, c.code, err)
			}
		case err != nil:
			t.Errorf("%+v: %v", c.cfg, err)
		case c.model == "" && emb != nil:
			t.Errorf("%+v: embeddings are off, got %s", c.cfg, emb.Model())
		case c.model != "" && (emb == nil || emb.Model() != c.model):
			t.Errorf("%+v: want %s, got %v", c.cfg, c.model, emb)
		}
	}
}
