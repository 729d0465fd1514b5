package extraction

import (
	"strings"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
)

// TestRefusalIsNamedAndNotRetried: a model that declines the turn (OpenAI's refusal field or
// content_filter finish, Anthropic's "refusal" stop reason) was asked again as if it had
// merely forgotten the tool, declined again, and the run said "answered without a memory
// plan". A refusal is taken as the answer: no second call, the offline extractor plans the
// turn, and the run says the model declined, in English and Chinese. Over the real wires,
// streamed and not (loopback server).
func TestRefusalIsNamedAndNotRetried(t *testing.T) {
	refusal := llmtest.Reply{Refusal: "I'm sorry, I can't help with that.", InputTokens: 10, OutputTokens: 5}
	filtered := llmtest.Text("")
	filtered.StopReason = "content_filter"
	declined := llmtest.Text("I can't help with storing that.")
	declined.StopReason = "refusal"
	for _, c := range []struct {
		name      string
		srv       func(testing.TB) *llmtest.Server
		streaming bool
		reply     llmtest.Reply
	}{
		{"openai refusal", llmtest.NewOpenAI, false, refusal},
		{"openai refusal streamed", llmtest.NewOpenAI, true, refusal},
		{"openai content filter", llmtest.NewOpenAI, false, filtered},
		{"anthropic refusal", llmtest.NewAnthropic, false, declined},
		{"anthropic refusal streamed", llmtest.NewAnthropic, true, declined},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := c.srv(t)
			srv.Push(c.reply)
			provider := llm.ProviderOpenAI
			if srv.Wire() == llmtest.WireAnthropic {
				provider = llm.ProviderAnthropic
			}
			client, err := llm.New(llm.Config{Provider: provider, BaseURL: srv.URL(), Model: "scripted-model", Streaming: c.streaming}, "sk-test", nil)
			if err != nil {
				t.Fatal(err)
			}
			f := newFx(t, ModelOrOffline{Model: func() (llm.Client, error) { return client, nil }, Offline: NewOffline()})
			d := f.run(turn("s1", "Remember that I prefer kebab-case for URL paths."))
			if n := len(srv.Requests()); n != 1 {
				t.Fatalf("%d calls to the model, want 1: a refusal is not asked again", n)
			}
			if d.Status != StatusDone || len(d.Report.Applied) != 1 || !d.Report.PlannedOffline || d.Report.Retried {
				t.Fatalf("run %+v %+v, want the offline extractor's memory", d.RunSummary, d.Report)
			}
			if d.Report.ErrorCode != CodeModelRefused {
				t.Fatalf("error code %q, want %q", d.Report.ErrorCode, CodeModelRefused)
			}
			cat := testCatalog(t)
			for lang, want := range map[string]string{"en": "declined", "zh-CN": "拒绝"} {
				if msg := cat.T(lang, "error."+CodeModelRefused, nil); !strings.Contains(msg, want) {
					t.Fatalf("%s: %q", lang, msg)
				}
			}
		})
	}
}
