package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// openAIClient speaks Chat Completions to any OpenAI-compatible endpoint: POST
// {base}/chat/completions, the key as a bearer token, answers as JSON or server-sent events.
type openAIClient struct {
	*base
}

func newOpenAI(b *base) *openAIClient { return &openAIClient{base: b} }

// The request as the wire has it. Optional fields are omitted, never sent as null.
type (
	oaRequest struct {
		Model               string        `json:"model"`
		Messages            []oaMessage   `json:"messages"`
		Tools               []oaTool      `json:"tools,omitempty"`
		ToolChoice          any           `json:"tool_choice,omitempty"`
		MaxTokens           int64         `json:"max_tokens,omitempty"`
		MaxCompletionTokens int64         `json:"max_completion_tokens,omitempty"`
		Temperature         *float64      `json:"temperature,omitempty"`
		Stream              bool          `json:"stream,omitempty"`
		StreamOptions       *oaStreamOpts `json:"stream_options,omitempty"`
	}
	oaStreamOpts struct {
		IncludeUsage bool `json:"include_usage"`
	}
	oaMessage struct {
		Role       string       `json:"role"`
		Content    *string      `json:"content,omitempty"`
		Refusal    *string      `json:"refusal,omitempty"` // answers only
		ToolCallID string       `json:"tool_call_id,omitempty"`
		ToolCalls  []oaToolCall `json:"tool_calls,omitempty"`
	}
	oaToolCall struct {
		Index    *int64     `json:"index,omitempty"` // streamed deltas only
		ID       string     `json:"id,omitempty"`
		Type     string     `json:"type,omitempty"`
		Function oaFunction `json:"function"`
	}
	oaFunction struct {
		Name      string `json:"name,omitempty"`
		Arguments oaArgs `json:"arguments"`
	}
	oaTool struct {
		Type     string        `json:"type"`
		Function oaFunctionDef `json:"function"`
	}
	oaFunctionDef struct {
		Name        string         `json:"name"`
		Description string         `json:"description,omitempty"`
		Parameters  map[string]any `json:"parameters"`
	}
	oaUsage struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		// PromptCacheHitTokens is DeepSeek's name for the cached part of the prompt.
		PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"`
	}
	// oaAnswer is a chat.completion object or, streamed, one chat.completion.chunk.
	oaAnswer struct {
		Model   string `json:"model"`
		Choices []struct {
			Index        int64     `json:"index"`
			Message      oaMessage `json:"message"`
			Delta        oaMessage `json:"delta"`
			FinishReason string    `json:"finish_reason"`
		} `json:"choices"`
		Usage *oaUsage `json:"usage"`
		// Error is set when the server answers 200 with an error body (some compatible servers
		// and gateways do, whole or mid-stream): an object, or a bare string.
		Error json.RawMessage `json:"error"`
	}
)

// Complete implements Client.
func (c *openAIClient) Complete(ctx context.Context, req Request) (Response, error) {
	body, err := c.params(req)
	if err != nil {
		return Response{}, err
	}
	return c.complete(ctx, req, func(ctx context.Context) (Response, error) {
		header := http.Header{}
		if c.key != "" {
			header.Set("Authorization", "Bearer "+c.key)
		}
		resp, err := c.post(ctx, "/chat/completions", header, body, c.cfg.Streaming)
		if err != nil {
			return Response{}, err
		}
		if c.cfg.Streaming && isEventStream(resp) {
			return c.stream(ctx, resp)
		}
		return c.once(ctx, resp)
	})
}

func strPtr(s string) *string { return &s }

func (c *openAIClient) params(req Request) (oaRequest, error) {
	p := oaRequest{Model: c.cfg.Model}
	if req.System != "" {
		p.Messages = append(p.Messages, oaMessage{Role: "system", Content: strPtr(req.System)})
	}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleUser:
			p.Messages = append(p.Messages, oaMessage{Role: "user", Content: strPtr(m.Content)})
		case RoleTool:
			p.Messages = append(p.Messages, oaMessage{Role: "tool", Content: strPtr(m.Content), ToolCallID: m.ToolCallID})
		case RoleAssistant:
			a := oaMessage{Role: "assistant"}
			if m.Content != "" {
				a.Content = strPtr(m.Content)
			}
			for _, tc := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, oaToolCall{ID: tc.ID, Type: "function",
					Function: oaFunction{Name: tc.Name, Arguments: oaArgs(tc.Arguments)}})
			}
			p.Messages = append(p.Messages, a)
		default:
			return p, badRequest("unknown message role %q", string(m.Role))
		}
	}
	for _, t := range req.Tools {
		schema, err := toolSchema(t)
		if err != nil {
			return p, err
		}
		p.Tools = append(p.Tools, oaTool{Type: "function", Function: oaFunctionDef{
			Name: t.Name, Description: t.Description, Parameters: schema,
		}})
	}
	if len(req.Tools) > 0 {
		switch req.ToolChoice.Mode {
		case "", ToolChoiceAuto:
			p.ToolChoice = "auto"
		case ToolChoiceRequired:
			p.ToolChoice = "required"
		case ToolChoiceTool:
			p.ToolChoice = map[string]any{"type": "function", "function": map[string]any{"name": req.ToolChoice.Name}}
		default:
			return p, badRequest("unknown tool choice %q", req.ToolChoice.Mode)
		}
	}
	// OpenAI's own newer models take max_completion_tokens only; compatible servers (Ollama,
	// vLLM, DeepSeek) know max_tokens.
	if strings.HasPrefix(c.cfg.BaseURL, OpenAIBaseURL) {
		p.MaxCompletionTokens = maxTokens(req)
	} else {
		p.MaxTokens = maxTokens(req)
	}
	p.Temperature = req.Temperature
	if c.cfg.Streaming {
		p.Stream = true
		p.StreamOptions = &oaStreamOpts{IncludeUsage: true}
	}
	return p, nil
}

func (c *openAIClient) once(ctx context.Context, hr *http.Response) (Response, error) {
	var out oaAnswer
	if err := decodeAnswer(hr, &out); err != nil {
		return Response{}, err
	}
	resp := Response{Model: out.Model}
	if out.Usage != nil {
		resp.Usage = out.Usage.usage()
	}
	if len(out.Choices) == 0 && hasError(out.Error) {
		// An error answered with 200: its words (and its type, for a retry) were lost to
		// "the answer has no choices".
		return resp, answeredError(ctx, out.Error)
	}
	if len(out.Choices) == 0 {
		return resp, errors.New("the answer has no choices")
	}
	ch := out.Choices[0]
	if ch.Message.Content != nil {
		resp.Text = *ch.Message.Content
	}
	if ch.Message.Refusal != nil {
		resp.Refusal = *ch.Message.Refusal
	}
	resp.StopReason = ch.FinishReason
	for i, tc := range ch.Message.ToolCalls {
		resp.ToolCalls = append(resp.ToolCalls, ToolCall{ID: callID(tc.ID, i), Name: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments)})
	}
	return resp, nil
}

// usage is u as Usage: the cached part of the prompt (OpenAI's cached_tokens, DeepSeek's
// prompt_cache_hit_tokens) is priced at the cache price.
func (u *oaUsage) usage() Usage {
	return Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens,
		CacheReadTokens: max(u.PromptTokensDetails.CachedTokens, u.PromptCacheHitTokens)}
}

// stream reads chat.completion.chunk events until "[DONE]": text deltas concatenate, tool
// calls assemble by index (name and id from their first chunk, arguments from every chunk,
// raw), and the last chunk carries usage. A finish_reason or [DONE] with whole tool-call
// arguments ends the answer; anything else ended is a cut answer. A data line holding an "error" object is the
// provider failing mid-answer.
func (c *openAIClient) stream(ctx context.Context, hr *http.Response) (Response, error) {
	defer hr.Body.Close()
	sse := newSSEReader(hr.Body)
	var resp Response
	var text, refusal strings.Builder
	calls := map[int64]*ToolCall{}
	args := map[int64]*strings.Builder{}
	var last int64
	done, sawDone := false, false
	var streamErr error
	for {
		ev, err := sse.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			streamErr = err
			break
		}
		if string(ev.data) == "[DONE]" {
			sawDone = true
			break
		}
		if len(bytes.TrimSpace(ev.data)) == 0 {
			continue // a keep-alive some compatible servers send while the model thinks
		}
		var ch oaAnswer
		if err := json.Unmarshal(ev.data, &ch); err != nil {
			streamErr = errors.New("a streamed chunk is not JSON")
			break
		}
		if hasError(ch.Error) {
			noteStreamError(ctx, ev.data)
			streamErr = errors.New("the provider failed while answering")
			break
		}
		if ch.Model != "" {
			resp.Model = ch.Model
		}
		if u := ch.Usage; u != nil && (u.PromptTokens > 0 || u.CompletionTokens > 0) {
			resp.Usage = u.usage()
		}
		for _, choice := range ch.Choices {
			if choice.Index != 0 {
				continue
			}
			if choice.Delta.Content != nil {
				text.WriteString(*choice.Delta.Content)
			}
			if choice.Delta.Refusal != nil {
				refusal.WriteString(*choice.Delta.Refusal)
			}
			for _, d := range choice.Delta.ToolCalls {
				i := last
				switch {
				case d.Index != nil:
					i = *d.Index
				case len(calls) == 0:
					i = 0
				case d.ID != "" && calls[last].ID != "" && d.ID != calls[last].ID:
					// Servers that leave out "index" (Gemini's compatible endpoint, older
					// Ollama) send parallel calls whole, one per chunk: a new id is a new call.
					i = last + 1
					for calls[i] != nil {
						i++
					}
				}
				last = i
				tc := calls[i]
				if tc == nil {
					tc = &ToolCall{}
					calls[i] = tc
					args[i] = &strings.Builder{}
				}
				if d.ID != "" {
					tc.ID = d.ID
				}
				if d.Function.Name != "" {
					tc.Name = d.Function.Name
				}
				args[i].WriteString(string(d.Function.Arguments))
			}
			if choice.FinishReason != "" {
				resp.StopReason = choice.FinishReason
				done = true
			}
		}
	}
	resp.Text, resp.Refusal = text.String(), refusal.String()
	idx := make([]int64, 0, len(calls))
	for i := range calls {
		idx = append(idx, i)
	}
	sort.Slice(idx, func(a, b int) bool { return idx[a] < idx[b] })
	for n, i := range idx {
		tc := *calls[i]
		tc.ID = callID(tc.ID, n)
		tc.Arguments = json.RawMessage(unwrapTwice(args[i].String()))
		resp.ToolCalls = append(resp.ToolCalls, tc)
	}
	if streamErr != nil {
		return resp, streamErr
	}
	if !done && !(sawDone && argumentsWhole(resp.ToolCalls)) {
		return resp, errors.New("the stream ended before the answer was complete")
	}
	return resp, nil
}

// argumentsWhole reports whether every tool call's arguments are one whole JSON object: what
// makes a stream that ended with [DONE] but never sent a finish_reason (some compatible
// servers and proxies leave it out) a complete answer. A plan's arguments cut short are not
// valid JSON, so a cut answer is still refused; a text answer has nothing to check, and the
// [DONE] a dropped connection never sends is its end.
func argumentsWhole(calls []ToolCall) bool {
	for _, tc := range calls {
		args := bytes.TrimSpace(tc.Arguments)
		if len(args) == 0 || args[0] != '{' || !json.Valid(args) {
			return false
		}
	}
	return true
}

// oaArgs is a tool call's arguments: a JSON string on OpenAI's wire, but some compatible
// servers (LocalAI, proxies in front of Ollama's native API) send the object itself. Either is
// read as the arguments' JSON text, so the call is not lost to the answer failing to decode; it
// is always sent as a string.
type oaArgs string

// UnmarshalJSON takes a string as is and any other JSON value as its raw text (null as none).
func (a *oaArgs) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*a = oaArgs(unwrapTwice(s))
	case string(b) == "null":
		*a = ""
	default:
		*a = oaArgs(b)
	}
	return nil
}

// unwrapTwice reads arguments encoded twice (a JSON string holding the object's JSON, as some
// models write them) as the object; anything else is returned as it is.
func unwrapTwice(s string) string {
	var inner string
	if json.Unmarshal([]byte(s), &inner) == nil && strings.HasPrefix(strings.TrimSpace(inner), "{") && json.Valid([]byte(inner)) {
		return inner
	}
	return s
}

// callID names a tool call the server left without an id (Ollama, some vLLM builds), so the
// call can be answered when it is replayed: a tool result needs the id it answers.
func callID(id string, n int) string {
	if id != "" {
		return id
	}
	return "call_" + strconv.Itoa(n)
}

// toolSchema decodes a tool's JSON Schema; a tool without one takes an empty object schema.
func toolSchema(t Tool) (map[string]any, error) {
	if len(t.Parameters) == 0 {
		return map[string]any{"type": "object", "properties": map[string]any{}}, nil
	}
	var m map[string]any
	if err := json.Unmarshal(t.Parameters, &m); err != nil {
		return nil, badRequest("tool %s has parameters that are not a JSON object", t.Name)
	}
	return m, nil
}

// badRequest is a request the caller built wrong; nothing is sent.
func badRequest(format string, a ...any) *Error {
	e := codeErr(CodeInvalidConfig, nil, format, a...)
	e.Args = map[string]any{"Detail": e.Msg}
	return e
}
