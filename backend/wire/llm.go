package wire

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"engram/backend/llm"
	"engram/backend/llm/keyring"
	"engram/backend/memory"
	"engram/backend/settings"
)

// openLLM sets up the key file and the holder of the current model client, rebuilt whenever
// settings change (the key's setter reloads it too). No model configured is the normal state
// of a fresh home, not an error.
func (s *Services) openLLM() {
	s.Keys = keyring.Open(s.opts.Home)
	s.LLM = llm.NewHolder(s.buildLLM)
	s.LLM.Watch(s.ctx, s.llmStamp)
	_ = s.LLM.Reload(s.ctx)
	s.Settings.OnChange(func(settings.Settings) { _ = s.LLM.Reload(s.ctx) })
}

// buildLLM makes the client the settings name, with the key filed for its endpoint.
func (s *Services) buildLLM(ctx context.Context) (llm.Client, error) {
	st, err := s.Settings.Get(ctx)
	if err != nil {
		return nil, err
	}
	if st.LLM.Provider == "" {
		return nil, llm.ErrNotConfigured()
	}
	key, err := s.Keys.Get(st.LLM.Provider, st.LLM.BaseURL)
	if err != nil {
		return nil, err
	}
	cfg := llm.Config{Provider: st.LLM.Provider, BaseURL: st.LLM.BaseURL, Model: st.LLM.Model, Streaming: st.LLM.Streaming}
	return llm.New(cfg, key, s.recordUsage)
}

// recordUsage is the clients' usage sink: one llm_usage row per call.
func (s *Services) recordUsage(ctx context.Context, r llm.UsageRow) error {
	return s.Store.RecordLLMUsage(ctx, memory.UsageRecord{At: r.At, Provider: r.Provider, Model: r.Model,
		Purpose: r.Purpose, InputTokens: r.InputTokens, OutputTokens: r.OutputTokens, CostUSD: r.CostUSD})
}

// llmStamp fingerprints what the model client is built from as another process may change
// it: the LLM settings and a hash of the key file (a few hundred bytes; its time alone misses
// two writes within the clock's tick). One settings read and one small file read, beside a
// model call.
func (s *Services) llmStamp() string {
	return s.settingsStamp(func(st settings.Settings) any { return st.LLM })
}

// settingsStamp is the part of the settings pick names, as stored, with a hash of the key
// file: what a client built from them depends on (llmStamp, embedStamp).
func (s *Services) settingsStamp(pick func(settings.Settings) any) string {
	st, err := s.Settings.Get(s.ctx)
	if err != nil {
		return "" // unknown: the holder and the runtime keep what they run
	}
	stamp := fmt.Sprintf("%+v", pick(st))
	if data, err := os.ReadFile(s.Keys.Path()); err == nil {
		sum := sha256.Sum256(data)
		stamp += "|" + hex.EncodeToString(sum[:8])
	}
	return stamp
}
