package api

import (
	"strings"
	"time"

	"engram/backend/llm"
	"engram/backend/memory"
)

// Codes of the usage view.
const CodeUsageInvalidRange = "usage_invalid_range"

// LlmService shows the configured language model, sets its key and tests the connection. The
// key itself is never returned by any method.
type LlmService struct{ a *API }

// LLMStatus is what Settings → LLM shows.
type LLMStatus struct {
	// Configured is true when a client could be built (provider, model and, for a public
	// endpoint, a key).
	Configured bool   `json:"configured"`
	Provider   string `json:"provider"`
	BaseURL    string `json:"base_url"`
	Model      string `json:"model"`
	Streaming  bool   `json:"streaming"`
	// KeySet tells whether a key is filed for this endpoint; the key is never sent.
	KeySet bool `json:"key_set"`
	// Local is true for an endpoint on this computer, where no key is needed.
	Local bool `json:"local"`
	// Error is why no client can be built, translated (nil when Configured).
	Error *Error `json:"error,omitempty"`
}

// Status reports the configured model and whether its key is set.
func (s *LlmService) Status(_ Empty) (LLMStatus, error) {
	if err := s.a.Wait(); err != nil {
		return LLMStatus{}, err
	}
	st, err := s.a.deps.Settings.Get(s.a.ctx)
	if err != nil {
		return LLMStatus{}, s.a.fail(err)
	}
	out := LLMStatus{Provider: st.LLM.Provider, BaseURL: st.LLM.BaseURL, Model: st.LLM.Model, Streaming: st.LLM.Streaming}
	if out.Provider != "" && s.a.deps.Keys != nil {
		has, err := s.a.deps.Keys.Has(out.Provider, out.BaseURL)
		if err != nil {
			out.Error = s.a.fail(err).(*Error)
		}
		out.KeySet = has
	}
	out.Local = out.BaseURL != "" && llm.IsLocal(out.BaseURL)
	if _, err := s.a.deps.LLM.Current(); err != nil {
		if out.Error == nil {
			out.Error = s.a.fail(err).(*Error)
		}
	} else {
		out.Configured = true
	}
	return out, nil
}

// SetKeyParams carry a key for the configured endpoint, or Clear to remove it.
type SetKeyParams struct {
	Key   string `json:"key,omitempty"`
	Clear bool   `json:"clear,omitempty"`
}

// SetKey files the API key of the configured endpoint in the home's key file (mode 0600) and
// rebuilds the client. Only the person at this machine may: a browser over the bridge or an
// agent could otherwise point Engram's model calls, and their cost, at a key of its choosing.
func (s *LlmService) SetKey(p SetKeyParams) (LLMStatus, error) {
	if err := s.a.Wait(); err != nil {
		return LLMStatus{}, err
	}
	if !s.a.personCaller() {
		return LLMStatus{}, s.a.newError(llm.CodeKeyDesktopOnly, nil)
	}
	if s.a.deps.Keys == nil {
		return LLMStatus{}, s.a.fail(llm.ErrNotConfigured())
	}
	st, err := s.a.deps.Settings.Get(s.a.ctx)
	if err != nil {
		return LLMStatus{}, s.a.fail(err)
	}
	if st.LLM.Provider == "" {
		return LLMStatus{}, s.a.fail(llm.ErrNotConfigured())
	}
	if p.Clear {
		err = s.a.deps.Keys.Delete(st.LLM.Provider, st.LLM.BaseURL)
	} else {
		err = s.a.deps.Keys.Set(st.LLM.Provider, st.LLM.BaseURL, p.Key)
	}
	if err != nil {
		return LLMStatus{}, s.a.fail(err)
	}
	_ = s.a.deps.LLM.Reload(s.a.ctx)
	return s.Status(Empty{})
}

// LLMTestResult is the outcome of "Test connection".
type LLMTestResult struct {
	OK        bool   `json:"ok"`
	Provider  string `json:"provider"`
	Model     string `json:"model"`
	LatencyMS int64  `json:"latency_ms"`
	// Reply is the model's answer to the tiny prompt, cut to 200 characters.
	Reply string `json:"reply,omitempty"`
	// Error is the coded failure, translated (nil when OK).
	Error *Error `json:"error,omitempty"`
}

// testTimeout bounds "Test connection": long enough for a cold local model to load.
const testTimeout = 30 * time.Second

// Test makes one tiny real call to the configured model (a usage row with purpose
// test_connection records it) and reports the latency or the translated failure.
func (s *LlmService) Test(_ Empty) (LLMTestResult, error) {
	if err := s.a.Wait(); err != nil {
		return LLMTestResult{}, err
	}
	c, err := s.a.deps.LLM.Current()
	if err != nil {
		return LLMTestResult{Error: s.a.fail(err).(*Error)}, nil
	}
	start := time.Now()
	resp, err := c.Complete(s.a.ctx, llm.Request{
		Purpose:   llm.PurposeTest,
		Messages:  []llm.Message{{Role: llm.RoleUser, Content: "Reply with the single word: pong"}},
		MaxTokens: 16,
		Timeout:   testTimeout,
	})
	out := LLMTestResult{Provider: c.Provider(), Model: c.Model(), LatencyMS: time.Since(start).Milliseconds()}
	if err != nil {
		out.Error = s.a.fail(err).(*Error)
		return out, nil
	}
	out.OK = true
	out.Model = resp.Model
	out.Reply = strings.TrimSpace(resp.Text)
	if r := []rune(out.Reply); len(r) > 200 {
		out.Reply = string(r[:200])
	}
	return out, nil
}

// UsageSummaryResult and UsageGroup are the store's usage totals, named here so transports
// need not import the store.
type (
	UsageSummaryResult = memory.UsageSummary
	UsageGroup         = memory.UsageGroup
)

// UsageService reports what language-model calls cost.
type UsageService struct{ a *API }

// UsageParams choose the range: the last Days calendar days including today (default 30, at
// most 366).
type UsageParams struct {
	Days int `json:"days,omitempty"`
}

// MaxUsageDays bounds the usage range.
const MaxUsageDays = 366

// Summary totals tokens and cost by purpose, model and day.
func (s *UsageService) Summary(p UsageParams) (memory.UsageSummary, error) {
	if err := s.a.Wait(); err != nil {
		return memory.UsageSummary{}, err
	}
	if p.Days == 0 {
		p.Days = 30
	}
	if p.Days < 0 || p.Days > MaxUsageDays {
		return memory.UsageSummary{}, s.a.newError(CodeUsageInvalidRange, map[string]any{"Detail": "days must be between 1 and 366", DetailKey: "detail.days_range", "Max": MaxUsageDays})
	}
	now := time.Now()
	y, m, d := now.Date()
	to := time.Date(y, m, d+1, 0, 0, 0, 0, now.Location())
	from := to.AddDate(0, 0, -p.Days)
	sum, err := s.a.deps.Store.SummarizeLLMUsage(s.a.ctx, from, to, now.Location())
	if err != nil {
		return sum, s.a.fail(err)
	}
	return sum, nil
}
