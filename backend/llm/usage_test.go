package llm_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"engram/backend/llm"
)

// TestAnthropicStreamInputTokensAtTheEnd: message_delta's usage is cumulative and may carry
// the input tokens — Anthropic's does with server tools, and Anthropic-compatible servers send 0
// in message_start and the real count at the end. Only message_start's was read, so the usage
// row said 0 input tokens and the cost left the input out. Over a loopback server speaking the
// Messages stream.
func TestAnthropicStreamInputTokensAtTheEnd(t *testing.T) {
	for _, tc := range []struct {
		name         string
		start, delta string
		in, out      int
		read         int
	}{
		{"input only at the end", `{"input_tokens":0,"output_tokens":0}`, `{"input_tokens":1200,"output_tokens":40}`, 1200, 40, 0},
		{"cached input at the end", `{"input_tokens":0,"output_tokens":1}`, `{"input_tokens":200,"cache_read_input_tokens":1000,"output_tokens":40}`, 1200, 40, 1000},
		{"input only at the start", `{"input_tokens":1200,"output_tokens":1}`, `{"output_tokens":40}`, 1200, 40, 0},
		{"cached input at the start, plain input repeated at the end", `{"input_tokens":200,"cache_read_input_tokens":1000,"output_tokens":1}`,
			`{"input_tokens":200,"output_tokens":40}`, 1200, 40, 1000},
		{"cached input at both", `{"input_tokens":200,"cache_read_input_tokens":1000,"output_tokens":1}`,
			`{"input_tokens":200,"cache_read_input_tokens":1000,"output_tokens":40}`, 1200, 40, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				for _, ev := range [][2]string{
					{"message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"usage":` + tc.start + `}}`},
					{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
					{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}`},
					{"content_block_stop", `{"type":"content_block_stop","index":0}`},
					{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":` + tc.delta + `}`},
					{"message_stop", `{"type":"message_stop"}`},
				} {
					fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev[0], ev[1])
				}
			}))
			defer srv.Close()
			var got rows
			c, err := llm.New(llm.Config{Provider: llm.ProviderAnthropic, BaseURL: srv.URL, Model: "claude-sonnet-4-5", Streaming: true}, testKey, got.sink)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
			if err != nil || resp.Text != "ok" {
				t.Fatalf("%q %v", resp.Text, err)
			}
			u := got.all()
			if resp.Usage.InputTokens != tc.in || resp.Usage.OutputTokens != tc.out || len(u) != 1 || u[0].InputTokens != tc.in ||
				resp.Usage.CacheReadTokens != tc.read ||
				u[0].CostUSD != llm.UsageCost("claude-sonnet-4-5", llm.Usage{InputTokens: tc.in, OutputTokens: tc.out, CacheReadTokens: tc.read}) {
				t.Fatalf("usage %+v, rows %+v; want %d in, %d out", resp.Usage, u, tc.in, tc.out)
			}
		})
	}
}
