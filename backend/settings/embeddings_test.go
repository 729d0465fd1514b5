package settings

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestEmbeddingsSettings(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	st, _ := s.Get(ctx)
	if st.Embeddings != (Embeddings{}) || st.Embeddings.EffectiveProvider() != "local" || st.Embeddings.EffectiveBackend() != "sqlite" {
		t.Fatalf("a fresh home is not on the local embedder: %+v", st.Embeddings)
	}
	st, err := s.Update(ctx, Patch{Embeddings: &EmbeddingsPatch{Provider: sp("openai"),
		BaseURL: sp(" http://127.0.0.1:11434/v1 "), Model: sp(" nomic-embed-text ")}})
	want := Embeddings{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "nomic-embed-text"}
	if err != nil || st.Embeddings != want {
		t.Fatalf("update: %+v %v", st.Embeddings, err)
	}
	if got, _ := s.Get(ctx); got.Embeddings != want {
		t.Fatalf("not saved: %+v", got.Embeddings)
	}

	cases := []struct {
		name  string
		p     EmbeddingsPatch
		field string
	}{
		{"unknown provider", EmbeddingsPatch{Provider: sp("cohere")}, "embeddings.provider"},
		{"not a url", EmbeddingsPatch{BaseURL: sp("not a url")}, "embeddings.base_url"},
		{"ftp", EmbeddingsPatch{BaseURL: sp("ftp://host/v1")}, "embeddings.base_url"},
		{"query", EmbeddingsPatch{BaseURL: sp("https://host/v1?api_key=SECRET")}, "embeddings.base_url"},
		{"credentials", EmbeddingsPatch{BaseURL: sp("https://me:sk-SECRET@host/v1")}, "embeddings.base_url"},
		{"long model", EmbeddingsPatch{Model: sp(strings.Repeat("m", MaxModelLen+1))}, "embeddings.model"},
		{"model with a line break", EmbeddingsPatch{Model: sp("a\nb")}, "embeddings.model"},
		{"openai without a model", EmbeddingsPatch{Model: sp("")}, "embeddings.model"},
		{"unknown backend", EmbeddingsPatch{VectorBackend: sp("qdrant")}, "embeddings.vector_backend"},
		{"http without url", EmbeddingsPatch{VectorBackend: sp("http")}, "embeddings.vector_url"},
		{"store url with credentials", EmbeddingsPatch{VectorBackend: sp("http"), VectorURL: sp("http://u:SECRET@127.0.0.1:6333")}, "embeddings.vector_url"},
		{"store url not http", EmbeddingsPatch{VectorBackend: sp("http"), VectorURL: sp("file:///tmp/x")}, "embeddings.vector_url"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.Update(ctx, Patch{Embeddings: &c.p})
			var ie *InvalidError
			if !errors.As(err, &ie) || ie.Field != c.field || ie.ErrorCode() != CodeInvalid {
				t.Fatalf("want invalid %s, got %v", c.field, err)
			}
			if strings.Contains(err.Error(), "SECRET") || strings.Contains(ie.Value, "SECRET") {
				t.Fatalf("a refusal repeated credentials: %v", err)
			}
			if got, _ := s.Get(ctx); got.Embeddings != want {
				t.Fatalf("a refused patch changed settings: %+v", got.Embeddings)
			}
		})
	}

	valid := []struct {
		name string
		p    EmbeddingsPatch
		want Embeddings
	}{
		{"external store", EmbeddingsPatch{VectorBackend: sp("http"), VectorURL: sp("http://127.0.0.1:6333/engram")},
			Embeddings{Provider: "openai", BaseURL: want.BaseURL, Model: want.Model, VectorBackend: "http", VectorURL: "http://127.0.0.1:6333/engram"}},
		{"back to sqlite", EmbeddingsPatch{VectorBackend: sp("sqlite")},
			Embeddings{Provider: "openai", BaseURL: want.BaseURL, Model: want.Model, VectorBackend: "sqlite", VectorURL: "http://127.0.0.1:6333/engram"}},
		{"local", EmbeddingsPatch{Provider: sp("local"), Model: sp("")},
			Embeddings{Provider: "local", BaseURL: want.BaseURL, VectorBackend: "sqlite", VectorURL: "http://127.0.0.1:6333/engram"}},
		{"off", EmbeddingsPatch{Provider: sp("off")},
			Embeddings{Provider: "off", BaseURL: want.BaseURL, VectorBackend: "sqlite", VectorURL: "http://127.0.0.1:6333/engram"}},
	}
	for _, c := range valid {
		t.Run(c.name, func(t *testing.T) {
			st, err := s.Update(ctx, Patch{Embeddings: &c.p})
			if err != nil || st.Embeddings != c.want {
				t.Fatalf("got %+v %v, want %+v", st.Embeddings, err, c.want)
			}
		})
	}
}
