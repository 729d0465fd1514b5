package extraction

import (
	"bytes"
	"encoding/json"
	"strings"

	"engram/backend/llm"
	"engram/backend/prompts"
)

// textPlanCall reads a SubmitMemoryPlan call a model wrote as text instead of calling the tool:
// what open models behind OpenAI-compatible servers do when the server's tool parser misses
// their format (Ollama, vLLM, LM Studio) — a reasoning block first ("<think>…</think>"), then
// the arguments as a JSON object, bare or in a ```json fence, or the call itself
// ({"name": "SubmitMemoryPlan", "arguments": {…}}, in "<tool_call>" tags or not). Without it
// such a model's plan was lost and the turn planned offline. Only a whole answer of that shape
// counts (prose around the JSON is not a call), and it is decoded as strictly as a real call.
func textPlanCall(text string) (*llm.ToolCall, bool) {
	t := strings.TrimSpace(text)
	if i := strings.LastIndex(t, "</think>"); i >= 0 && strings.HasPrefix(t, "<think>") {
		t = strings.TrimSpace(t[i+len("</think>"):])
	}
	if strings.HasPrefix(t, "```") {
		nl := strings.IndexByte(t, '\n')
		if nl < 0 || !strings.HasSuffix(t, "```") || len(t) < nl+4 {
			return nil, false
		}
		if lang := strings.TrimSpace(t[3:nl]); lang != "" && lang != "json" {
			return nil, false
		}
		t = strings.TrimSpace(t[nl+1 : len(t)-3])
	}
	if strings.HasPrefix(t, "<tool_call>") && strings.HasSuffix(t, "</tool_call>") {
		t = strings.TrimSpace(t[len("<tool_call>") : len(t)-len("</tool_call>")])
	}
	if !strings.HasPrefix(t, "{") || !json.Valid([]byte(t)) {
		return nil, false
	}
	raw := json.RawMessage(t)
	var wrapped struct {
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
		Parameters json.RawMessage `json:"parameters"`
	}
	if json.Unmarshal(raw, &wrapped) == nil && wrapped.Name != "" {
		if wrapped.Name != prompts.SubmitMemoryPlanName {
			return nil, false
		}
		args := wrapped.Arguments
		if len(args) == 0 {
			args = wrapped.Parameters
		}
		var s string
		if json.Unmarshal(args, &s) == nil {
			args = json.RawMessage(s)
		}
		raw = bytes.TrimSpace(args)
	} else {
		var probe struct {
			Status *string `json:"status"`
		}
		if json.Unmarshal(raw, &probe) != nil || probe.Status == nil {
			return nil, false // some other JSON, not a plan
		}
	}
	return &llm.ToolCall{ID: "text-plan", Name: prompts.SubmitMemoryPlanName, Arguments: raw}, true
}
