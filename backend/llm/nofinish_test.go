package llm_test

import (
	"context"
	"encoding/json"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
)

// TestStreamEndedByDoneWithoutFinishReason: some OpenAI-compatible servers and proxies end a
// whole answer with "data: [DONE]" and never send a finish_reason. Such an answer was taken
// as cut and the plan in it lost. Now [DONE] ends it when every tool call's arguments are one
// whole JSON object (a text answer has nothing to check); arguments that are not (cut short,
// [DONE] or not) and a stream that stops without [DONE] are still refused as cut. Over the
// loopback server's streamed OpenAI wire.
func TestStreamEndedByDoneWithoutFinishReason(t *testing.T) {
	whole := `{"status":"updated","items":[{"action":"write","slug":"likes-tea"}]}`
	for _, tc := range []struct {
		name  string
		reply llmtest.Reply
		ok    bool
	}{
		{"whole plan, no finish_reason", llmtest.Call("SubmitMemoryPlan", whole).WithoutFinishReason(), true},
		{"two whole calls, no finish_reason", llmtest.Calls(llmtest.ToolCall{Name: "A", Arguments: `{"a":1}`},
			llmtest.ToolCall{Name: "B", Arguments: `{}`}).WithoutFinishReason(), true},
		{"text, no finish_reason", llmtest.Text("All done here.").WithoutFinishReason(), true},
		{"half a plan, then [DONE]", llmtest.Call("SubmitMemoryPlan", `{"status":"updated","items":[{"act`).WithoutFinishReason(), false},
		{"arguments not an object, then [DONE]", llmtest.Call("SubmitMemoryPlan", `"updated"`).WithoutFinishReason(), false},
		{"one whole call and one cut, then [DONE]", llmtest.Calls(llmtest.ToolCall{Name: "A", Arguments: `{"a":1}`},
			llmtest.ToolCall{Name: "B", Arguments: `{"b":`}).WithoutFinishReason(), false},
		{"plan cut, no [DONE]", llmtest.Call("SubmitMemoryPlan", whole).Truncated(), false},
		{"text cut, no [DONE]", llmtest.Text("All done here.").Truncated(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewOpenAI(t)
			srv.Push(tc.reply)
			c, err := llm.New(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.URL(), Model: "gpt-4o-mini", Streaming: true}, testKey, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}},
				Tools: []llm.Tool{{Name: "SubmitMemoryPlan", Parameters: json.RawMessage(`{"type":"object"}`)}}})
			if !tc.ok {
				wantCode(t, err, llm.CodeBadResponse)
				return
			}
			if err != nil {
				t.Fatalf("a whole answer ended by [DONE] was refused: %v", err)
			}
			if len(resp.ToolCalls) != len(tc.reply.ToolCalls) || resp.Text != tc.reply.Text {
				t.Fatalf("answer %+v, want %+v", resp, tc.reply)
			}
			for i, call := range resp.ToolCalls {
				if string(call.Arguments) != tc.reply.ToolCalls[i].Arguments {
					t.Fatalf("call %d arguments %s, want %s", i, call.Arguments, tc.reply.ToolCalls[i].Arguments)
				}
			}
		})
	}
}
