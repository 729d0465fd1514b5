package api

import (
	"context"
	"time"

	"engram/backend/embed"
	"engram/backend/llm"
	"engram/backend/settings"
	"engram/backend/vector"
)

// Codes of Settings → Embeddings.
const (
	// CodeEmbeddingsPersonOnly refuses a model-facing caller (MCP) that tries to change the
	// embeddings settings: it could otherwise send every memory to an endpoint of its choosing.
	CodeEmbeddingsPersonOnly = "embeddings_person_only"
	// CodeEmbeddingsOff answers embeddings.test while no embedder runs.
	CodeEmbeddingsOff = "embeddings_off"
	// CodeEmbeddingsKeyDesktopOnly refuses embeddings.setKey over remote access or MCP.
	CodeEmbeddingsKeyDesktopOnly = "embeddings_key_desktop_only"
)

// EmbeddingsService sets the key of an OpenAI-compatible embeddings endpoint and tests the
// embedder. The settings themselves go through settings.update (embeddings); the status is
// recall.embedStatus.
type EmbeddingsService struct{ a *API }

// EmbeddingStatus is what Settings → Embeddings shows: the settings, what runs now and how far
// the background (re-)embedding is.
type EmbeddingStatus struct {
	// Settings are the saved choices.
	Settings settings.Embeddings `json:"settings"`
	// Provider, Model and Backend are what runs now (Provider "off" when nothing does).
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Backend  string `json:"backend"`
	// Progress is the background indexer's (done/total for Model).
	Progress vector.Progress `json:"progress"`
	// KeySet tells whether a key is filed for the openai endpoint; the key is never sent.
	KeySet bool `json:"key_set"`
	// Local is true for an endpoint on this computer, where no key is needed.
	Local bool `json:"local"`
	// Endpoint is the base URL the key is filed under ("" unless the provider is openai).
	Endpoint string `json:"endpoint"`
	// Error is why the configured embedder could not be built, translated.
	Error *Error `json:"error,omitempty"`
}

// embedStatus assembles the status from the settings, the key file and the runtime.
func (a *API) embedStatus() (EmbeddingStatus, error) {
	st, err := a.deps.Settings.Get(a.ctx)
	if err != nil {
		return EmbeddingStatus{}, a.fail(err)
	}
	out := EmbeddingStatus{Settings: st.Embeddings, Provider: "off"}
	if st.Embeddings.Provider == "openai" {
		out.Endpoint = st.Embeddings.BaseURL
		if out.Endpoint == "" {
			out.Endpoint = llm.OpenAIBaseURL
		}
		out.Local = llm.IsLocal(out.Endpoint)
		if a.deps.Keys != nil {
			has, err := a.deps.Keys.Has(llm.ProviderOpenAI, out.Endpoint)
			if err != nil {
				out.Error = a.fail(err).(*Error)
			}
			out.KeySet = has
		}
	}
	if rt := a.deps.Embeddings; rt != nil {
		now := rt.State()
		out.Provider, out.Model, out.Backend, out.Progress = now.Provider, now.Model, now.Backend, now.Progress
		if err := rt.Err(); err != nil && out.Error == nil {
			out.Error = a.fail(err).(*Error)
		}
	}
	return out, nil
}

// SetEmbeddingsKeyParams carry a key for the configured embeddings endpoint, or Clear to
// remove it.
type SetEmbeddingsKeyParams struct {
	Key   string `json:"key,omitempty"`
	Clear bool   `json:"clear,omitempty"`
}

// SetKey files the API key of the configured OpenAI-compatible embeddings endpoint in the
// home's key file (mode 0600, the language models' key file: keys are filed per endpoint) and
// rebuilds the embedder. Only the person at this machine may, as for a model's key.
func (s *EmbeddingsService) SetKey(p SetEmbeddingsKeyParams) (EmbeddingStatus, error) {
	if err := s.a.Wait(); err != nil {
		return EmbeddingStatus{}, err
	}
	if !s.a.personCaller() {
		return EmbeddingStatus{}, s.a.newError(CodeEmbeddingsKeyDesktopOnly, nil)
	}
	st, err := s.a.deps.Settings.Get(s.a.ctx)
	if err != nil {
		return EmbeddingStatus{}, s.a.fail(err)
	}
	if s.a.deps.Keys == nil || st.Embeddings.Provider != "openai" {
		return EmbeddingStatus{}, s.a.newError(settings.CodeInvalid, map[string]any{"Field": "embeddings.provider",
			"Value": st.Embeddings.EffectiveProvider()})
	}
	if p.Clear {
		err = s.a.deps.Keys.Delete(llm.ProviderOpenAI, st.Embeddings.BaseURL)
	} else {
		err = s.a.deps.Keys.Set(llm.ProviderOpenAI, st.Embeddings.BaseURL, p.Key)
	}
	if err != nil {
		return EmbeddingStatus{}, s.a.fail(err)
	}
	if rt := s.a.deps.Embeddings; rt != nil {
		_ = rt.Reload(s.a.ctx) // a failure is the status's Error
	}
	return s.a.embedStatus()
}

// EmbeddingsTestResult is the outcome of "Test": one short text embedded by the running
// embedder.
type EmbeddingsTestResult struct {
	OK        bool   `json:"ok"`
	Provider  string `json:"provider"`
	Model     string `json:"model"`
	Dim       int    `json:"dim"`
	LatencyMS int64  `json:"latency_ms"`
	// Error is the coded failure, translated (nil when OK).
	Error *Error `json:"error,omitempty"`
}

// Test embeds one short text with the running embedder and reports its width and latency, or
// the translated failure.
func (s *EmbeddingsService) Test(_ Empty) (EmbeddingsTestResult, error) {
	if err := s.a.Wait(); err != nil {
		return EmbeddingsTestResult{}, err
	}
	rt := s.a.deps.Embeddings
	if rt == nil || rt.Embedder() == nil {
		var err error = s.a.newError(CodeEmbeddingsOff, nil)
		if rt != nil && rt.Err() != nil {
			err = rt.Err()
		}
		return EmbeddingsTestResult{Provider: "off", Error: s.a.fail(err).(*Error)}, nil
	}
	emb, state := rt.Embedder(), rt.State()
	ctx, cancel := context.WithTimeout(s.a.ctx, testTimeout)
	defer cancel()
	start := time.Now()
	vecs, err := emb.Embed(ctx, []string{"Engram remembers what matters."})
	out := EmbeddingsTestResult{Provider: state.Provider, Model: emb.Model(), LatencyMS: time.Since(start).Milliseconds()}
	if err != nil {
		out.Error = s.a.fail(err).(*Error)
		return out, nil
	}
	if len(vecs) == 1 {
		out.Dim = len(vecs[0])
	}
	if out.Dim == 0 {
		out.Error = s.a.newError(embed.CodeEmbeddingFailed, map[string]any{"Model": out.Model, "Detail": "no vector came back", DetailKey: "detail.no_vector"})
		return out, nil
	}
	out.OK = true
	return out, nil
}
