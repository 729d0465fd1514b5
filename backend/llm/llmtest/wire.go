package llmtest

import (
	"encoding/json"
	"net/http"
	"time"
)

// openAIMessage is a non-streamed chat.completion object.
func openAIMessage(r Reply, model string, seq int) map[string]any {
	msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil}
	if r.Text != "" || len(r.ToolCalls) == 0 && r.Refusal == "" {
		msg["content"] = r.Text
	}
	if r.Refusal != "" {
		msg["refusal"] = r.Refusal
	}
	finish := "stop"
	if len(r.ToolCalls) > 0 {
		var calls []map[string]any
		for _, c := range r.ToolCalls {
			calls = append(calls, map[string]any{
				"id": c.ID, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": c.Arguments},
			})
		}
		msg["tool_calls"] = calls
		finish = "tool_calls"
	}
	if r.StopReason != "" {
		finish = r.StopReason
	}
	return map[string]any{
		"id": "chatcmpl-" + itoa(seq), "object": "chat.completion", "created": time.Now().Unix(),
		"model": model,
		"choices": []any{map[string]any{
			"index": 0, "message": msg, "finish_reason": finish, "logprobs": nil,
		}},
		"usage": openAIUsage(r),
	}
}

func openAIUsage(r Reply) map[string]any {
	prompt := r.InputTokens + r.CacheReadTokens + r.CacheWriteTokens
	u := map[string]any{
		"prompt_tokens": prompt, "completion_tokens": r.OutputTokens,
		"total_tokens": prompt + r.OutputTokens,
	}
	if r.CacheReadTokens > 0 {
		u["prompt_tokens_details"] = map[string]any{"cached_tokens": r.CacheReadTokens}
	}
	return u
}

// anthropicUsage is a Messages usage object: input_tokens leaves the cached tokens out.
func anthropicUsage(r Reply, out int) map[string]any {
	u := map[string]any{"input_tokens": r.InputTokens, "output_tokens": out}
	if r.CacheReadTokens > 0 || r.CacheWriteTokens > 0 {
		u["cache_read_input_tokens"] = r.CacheReadTokens
		u["cache_creation_input_tokens"] = r.CacheWriteTokens
	}
	return u
}

// openAIStream sends chat.completion.chunk events: role, text deltas, tool calls (name first,
// then argument deltas), the finish reason, the usage chunk when asked for, then [DONE].
func (s *Server) openAIStream(w http.ResponseWriter, req *http.Request, r Reply, model string, seq int, includeUsage bool) {
	e := newSSE(w)
	id := "chatcmpl-" + itoa(seq)
	created := time.Now().Unix()
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": nil}},
		}
	}
	e.send("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	if r.Text != "" {
		for _, p := range pieces(r.Text, 3) {
			if req.Context().Err() != nil {
				return
			}
			e.send("", chunk(map[string]any{"content": p}, nil))
			if r.Truncate {
				return
			}
			if r.StreamError != "" {
				e.send("", map[string]any{"error": map[string]any{"message": r.StreamError, "type": r.StreamError, "param": nil, "code": nil}})
				return
			}
		}
	}
	for _, p := range pieces(r.Refusal, 2) {
		e.send("", chunk(map[string]any{"refusal": p}, nil))
	}
	for i, c := range r.ToolCalls {
		e.send("", chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""},
		}}}, nil))
		for _, p := range pieces(c.Arguments, 3) {
			if req.Context().Err() != nil {
				return
			}
			e.send("", chunk(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": p},
			}}}, nil))
			if r.Truncate {
				return
			}
		}
	}
	var finish any = "stop"
	if len(r.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	if r.StopReason != "" {
		finish = r.StopReason
	}
	if r.NoFinishReason {
		finish = nil
	}
	e.send("", chunk(map[string]any{}, finish))
	if includeUsage {
		e.send("", map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{}, "usage": openAIUsage(r),
		})
	}
	e.send("", "[DONE]")
}

// anthropicMessage is a non-streamed Messages API message.
func anthropicMessage(r Reply, model string, seq int) map[string]any {
	var content []any
	if r.Text != "" || len(r.ToolCalls) == 0 {
		content = append(content, map[string]any{"type": "text", "text": r.Text})
	}
	for _, c := range r.ToolCalls {
		content = append(content, map[string]any{
			"type": "tool_use", "id": c.ID, "name": c.Name, "input": jsonValue(c.Arguments),
		})
	}
	return map[string]any{
		"id": "msg_" + itoa(seq), "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": anthropicStop(r), "stop_sequence": nil,
		"usage": anthropicUsage(r, r.OutputTokens),
	}
}

func anthropicStop(r Reply) string {
	if r.StopReason != "" {
		return r.StopReason
	}
	if len(r.ToolCalls) > 0 {
		return "tool_use"
	}
	return "end_turn"
}

// jsonValue embeds s as JSON when it is JSON, else as a JSON string.
func jsonValue(s string) json.RawMessage {
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}

// anthropicStream sends message_start, one content block per text and tool call
// (content_block_start, deltas — text_delta or input_json_delta — content_block_stop),
// message_delta with the stop reason and output tokens, then message_stop.
func (s *Server) anthropicStream(w http.ResponseWriter, req *http.Request, r Reply, model string, seq int) {
	e := newSSE(w)
	e.send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_" + itoa(seq), "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": anthropicUsage(r, 1),
	}})
	e.send("ping", map[string]any{"type": "ping"})
	idx := 0
	if r.Text != "" {
		e.send("content_block_start", map[string]any{"type": "content_block_start", "index": idx,
			"content_block": map[string]any{"type": "text", "text": ""}})
		for _, p := range pieces(r.Text, 3) {
			if req.Context().Err() != nil {
				return
			}
			e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx,
				"delta": map[string]any{"type": "text_delta", "text": p}})
			if r.Truncate {
				return
			}
			if r.StreamError != "" {
				e.send("error", map[string]any{"type": "error", "error": map[string]any{"type": r.StreamError, "message": r.StreamError}})
				return
			}
		}
		e.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	for _, c := range r.ToolCalls {
		e.send("content_block_start", map[string]any{"type": "content_block_start", "index": idx,
			"content_block": map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": map[string]any{}}})
		for _, p := range pieces(c.Arguments, 3) {
			if req.Context().Err() != nil {
				return
			}
			e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": p}})
			if r.Truncate {
				return
			}
		}
		e.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	e.send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": anthropicStop(r), "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": r.OutputTokens}})
	e.send("message_stop", map[string]any{"type": "message_stop"})
}

// Auth is the credential the request carried: the Authorization header (OpenAI) or
// x-api-key (Anthropic); "" when none.
func (r Request) Auth() string {
	if v := r.Header.Get("Authorization"); v != "" {
		return v
	}
	return r.Header.Get("X-Api-Key")
}

// Model is the requested model.
func (r Request) Model() string { s, _ := r.Body["model"].(string); return s }

// Stream reports whether the request asked for a streamed reply.
func (r Request) Stream() bool { b, _ := r.Body["stream"].(bool); return b }

// System is the system prompt: Anthropic's "system" (a string or text blocks) or the
// content of OpenAI's system/developer messages.
func (r Request) System() string {
	if sys, ok := r.Body["system"]; ok {
		return textOf(sys)
	}
	out := ""
	for _, m := range r.Messages() {
		if role := m["role"]; role == "system" || role == "developer" {
			out += textOf(m["content"])
		}
	}
	return out
}

// Messages are the request's messages as decoded JSON objects.
func (r Request) Messages() []map[string]any {
	var out []map[string]any
	list, _ := r.Body["messages"].([]any)
	for _, m := range list {
		if mm, ok := m.(map[string]any); ok {
			out = append(out, mm)
		}
	}
	return out
}

// Tools names the tools offered, in order (OpenAI's function.name or Anthropic's name).
func (r Request) Tools() []string {
	var out []string
	list, _ := r.Body["tools"].([]any)
	for _, t := range list {
		tm, _ := t.(map[string]any)
		if fn, ok := tm["function"].(map[string]any); ok {
			out = append(out, str(fn["name"]))
		} else {
			out = append(out, str(tm["name"]))
		}
	}
	return out
}

// ToolChoice normalises tool_choice to a mode and a name: ("auto"|"required"|"none", "") or
// ("tool", name). OpenAI's "required" and Anthropic's {"type":"any"} are both "required";
// ("", "") when the request sent none.
func (r Request) ToolChoice() (mode, name string) {
	switch tc := r.Body["tool_choice"].(type) {
	case string:
		return tc, ""
	case map[string]any:
		switch str(tc["type"]) {
		case "function":
			fn, _ := tc["function"].(map[string]any)
			return "tool", str(fn["name"])
		case "tool":
			return "tool", str(tc["name"])
		case "any":
			return "required", ""
		default:
			return str(tc["type"]), ""
		}
	}
	return "", ""
}

func str(v any) string { s, _ := v.(string); return s }

func textOf(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		out := ""
		for _, b := range c {
			if bm, ok := b.(map[string]any); ok {
				out += str(bm["text"])
			}
		}
		return out
	}
	return ""
}
