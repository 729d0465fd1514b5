package extraction

import (
	"context"
	"strings"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
	"engram/backend/memory"
)

// TestSummaryIsNotAModelsReasoning: a reasoning model behind an OpenAI-compatible server
// without a reasoning parser (DeepSeek-R1 or Qwen3 on Ollama, LM Studio, vLLM) writes
// "<think>…</think>" before its answer, and an answer cut at its token limit often ends inside
// that block. The summariser stored the text as written — the model's musings, quoting the
// conversation, became the session's summary, or half a reasoning block did — while the
// messages it folded were deleted. Now the reasoning is left out, and a cut answer, a
// reasoning block that never closes or a refusal is a failure: the store keeps the extractive
// summary. Over both real wires, streamed and not (loopback server).
func TestSummaryIsNotAModelsReasoning(t *testing.T) {
	cases := []struct {
		name  string
		reply llmtest.Reply
		want  string // "" wants an error
	}{
		{"plain", llmtest.Text("- Moving billing to Postgres 16."), "- Moving billing to Postgres 16."},
		{"think first", llmtest.Text("<think>\nThe person said hunter2 is their password; skip that.\n</think>\n\n- Moving billing to Postgres 16."), "- Moving billing to Postgres 16."},
		{"thinking tag", llmtest.Text("<thinking>Let me see.</thinking>- Moving billing."), "- Moving billing."},
		{"cut in its reasoning", llmtest.Reply{Text: "<think>\nThe person said hunter2 is their", StopReason: "cut"}, ""},
		{"reasoning never closed", llmtest.Text("<think>\nThe person said hunter2 is their"), ""},
		{"cut summary", llmtest.Reply{Text: "- Moving billing to Post", StopReason: "cut"}, ""},
	}
	for _, wire := range []string{llm.ProviderOpenAI, llm.ProviderAnthropic} {
		for _, streaming := range []bool{false, true} {
			for _, tc := range cases {
				t.Run(wire+"/"+tc.name, func(t *testing.T) {
					srv := llmtest.NewOpenAI(t)
					reply := tc.reply
					if wire == llm.ProviderAnthropic {
						srv = llmtest.NewAnthropic(t)
					}
					if reply.StopReason == "cut" {
						reply.StopReason = map[string]string{llm.ProviderOpenAI: "length", llm.ProviderAnthropic: "max_tokens"}[wire]
					}
					srv.Push(reply)
					client, err := llm.New(llm.Config{Provider: wire, BaseURL: srv.URL(), Model: "m", Streaming: streaming}, "", nil)
					if err != nil {
						t.Fatal(err)
					}
					sum := SessionSummariser(func() (llm.Client, error) { return client, nil })
					got, err := sum(context.Background(), memory.SummaryInput{Session: memory.Session{ID: "s1"},
						Turns: []memory.SessionTurn{{Seq: 1, Role: "user", Content: "my password is hunter2, we move billing to Postgres 16"}}})
					if tc.want == "" {
						if err == nil {
							t.Fatalf("summary %q stored; want a failure so the extractive summary is kept", got)
						}
						return
					}
					if err != nil || got != tc.want || strings.Contains(got, "hunter2") {
						t.Fatalf("summary %q, %v; want %q", got, err, tc.want)
					}
				})
			}
		}
	}
}
