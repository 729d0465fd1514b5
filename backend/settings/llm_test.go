package settings

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestLLMSettings(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	if st, _ := s.Get(ctx); st.LLM != (LLM{}) {
		t.Fatalf("a fresh home has a model: %+v", st.LLM)
	}
	st, err := s.Update(ctx, Patch{LLM: &LLMPatch{Provider: sp("openai"), BaseURL: sp(" http://127.0.0.1:11434/v1 "), Model: sp("llama3.1"), Streaming: bp(true)}})
	want := LLM{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.1", Streaming: true}
	if err != nil || st.LLM != want {
		t.Fatalf("update: %+v %v", st.LLM, err)
	}
	// A patch of one field keeps the others.
	st, err = s.Update(ctx, Patch{LLM: &LLMPatch{Model: sp("qwen2.5")}})
	if err != nil || st.LLM.Model != "qwen2.5" || st.LLM.BaseURL != want.BaseURL || !st.LLM.Streaming {
		t.Fatalf("partial update: %+v %v", st.LLM, err)
	}
	cases := []struct {
		p     LLMPatch
		field string
	}{
		{LLMPatch{Provider: sp("gemini")}, "llm.provider"},
		{LLMPatch{BaseURL: sp("not a url")}, "llm.base_url"},
		{LLMPatch{BaseURL: sp("ftp://host/v1")}, "llm.base_url"},
		{LLMPatch{BaseURL: sp("https://host/v1?key=1")}, "llm.base_url"},
		{LLMPatch{BaseURL: sp("https://me:sk-SECRET@host/v1")}, "llm.base_url"},
		{LLMPatch{Model: sp(strings.Repeat("m", MaxModelLen+1))}, "llm.model"},
		{LLMPatch{Model: sp("a\nb")}, "llm.model"},
	}
	for _, c := range cases {
		_, err := s.Update(ctx, Patch{LLM: &c.p})
		var ie *InvalidError
		if !errors.As(err, &ie) || ie.Field != c.field {
			t.Fatalf("%+v: want invalid %s, got %v", c.p, c.field, err)
		}
		if strings.Contains(err.Error(), "SECRET") {
			t.Fatalf("a refusal repeated credentials: %v", err)
		}
	}
	if got, _ := s.Get(ctx); got.LLM.Model != "qwen2.5" || got.LLM.Provider != "openai" {
		t.Fatalf("a refused patch changed settings: %+v", got.LLM)
	}
	// Turning the model off is a valid choice.
	if st, err := s.Update(ctx, Patch{LLM: &LLMPatch{Provider: sp("")}}); err != nil || st.LLM.Provider != "" {
		t.Fatalf("off: %+v %v", st.LLM, err)
	}
}
