package llmtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// post sends body as a provider client would, with a plain http.Client (no SDK), so these
// tests check the wire itself.
func post(t *testing.T, url string, body any, header map[string]string) *http.Response {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// events reads an SSE body into (event, data) pairs.
func events(t *testing.T, resp *http.Response) (names, data []string) {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	name := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			names = append(names, name)
			data = append(data, strings.TrimPrefix(line, "data: "))
			name = ""
		}
	}
	return names, data
}

const broken = `{"status": "upd`

func TestOpenAIWire(t *testing.T) {
	s := NewOpenAI(t)
	s.Push(Call("SubmitMemoryPlan", broken).WithUsage(7, 3), Call("SubmitMemoryPlan", broken).WithUsage(7, 3))
	body := map[string]any{
		"model": "gpt-4o-mini", "messages": []any{map[string]any{"role": "system", "content": "Be brief."}, map[string]any{"role": "user", "content": "hi"}},
		"tools":       []any{map[string]any{"type": "function", "function": map[string]any{"name": "SubmitMemoryPlan", "parameters": map[string]any{"type": "object"}}}},
		"tool_choice": map[string]any{"type": "function", "function": map[string]any{"name": "SubmitMemoryPlan"}},
	}
	var msg struct {
		Object  string `json:"object"`
		Choices []struct {
			FinishReason string `json:"finish_reason"`
			Message      struct {
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
		Usage struct{ PromptTokens, CompletionTokens int } `json:"usage"`
	}
	resp := post(t, s.URL()+"/chat/completions", body, map[string]string{"Authorization": "Bearer sk-x"})
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatal(err)
	}
	tc := msg.Choices[0].Message.ToolCalls
	if msg.Object != "chat.completion" || msg.Choices[0].FinishReason != "tool_calls" || len(tc) != 1 || tc[0].Function.Arguments != broken || tc[0].ID == "" {
		t.Fatalf("message %+v", msg)
	}
	r := s.Requests()[0]
	if mode, name := r.ToolChoice(); mode != "tool" || name != "SubmitMemoryPlan" || r.System() != "Be brief." || r.Auth() != "Bearer sk-x" || r.Tools()[0] != "SubmitMemoryPlan" {
		t.Fatalf("recorded %+v", r)
	}

	// Streamed: a role chunk, the call's name, argument pieces, the finish reason, the usage
	// chunk (asked for) and [DONE].
	body["stream"] = true
	body["stream_options"] = map[string]any{"include_usage": true}
	_, data := events(t, post(t, s.URL()+"/chat/completions", body, nil))
	if data[len(data)-1] != "[DONE]" {
		t.Fatalf("last event %q", data[len(data)-1])
	}
	var args strings.Builder
	var usage map[string]any
	finish := ""
	for _, d := range data[:len(data)-1] {
		var c struct {
			Object  string `json:"object"`
			Choices []struct {
				Delta struct {
					ToolCalls []struct {
						Function struct{ Arguments string }
					} `json:"tool_calls"`
				}
				FinishReason *string `json:"finish_reason"`
			}
			Usage map[string]any
		}
		if err := json.Unmarshal([]byte(d), &c); err != nil || c.Object != "chat.completion.chunk" {
			t.Fatalf("chunk %s: %v", d, err)
		}
		for _, ch := range c.Choices {
			for _, tc := range ch.Delta.ToolCalls {
				args.WriteString(tc.Function.Arguments)
			}
			if ch.FinishReason != nil {
				finish = *ch.FinishReason
			}
		}
		if c.Usage != nil {
			usage = c.Usage
		}
	}
	if args.String() != broken || finish != "tool_calls" || usage["prompt_tokens"] != 7.0 || usage["completion_tokens"] != 3.0 {
		t.Fatalf("stream: args %q finish %q usage %v", args.String(), finish, usage)
	}
}

func TestAnthropicWire(t *testing.T) {
	s := NewAnthropic(t)
	s.Push(Reply{Text: "Noted.", ToolCalls: []ToolCall{{Name: "SubmitMemoryPlan", Arguments: broken}}, InputTokens: 11, OutputTokens: 4})
	body := map[string]any{"model": "claude-haiku-4-5", "max_tokens": 100, "stream": true, "system": []any{map[string]any{"type": "text", "text": "Be brief."}},
		"messages": []any{map[string]any{"role": "user", "content": "hi"}}, "tool_choice": map[string]any{"type": "any"}}
	names, data := events(t, post(t, s.URL()+"/v1/messages", body, map[string]string{"x-api-key": "sk-ant-x"}))
	want := []string{"message_start", "ping", "content_block_start", "content_block_delta", "content_block_delta", "content_block_delta", "content_block_stop",
		"content_block_start", "content_block_delta", "content_block_delta", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("events %v", names)
	}
	var partial strings.Builder
	for i, d := range data {
		var ev struct {
			Type  string
			Delta struct {
				Type        string `json:"type"`
				PartialJSON string `json:"partial_json"`
				StopReason  string `json:"stop_reason"`
			}
			Usage struct {
				OutputTokens int `json:"output_tokens"`
			}
		}
		if err := json.Unmarshal([]byte(d), &ev); err != nil || ev.Type != names[i] {
			t.Fatalf("event %s %s: %v", names[i], d, err)
		}
		if ev.Delta.Type == "input_json_delta" {
			partial.WriteString(ev.Delta.PartialJSON)
		}
		if ev.Type == "message_delta" && (ev.Delta.StopReason != "tool_use" || ev.Usage.OutputTokens != 4) {
			t.Fatalf("message_delta %s", d)
		}
	}
	if partial.String() != broken {
		t.Fatalf("partial json %q", partial.String())
	}
	r := s.Requests()[0]
	if mode, _ := r.ToolChoice(); mode != "required" || r.System() != "Be brief." || r.Auth() != "sk-ant-x" || !r.Stream() {
		t.Fatalf("recorded %+v", r)
	}
}

func TestErrorReplies(t *testing.T) {
	for _, s := range []*Server{NewOpenAI(t), NewAnthropic(t)} {
		s.Push(Status(429, "2"), Status(529, ""))
		path := s.URL() + "/chat/completions"
		if s.Wire() == WireAnthropic {
			path = s.URL() + "/v1/messages"
		}
		resp := post(t, path, map[string]any{"model": "m"}, nil)
		var e struct {
			Type  string
			Error struct{ Type, Message string }
		}
		json.NewDecoder(resp.Body).Decode(&e)
		if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" || e.Error.Message == "" {
			t.Fatalf("%s 429: %d %q %+v", s.Wire(), resp.StatusCode, resp.Header.Get("Retry-After"), e)
		}
		if s.Wire() == WireAnthropic && (e.Type != "error" || e.Error.Type != "rate_limit_error") {
			t.Fatalf("anthropic error body %+v", e)
		}
		if resp := post(t, path, map[string]any{"model": "m"}, nil); resp.StatusCode != 529 {
			t.Fatalf("%s: status %d", s.Wire(), resp.StatusCode)
		}
		if s.Pending() != 0 || len(s.WaitRequests(2)) != 2 {
			t.Fatalf("%s: queue %d", s.Wire(), s.Pending())
		}
	}
}

// recorder stands in for the test a Server reports to, to see an unscripted request fail it.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Errorf(format string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}

func TestUnscriptedRequestFailsTheTest(t *testing.T) {
	rec := &recorder{TB: t}
	s := NewOpenAI(rec)
	resp := post(t, s.URL()+"/chat/completions", map[string]any{"model": "m"}, nil)
	if resp.StatusCode != 500 || len(rec.errs) != 1 {
		t.Fatalf("status %d, errors %v", resp.StatusCode, rec.errs)
	}
	if resp := post(t, s.URL()+"/v1/embeddings", map[string]any{}, nil); resp.StatusCode != 404 {
		t.Fatalf("unknown endpoint: %d", resp.StatusCode)
	}
}
