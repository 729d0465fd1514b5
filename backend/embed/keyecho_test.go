package embed

import (
	"context"
	"fmt"
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
