package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"engram/backend/coded"
	"engram/backend/llm"
	"engram/backend/llm/llmtest"
)

const testKey = "sk-test-0123456789abcdefSECRET"

// rows collects usage rows as a store would.
type rows struct {
	mu   sync.Mutex
	list []llm.UsageRow
}

func (r *rows) sink(_ context.Context, row llm.UsageRow) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, row)
	return nil
}

func (r *rows) all() []llm.UsageRow {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]llm.UsageRow(nil), r.list...)
}

// variant is one provider × streaming combination every behaviour is checked under.
type variant struct {
	name      string
	provider  string
	streaming bool
	model     string
}

var variants = []variant{
	{"openai", llm.ProviderOpenAI, false, "gpt-4o-mini"},
	{"openai-stream", llm.ProviderOpenAI, true, "gpt-4o-mini"},
	{"anthropic", llm.ProviderAnthropic, false, "claude-3-5-haiku-20241022"},
	{"anthropic-stream", llm.ProviderAnthropic, true, "claude-3-5-haiku-20241022"},
}

func (v variant) server(t *testing.T) *llmtest.Server {
	if v.provider == llm.ProviderAnthropic {
		return llmtest.NewAnthropic(t)
	}
	return llmtest.NewOpenAI(t)
}

func (v variant) client(t *testing.T, srv *llmtest.Server, key string, sink llm.UsageSink) llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{
		Provider: v.provider, BaseURL: srv.URL(), Model: v.model, Streaming: v.streaming,
		Backoff: 5 * time.Millisecond,
	}, key, sink)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func forEach(t *testing.T, f func(t *testing.T, v variant)) {
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) { f(t, v) })
	}
}

func wantCode(t *testing.T, err error, code string) *llm.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want %s, got no error", code)
	}
	c, ok := coded.As(err)
	if !ok || c.ErrorCode() != code {
		t.Fatalf("want code %s, got %v", code, err)
	}
	var e *llm.Error
	errors.As(err, &e)
	return e
}

var planTool = llm.Tool{
	Name:        "SubmitMemoryPlan",
	Description: "Submit the plan",
	Parameters:  json.RawMessage(`{"type":"object","properties":{"status":{"type":"string","enum":["updated","noop"]}},"required":["status"]}`),
}

func TestTextAndUsage(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		var got rows
		c := v.client(t, srv, testKey, got.sink)
		srv.Push(llmtest.Text("Hello there, friend.").WithUsage(1000, 200))
		resp, err := c.Complete(context.Background(), llm.Request{
			Purpose: llm.PurposeTest, System: "You are terse.",
			Messages: []llm.Message{{Role: llm.RoleUser, Content: "Say hello"}},
		})
		if err != nil {
			t.Fatalf("Complete: %v", err)
		}
		if resp.Text != "Hello there, friend." || resp.Provider != v.provider || resp.Model != v.model {
			t.Fatalf("response = %+v", resp)
		}
		if resp.Usage.InputTokens != 1000 || resp.Usage.OutputTokens != 200 || resp.Usage.CostUSD <= 0 {
			t.Fatalf("usage = %+v", resp.Usage)
		}
		reqs := srv.Requests()
		if len(reqs) != 1 {
			t.Fatalf("%d requests", len(reqs))
		}
		r := reqs[0]
		if r.System() != "You are terse." || r.Model() != v.model || r.Stream() != v.streaming {
			t.Fatalf("sent system=%q model=%q stream=%v", r.System(), r.Model(), r.Stream())
		}
		if !strings.Contains(r.Auth(), testKey) {
			t.Fatalf("auth header %q does not carry the key", r.Auth())
		}
		if v.provider == llm.ProviderAnthropic && r.Header.Get("Anthropic-Version") == "" {
			t.Fatal("no anthropic-version header")
		}
		u := got.all()
		if len(u) != 1 || u[0].Purpose != llm.PurposeTest || u[0].InputTokens != 1000 || u[0].OutputTokens != 200 ||
			u[0].Provider != v.provider || u[0].Model != v.model || u[0].CostUSD != resp.Usage.CostUSD {
			t.Fatalf("usage rows = %+v", u)
		}
	})
}

func TestToolCallsAndChoice(t *testing.T) {
	choices := []struct {
		choice   llm.ToolChoice
		wantMode string
		wantName string
	}{
		{llm.ToolChoice{}, "auto", ""},
		{llm.ToolChoice{Mode: llm.ToolChoiceRequired}, "required", ""},
		{llm.ToolChoice{Mode: llm.ToolChoiceTool, Name: "SubmitMemoryPlan"}, "tool", "SubmitMemoryPlan"},
	}
	forEach(t, func(t *testing.T, v variant) {
		for _, tc := range choices {
			srv := v.server(t)
			c := v.client(t, srv, testKey, nil)
			srv.Push(llmtest.Calls(
				llmtest.ToolCall{Name: "SubmitMemoryPlan", Arguments: `{"status":"updated","items":[{"slug":"likes-tea"}]}`},
				llmtest.ToolCall{Name: "SubmitMemoryPlan", Arguments: `{"status":"noop"}`},
			))
			resp, err := c.Complete(context.Background(), llm.Request{
				Messages:   []llm.Message{{Role: llm.RoleUser, Content: "I like tea"}},
				Tools:      []llm.Tool{planTool},
				ToolChoice: tc.choice,
			})
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if len(resp.ToolCalls) != 2 || resp.ToolCalls[0].Name != "SubmitMemoryPlan" || resp.ToolCalls[0].ID == "" ||
				string(resp.ToolCalls[0].Arguments) != `{"status":"updated","items":[{"slug":"likes-tea"}]}` ||
				string(resp.ToolCalls[1].Arguments) != `{"status":"noop"}` {
				t.Fatalf("tool calls = %+v", resp.ToolCalls)
			}
			r := srv.Requests()[0]
			mode, name := r.ToolChoice()
			if mode != tc.wantMode || name != tc.wantName {
				t.Fatalf("sent tool_choice %q %q, want %q %q", mode, name, tc.wantMode, tc.wantName)
			}
			if tools := r.Tools(); len(tools) != 1 || tools[0] != "SubmitMemoryPlan" {
				t.Fatalf("sent tools %v", tools)
			}
		}
	})
}

func TestToolLoopReplay(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		srv.Push(llmtest.Text("done"))
		_, err := c.Complete(context.Background(), llm.Request{
			Messages: []llm.Message{
				{Role: llm.RoleUser, Content: "go"},
				{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "SubmitMemoryPlan", Arguments: json.RawMessage(`{"status":"noop"}`)}}},
				{Role: llm.RoleTool, ToolCallID: "call_1", Content: "accepted"},
			},
			Tools: []llm.Tool{planTool},
		})
		if err != nil {
			t.Fatalf("Complete: %v", err)
		}
		raw := string(srv.Requests()[0].Raw)
		for _, want := range []string{"call_1", "accepted", "SubmitMemoryPlan"} {
			if !strings.Contains(raw, want) {
				t.Fatalf("request lacks %q: %s", want, raw)
			}
		}
	})
}

func TestMalformedArgumentsPassThroughRaw(t *testing.T) {
	const bad = `{"status": "updated", "items": [{"slug": "x"` // cut off mid-object
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		srv.Push(llmtest.Call("SubmitMemoryPlan", bad))
		resp, err := c.Complete(context.Background(), llm.Request{
			Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}, Tools: []llm.Tool{planTool},
		})
		if err != nil {
			t.Fatalf("Complete: %v", err)
		}
		if len(resp.ToolCalls) != 1 {
			t.Fatalf("tool calls = %+v", resp.ToolCalls)
		}
		got := string(resp.ToolCalls[0].Arguments)
		want := bad
		if v.provider == llm.ProviderAnthropic && !v.streaming {
			// Anthropic's JSON body can only carry input as a JSON value: a string here.
			b, _ := json.Marshal(bad)
			want = string(b)
		}
		if got != want {
			t.Fatalf("arguments = %s, want %s", got, want)
		}
		var plan struct {
			Status string `json:"status"`
		}
		if json.Unmarshal(resp.ToolCalls[0].Arguments, &plan) == nil {
			t.Fatalf("malformed arguments decoded as a plan")
		}
	})
}

func TestKeylessLocalEndpointSendsNoKey(t *testing.T) {
	// Provider SDKs read these; a keyless local endpoint must still get no credential.
	t.Setenv("OPENAI_API_KEY", "sk-from-env-must-not-be-sent")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-from-env-must-not-be-sent")
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		c := v.client(t, srv, "", nil)
		srv.Push(llmtest.Text("hi"))
		if _, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}}); err != nil {
			t.Fatalf("Complete: %v", err)
		}
		r := srv.Requests()[0]
		if a := r.Auth(); a != "" {
			t.Fatalf("a keyless endpoint got a credential: %q", a)
		}
	})
}

func TestNewValidates(t *testing.T) {
	cases := []struct {
		cfg  llm.Config
		key  string
		code string
	}{
		{llm.Config{}, "", llm.CodeNotConfigured},
		{llm.Config{Provider: "gemini", Model: "x"}, "k", llm.CodeInvalidConfig},
		{llm.Config{Provider: llm.ProviderOpenAI}, "k", llm.CodeNoModel},
		{llm.Config{Provider: llm.ProviderOpenAI, Model: "m", BaseURL: "ftp://x"}, "k", llm.CodeInvalidConfig},
		{llm.Config{Provider: llm.ProviderOpenAI, Model: "m", BaseURL: "http://u:p@host/v1"}, "k", llm.CodeInvalidConfig},
		{llm.Config{Provider: llm.ProviderOpenAI, Model: "gpt-4o"}, "", llm.CodeNotConfigured},
		{llm.Config{Provider: llm.ProviderAnthropic, Model: "claude-sonnet-4"}, "", llm.CodeNotConfigured},
	}
	for _, tc := range cases {
		_, err := llm.New(tc.cfg, tc.key, nil)
		wantCode(t, err, tc.code)
	}
	if _, err := llm.New(llm.Config{Provider: llm.ProviderOpenAI, Model: "llama3", BaseURL: "http://localhost:11434/v1"}, "", nil); err != nil {
		t.Fatalf("a local endpoint needs no key: %v", err)
	}
}

func TestCost(t *testing.T) {
	cases := []struct {
		model   string
		in, out int
		want    float64
	}{
		{"gpt-4o-mini", 1_000_000, 1_000_000, 0.75},
		{"gpt-4o-2024-08-06", 1_000_000, 0, 2.50},
		{"claude-sonnet-4-20250514", 1000, 1000, 0.018},
		{"openai/gpt-4o", 0, 1_000_000, 10},
		{"llama3.1:8b", 1_000_000, 1_000_000, 0},
		{"gpt-4oz", 1_000_000, 0, 0},
	}
	for _, tc := range cases {
		if got := llm.Cost(tc.model, tc.in, tc.out); got != tc.want {
			t.Errorf("Cost(%s) = %v, want %v", tc.model, got, tc.want)
		}
	}
}

func TestRequestLimitsSent(t *testing.T) {
	temp := 0.2
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		srv.Push(llmtest.Text("a"), llmtest.Text("b"))
		for _, req := range []llm.Request{
			{MaxTokens: 123, Temperature: &temp, Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}},
			{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}},
		} {
			if _, err := c.Complete(context.Background(), req); err != nil {
				t.Fatal(err)
			}
		}
		got := srv.Requests()
		if got[0].Body["max_tokens"] != 123.0 || got[0].Body["temperature"] != 0.2 {
			t.Fatalf("first request: %s", got[0].Raw)
		}
		if got[1].Body["max_tokens"] != float64(llm.DefaultMaxTokens) || got[1].Body["temperature"] != nil {
			t.Fatalf("second request: %s", got[1].Raw)
		}
	})
}

func TestBadRequestsSendNothing(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		for _, req := range []llm.Request{
			{Messages: []llm.Message{{Role: "system", Content: "x"}}},
			{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}, Tools: []llm.Tool{{Name: "T", Parameters: json.RawMessage(`[1]`)}}},
			{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}, Tools: []llm.Tool{planTool}, ToolChoice: llm.ToolChoice{Mode: "sometimes"}},
		} {
			_, err := c.Complete(context.Background(), req)
			wantCode(t, err, llm.CodeInvalidConfig)
		}
		if n := len(srv.Requests()); n != 0 {
			t.Fatalf("%d requests sent", n)
		}
	})
}

func TestIsLocal(t *testing.T) {
	cases := map[string]bool{
		"http://127.0.0.1:11434/v1":    true,
		"http://localhost:1234/v1":     true,
		"http://[::1]:8000/v1":         true,
		"http://192.168.1.20:8000/v1":  true,
		"http://10.0.0.5/v1":           true,
		"https://api.openai.com/v1":    false,
		"https://api.deepseek.com":     false,
		"http://8.8.8.8/v1":            false,
		"http://localhost.evil.com/v1": false,
		"::not a url":                  false,
	}
	for u, want := range cases {
		if got := llm.IsLocal(u); got != want {
			t.Errorf("IsLocal(%q) = %v, want %v", u, got, want)
		}
	}
}

func TestPrintedClientHidesKey(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		c := v.client(t, v.server(t), testKey, nil)
		for _, f := range []string{"%v", "%+v", "%#v", "%s"} {
			if s := fmt.Sprintf(f, c); strings.Contains(s, testKey) || !strings.Contains(s, v.model) {
				t.Fatalf("%s printed %q", f, s)
			}
		}
	})
}

func TestConcurrentCalls(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		var got rows
		c := v.client(t, srv, testKey, got.sink)
		const n = 8
		for range n {
			srv.Push(llmtest.Text("same answer"))
		}
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
				if err == nil && resp.Text != "same answer" {
					err = errors.New("wrong text " + resp.Text)
				}
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		if len(got.all()) != n || len(srv.Requests()) != n {
			t.Fatalf("%d rows, %d requests", len(got.all()), len(srv.Requests()))
		}
	})
}
