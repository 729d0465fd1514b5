package llm_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
)

// redirector answers every call with a 307 to target + the call's path: what a proxy, a
// captive portal or a hostile server on the network can send.
func redirector(t *testing.T, target string) *httptest.Server {
	t.Helper()
	r := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.Copy(io.Discard, req.Body)
		http.Redirect(w, req, target+req.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(r.Close)
	return r
}

// An endpoint that redirects the call to another host does not get the key (or the
// conversation) sent there: Go's client carries custom headers such as Anthropic's x-api-key
// across hosts, and did, with the body. A redirect on the endpoint's own host is followed.
func TestRedirectNeverCarriesTheKeyElsewhere(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		srv.Push(llmtest.Text("should not be reached"))
		origin := strings.TrimSuffix(srv.URL(), "/v1")
		other := strings.Replace(origin, "127.0.0.1", "localhost", 1)
		r := redirector(t, other)
		c, err := llm.New(llm.Config{Provider: v.provider, BaseURL: r.URL + strings.TrimPrefix(srv.URL(), origin),
			Model: v.model, Streaming: v.streaming}, testKey, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "my secret plans"}}})
		e := wantCode(t, err, llm.CodeRedirected)
		if got := len(srv.Requests()); got != 0 {
			t.Fatalf("the other host received %d calls (key %q)", got, srv.Requests()[0].Auth())
		}
		if to, _ := e.Args["To"].(string); !strings.HasPrefix(other, to) || strings.Contains(err.Error(), testKey) {
			t.Fatalf("the error should name where the call was sent, without the key: %v %v", err, e.Args)
		}

		// From https to plain http on the same host, the key would cross the network in clear.
		down := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			http.Redirect(w, req, origin+req.URL.Path, http.StatusTemporaryRedirect)
		}))
		t.Cleanup(down.Close)
		c, err = llm.New(llm.Config{Provider: v.provider, BaseURL: down.URL + strings.TrimPrefix(srv.URL(), origin),
			Model: v.model, Streaming: v.streaming, HTTPClient: down.Client()}, testKey, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		wantCode(t, err, llm.CodeRedirected)
		if got := len(srv.Requests()); got != 0 {
			t.Fatalf("the plain-http address received %d calls", got)
		}

		// The same host on another port (http://127.0.0.1:A → http://127.0.0.1:B) is followed.
		same := redirector(t, origin)
		c, err = llm.New(llm.Config{Provider: v.provider, BaseURL: same.URL + strings.TrimPrefix(srv.URL(), origin),
			Model: v.model, Streaming: v.streaming}, testKey, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		if err != nil || resp.Text != "should not be reached" {
			t.Fatalf("a redirect on the same host: %q, %v", resp.Text, err)
		}
	})
}

// TestWrongBaseURLSaysWhereItCalled: Ollama's address without /v1 answers its plain
// "404 page not found", Anthropic's with /v1 added (…/v1/v1/messages) a JSON "Not Found". Both
// were "the provider rejected the request (HTTP 404): 404 page not found", which said neither
// the address called nor what to check. The error now names the address, keeps the server's
// words, and is its own code (not retried).
func TestWrongBaseURLSaysWhereItCalled(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if strings.HasPrefix(r.URL.Path, "/v1/v1/") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"Not Found"}}`)
			return
		}
		http.Error(w, "404 page not found", http.StatusNotFound) // Go's mux, as Ollama answers
	}))
	defer srv.Close()
	for _, tc := range []struct{ provider, base, called, detail string }{
		{llm.ProviderOpenAI, srv.URL, srv.URL + "/chat/completions", "404 page not found"},
		{llm.ProviderOpenAI, srv.URL + "/", srv.URL + "/chat/completions", "404 page not found"},
		{llm.ProviderAnthropic, srv.URL + "/v1/", srv.URL + "/v1/v1/messages", "Not Found"},
	} {
		for _, streaming := range []bool{false, true} {
			c, err := llm.New(llm.Config{Provider: tc.provider, BaseURL: tc.base, Model: "llama3.1", Streaming: streaming}, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
			e := wantCode(t, err, llm.CodeNoEndpoint)
			if e.Args["URL"] != tc.called || e.Args["Detail"] != tc.detail || e.Attempts != 1 {
				t.Fatalf("%s %s: args %v after %d attempts", tc.provider, tc.base, e.Args, e.Attempts)
			}
		}
	}
}
