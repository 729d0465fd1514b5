package llm_test

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
)

// The clients speak the providers' wire formats without an SDK: for a set of requests covering
// system prompts, limits, temperature, every tool-choice mode, a replayed tool loop (with
// arguments a model sent malformed) and streaming, the bodies must equal what the official
// openai-go v3.98.0 and anthropic-sdk-go v2.15.0 sent for the same calls (recorded in
// testdata/wire_bodies.json before the SDKs were dropped).
func TestWireBodiesMatchTheOfficialSDKs(t *testing.T) {
	raw, err := os.ReadFile("testdata/wire_bodies.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string][]map[string]any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	temp := 0.2
	reqs := []llm.Request{
		{System: "sys", Messages: []llm.Message{{Role: llm.RoleUser, Content: "hello"}}},
		{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, MaxTokens: 77, Temperature: &temp},
		{System: "s", Tools: []llm.Tool{planTool, {Name: "Empty", Description: "no params"}},
			ToolChoice: llm.ToolChoice{Mode: llm.ToolChoiceTool, Name: "SubmitMemoryPlan"},
			Messages: []llm.Message{
				{Role: llm.RoleUser, Content: "u1"},
				{Role: llm.RoleAssistant, Content: "thinking", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "SubmitMemoryPlan", Arguments: json.RawMessage(`{"status":"noop"}`)}}},
				{Role: llm.RoleTool, ToolCallID: "c1", Content: "ok"},
				{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c2", Name: "Empty", Arguments: json.RawMessage(`not json`)}}},
				{Role: llm.RoleTool, ToolCallID: "c2", Content: "done"},
			}},
		{Tools: []llm.Tool{planTool}, ToolChoice: llm.ToolChoice{Mode: llm.ToolChoiceRequired}, Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}},
		{Tools: []llm.Tool{planTool}, Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}},
	}
	forEach(t, func(t *testing.T, v variant) {
		srv := v.server(t)
		c := v.client(t, srv, testKey, nil)
		for _, r := range reqs {
			srv.Push(llmtest.Text("ok"))
			if _, err := c.Complete(context.Background(), r); err != nil {
				t.Fatal(err)
			}
		}
		got := srv.Requests()
		if len(got) != len(want[v.name]) {
			t.Fatalf("%d requests, want %d", len(got), len(want[v.name]))
		}
		for i, r := range got {
			if !reflect.DeepEqual(r.Body, want[v.name][i]) {
				g, _ := json.Marshal(r.Body)
				w, _ := json.Marshal(want[v.name][i])
				t.Errorf("request %d:\n got  %s\n want %s", i, g, w)
			}
			wantAuth := "Bearer " + testKey // OpenAI: a bearer token
			if v.provider == llm.ProviderAnthropic {
				wantAuth = testKey // Anthropic: x-api-key
			}
			if r.Auth() != wantAuth {
				t.Errorf("request %d carried credential %q", i, r.Auth())
			}
			if v.provider == llm.ProviderAnthropic && r.Header.Get("Anthropic-Version") == "" {
				t.Errorf("request %d has no anthropic-version", i)
			}
		}
	})
}
