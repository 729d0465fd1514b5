package llm_test

import (
	"context"
	"testing"
	"time"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
)

// sse joins data lines into a server-sent event stream.
func sse(events ...string) string {
	out := ""
	for _, e := range events {
		out += e + "\n\n"
	}
	return out
}

// TestCompatibleServersQuirks feeds answers as servers other than OpenAI and Anthropic really
// send them (arguments as an object, calls without id or index, keep-alive events without
// data, thinking blocks): each is read, the SubmitMemoryPlan call with its arguments intact.
func TestCompatibleServersQuirks(t *testing.T) {
	plan := `{\"status\":\"noop\"}`
	cases := []struct {
		name      string
		provider  string
		stream    bool
		raw       string
		wantCalls []llm.ToolCall
		wantText  string
	}{
		{name: "arguments as an object, no id or type", provider: llm.ProviderOpenAI,
			raw:       `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"function":{"name":"SubmitMemoryPlan","arguments":{"status":"noop"}}}]},"finish_reason":"tool_calls"}]}`,
			wantCalls: []llm.ToolCall{{ID: "call_0", Name: "SubmitMemoryPlan", Arguments: []byte(`{"status":"noop"}`)}}},
		{name: "arguments encoded twice", provider: llm.ProviderOpenAI,
			raw:       `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"x","type":"function","function":{"name":"SubmitMemoryPlan","arguments":"\"{\\\"status\\\":\\\"noop\\\"}\""}}]},"finish_reason":"tool_calls"}]}`,
			wantCalls: []llm.ToolCall{{ID: "x", Name: "SubmitMemoryPlan", Arguments: []byte(`{"status":"noop"}`)}}},
		{name: "streamed arguments encoded twice", provider: llm.ProviderOpenAI, stream: true,
			raw: sse(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"SubmitMemoryPlan","arguments":"\"{\\\"sta"}}]}}]}`,
				`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"tus\\\":\\\"noop\\\"}\""}}]}}]}`,
				`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`, `data: [DONE]`),
			wantCalls: []llm.ToolCall{{ID: "a", Name: "SubmitMemoryPlan", Arguments: []byte(`{"status":"noop"}`)}}},
		{name: "arguments a string holding no object", provider: llm.ProviderOpenAI,
			raw:       `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"x","type":"function","function":{"name":"SubmitMemoryPlan","arguments":"\"noop\""}}]},"finish_reason":"tool_calls"}]}`,
			wantCalls: []llm.ToolCall{{ID: "x", Name: "SubmitMemoryPlan", Arguments: []byte(`"noop"`)}}},
		{name: "arguments null", provider: llm.ProviderOpenAI,
			raw:       `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"x","type":"function","function":{"name":"SubmitMemoryPlan","arguments":null}}]},"finish_reason":"tool_calls"}]}`,
			wantCalls: []llm.ToolCall{{ID: "x", Name: "SubmitMemoryPlan", Arguments: []byte(``)}}},
		{name: "streamed arguments as an object", provider: llm.ProviderOpenAI, stream: true,
			raw: sse(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"SubmitMemoryPlan","arguments":{"status":"noop"}}}]}}]}`,
				`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`, `data: [DONE]`),
			wantCalls: []llm.ToolCall{{ID: "a", Name: "SubmitMemoryPlan", Arguments: []byte(`{"status":"noop"}`)}}},
		{name: "streamed parallel calls without index", provider: llm.ProviderOpenAI, stream: true,
			raw: sse(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"a","type":"function","function":{"name":"SubmitMemoryPlan","arguments":"`+plan+`"}}]}}]}`,
				`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"b","type":"function","function":{"name":"Other","arguments":"{}"}}]}}]}`,
				`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`, `data: [DONE]`),
			wantCalls: []llm.ToolCall{{ID: "a", Name: "SubmitMemoryPlan", Arguments: []byte(`{"status":"noop"}`)}, {ID: "b", Name: "Other", Arguments: []byte(`{}`)}}},
		{name: "streamed call split without index, no id", provider: llm.ProviderOpenAI, stream: true,
			raw: sse(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"name":"SubmitMemoryPlan","arguments":"{\"sta"}}]}}]}`,
				`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"tus\":\"noop\"}"}}]}}]}`,
				`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`, `data: [DONE]`),
			wantCalls: []llm.ToolCall{{ID: "call_0", Name: "SubmitMemoryPlan", Arguments: []byte(`{"status":"noop"}`)}}},
		{name: "keep-alive event without data", provider: llm.ProviderOpenAI, stream: true,
			raw:      sse(`data: `, `data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}`, `data: [DONE]`),
			wantText: "hi"},
		{name: "tool_use input as a JSON string", provider: llm.ProviderAnthropic,
			raw:       `{"type":"message","model":"m","content":[{"type":"thinking","thinking":"hmm","signature":"x"},{"type":"tool_use","id":"t1","name":"SubmitMemoryPlan","input":"` + plan + `"}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":1}}`,
			wantCalls: []llm.ToolCall{{ID: "t1", Name: "SubmitMemoryPlan", Arguments: []byte(`{"status":"noop"}`)}}},
		{name: "ping without data, thinking block, tool_use with extra fields", provider: llm.ProviderAnthropic, stream: true,
			raw: sse("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":{\"input_tokens\":3}}}",
				"event: ping",
				"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}",
				"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"hmm\"}}",
				"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"SubmitMemoryPlan\",\"input\":{},\"caller\":{\"type\":\"direct\"}}}",
				"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\""+plan+"\"}}",
				"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":4}}",
				"event: message_stop\ndata: {\"type\":\"message_stop\"}"),
			wantCalls: []llm.ToolCall{{ID: "t1", Name: "SubmitMemoryPlan", Arguments: []byte(`{"status":"noop"}`)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewOpenAI(t)
			if tc.provider == llm.ProviderAnthropic {
				srv = llmtest.NewAnthropic(t)
			}
			srv.Push(llmtest.Raw(tc.raw))
			c, err := llm.New(llm.Config{Provider: tc.provider, BaseURL: srv.URL(), Model: "m", Streaming: tc.stream, Backoff: time.Millisecond}, testKey, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, Tools: []llm.Tool{planTool}})
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if resp.Text != tc.wantText {
				t.Errorf("text %q, want %q", resp.Text, tc.wantText)
			}
			if len(resp.ToolCalls) != len(tc.wantCalls) {
				t.Fatalf("calls %+v, want %+v", resp.ToolCalls, tc.wantCalls)
			}
			for i, w := range tc.wantCalls {
				g := resp.ToolCalls[i]
				if g.ID != w.ID || g.Name != w.Name || string(g.Arguments) != string(w.Arguments) {
					t.Errorf("call %d = %s %s %s, want %s %s %s", i, g.ID, g.Name, g.Arguments, w.ID, w.Name, w.Arguments)
				}
			}
		})
	}
}

// TestReplayedCallWithoutIDIsAnswerable: a call a server sent without id is replayed with the
// id Engram gave it, and the tool result answers that same id (a strict server refuses a
// tool message whose tool_call_id matches nothing).
func TestReplayedCallWithoutIDIsAnswerable(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Push(llmtest.Raw(`{"model":"m","choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"function":{"name":"SubmitMemoryPlan","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`),
		llmtest.Text("ok"))
	c, _ := llm.New(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.URL(), Model: "m"}, testKey, nil)
	msgs := []llm.Message{{Role: llm.RoleUser, Content: "hi"}}
	resp, err := c.Complete(context.Background(), llm.Request{Messages: msgs, Tools: []llm.Tool{planTool}})
	if err != nil || len(resp.ToolCalls) != 1 {
		t.Fatalf("first call: %v %+v", err, resp)
	}
	msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, ToolCalls: resp.ToolCalls},
		llm.Message{Role: llm.RoleTool, ToolCallID: resp.ToolCalls[0].ID, Content: "bad"})
	if _, err := c.Complete(context.Background(), llm.Request{Messages: msgs, Tools: []llm.Tool{planTool}}); err != nil {
		t.Fatal(err)
	}
	sent := srv.Requests()[1].Messages()
	calls, _ := sent[1]["tool_calls"].([]any)
	if len(calls) != 1 {
		t.Fatalf("replayed assistant message: %v", sent[1])
	}
	id, _ := calls[0].(map[string]any)["id"].(string)
	args, _ := calls[0].(map[string]any)["function"].(map[string]any)["arguments"].(string)
	if id == "" || sent[2]["tool_call_id"] != id || args != "{}" {
		t.Errorf("replayed call id %q args %q, tool result answers %v", id, args, sent[2]["tool_call_id"])
	}
}

// TestStreamAnsweredWhole: a server asked to stream that answers the whole message as JSON is
// read as that message (it was "the stream ended before the answer was complete"); a stream
// labelled application/json is still read as a stream.
func TestStreamAnsweredWhole(t *testing.T) {
	whole := map[string]string{
		llm.ProviderOpenAI:    `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1}}`,
		llm.ProviderAnthropic: `{"type":"message","model":"m","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":1}}`,
	}
	for _, provider := range []string{llm.ProviderOpenAI, llm.ProviderAnthropic} {
		t.Run(provider, func(t *testing.T) {
			srv := llmtest.NewOpenAI(t)
			if provider == llm.ProviderAnthropic {
				srv = llmtest.NewAnthropic(t)
			}
			// Raw bodies go out labelled application/json: the second is a stream all the same.
			srv.Push(llmtest.Raw("\n" + whole[provider]))
			if provider == llm.ProviderOpenAI {
				srv.Push(llmtest.Raw(sse(`data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}`, `data: [DONE]`)))
			}
			c, _ := llm.New(llm.Config{Provider: provider, BaseURL: srv.URL(), Model: "m", Streaming: true}, testKey, nil)
			resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
			if err != nil || resp.Text != "hi" || resp.Usage.InputTokens != 3 {
				t.Fatalf("whole answer to a streamed request: %+v %v", resp, err)
			}
			if provider == llm.ProviderOpenAI {
				resp, err = c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
				if err != nil || resp.Text != "hi" {
					t.Fatalf("stream labelled JSON: %+v %v", resp, err)
				}
			}
		})
	}
}
