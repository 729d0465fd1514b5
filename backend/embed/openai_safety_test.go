package embed

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestEmbeddingErrorsNeverHoldTheKey: a server that echoes the key it was sent in its error
// body (compatible servers and proxies do: "Invalid API key sk-…") had the key shown by
// embeddings "Test", logged by the background indexer and returned to search, in the error's
// text and its Detail. A key near the body's 200-character cut must not keep its start either.
func TestEmbeddingErrorsNeverHoldTheKey(t *testing.T) {
	const key = "sk-embed-0123456789abcdefSECRET"
	for _, pad := range []int{0, 150} {
		t.Run(fmt.Sprint(pad), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusUnauthorized)
				fmt.Fprintf(w, `{"error":{"message":"%sInvalid API key %s"}}`, strings.Repeat(".", pad),
					strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
			}))
			defer srv.Close()
			o, err := NewOpenAI(OpenAIConfig{BaseURL: srv.URL + "/v1", Model: "nomic-embed-text", APIKey: key})
			if err != nil {
				t.Fatal(err)
			}
			_, err = o.Embed(context.Background(), []string{"x"})
			e, ok := err.(*Error)
			if !ok || e.Code != CodeEmbeddingFailed {
				t.Fatalf("want embedding_failed, got %v", err)
			}
			detail := fmt.Sprint(e.Args["Detail"])
			for _, s := range []string{err.Error(), detail} {
				if strings.Contains(s, key[:12]) {
					t.Fatalf("the key is in the error: %s", s)
				}
			}
			if pad == 0 && !strings.Contains(detail, "HTTP 401: ") {
				t.Fatalf("the server's words should stay: %s", detail)
			}
		})
	}
}

// TestEmbeddingRedirectStaysOnTheEndpoint: the texts embedded are the person's memories. A
// redirect to another host sent them there (Go drops the bearer token across hosts, not the
// body), and one from https to plain http on the same host sent the token in clear too. Such
// a redirect is now an embedding_failed error naming where it pointed; one on the same host is
// followed.
func TestEmbeddingRedirectStaysOnTheEndpoint(t *testing.T) {
	var got []string
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Host+" "+r.Header.Get("Authorization"))
		fmt.Fprint(w, `{"data":[{"index":0,"embedding":[1,0]}]}`)
	}))
	defer target.Close()
	redirectTo := func(to string) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, to+r.URL.Path, http.StatusTemporaryRedirect)
		}))
	}
	other := redirectTo(strings.Replace(target.URL, "127.0.0.1", "localhost", 1))
	defer other.Close()
	down := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer down.Close()
	for _, tc := range []struct {
		base   string
		client *http.Client
	}{{other.URL, nil}, {down.URL, down.Client()}} {
		o, err := NewOpenAI(OpenAIConfig{BaseURL: tc.base + "/v1", Model: "m", APIKey: "sk-embed-SECRET", Client: tc.client})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.Embed(context.Background(), []string{"my private memory"}); err == nil || !isEmbeddingFailed(err) || !strings.Contains(err.Error(), "redirected") {
			t.Fatalf("%s: %v", tc.base, err)
		}
	}
	if len(got) != 0 {
		t.Fatalf("the memories reached another address: %v", got)
	}
	same := redirectTo(target.URL)
	defer same.Close()
	o, _ := NewOpenAI(OpenAIConfig{BaseURL: same.URL + "/v1", Model: "m", APIKey: "sk-embed-SECRET"})
	if _, err := o.Embed(context.Background(), []string{"x"}); err != nil || len(got) != 1 {
		t.Fatalf("a redirect on the same host: %v %v", err, got)
	}
}

// An embeddings server that is not running was said in Go's English ("dial tcp …: connect:
// connection refused") inside the translated message; the reason now has its catalog key.
func TestEmbeddingServerNotRunningSaysWhyByKey(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	o, err := NewOpenAI(OpenAIConfig{BaseURL: "http://" + addr + "/v1", Model: "nomic-embed-text"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.Embed(context.Background(), []string{"x"})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeEmbeddingFailed || e.Args["DetailKey"] != "detail.net_refused" {
		t.Fatalf("%v (%+v)", err, e)
	}
}
