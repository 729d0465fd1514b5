package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sort"
	"strings"
)

// anthropicVersion is the Messages API version Engram speaks (the anthropic-version header).
const anthropicVersion = "2023-06-01"

// anthropicClient speaks Anthropic's Messages API: POST {base}/v1/messages, the key in
// x-api-key, answers as JSON or server-sent events.
type anthropicClient struct {
	*base
}

func newAnthropic(b *base) *anthropicClient { return &anthropicClient{base: b} }

// The request as the wire has it.
type (
	anRequest struct {
		Model       string      `json:"model"`
		MaxTokens   int64       `json:"max_tokens"`
		System      []anBlock   `json:"system,omitempty"`
		Messages    []anMessage `json:"messages"`
		Tools       []anTool    `json:"tools,omitempty"`
		ToolChoice  *anChoice   `json:"tool_choice,omitempty"`
		Temperature *float64    `json:"temperature,omitempty"`
		Stream      bool        `json:"stream,omitempty"`
	}
	anMessage struct {
		Role    string    `json:"role"`
		Content []anBlock `json:"content"`
	}
	// anBlock is a content block: text, tool_use or tool_result (sent), text or tool_use (read).
	anBlock struct {
		Type      string          `json:"type"`
		Text      string          `json:"text,omitempty"`
		ID        string          `json:"id,omitempty"`
		Name      string          `json:"name,omitempty"`
		Input     json.RawMessage `json:"input,omitempty"`
		ToolUseID string          `json:"tool_use_id,omitempty"`
		Content   []anBlock       `json:"content,omitempty"`
		IsError   *bool           `json:"is_error,omitempty"`
	}
	anTool struct {
		Name        string         `json:"name"`
		Description string         `json:"description,omitempty"`
		InputSchema map[string]any `json:"input_schema"`
	}
	anChoice struct {
		Type string `json:"type"`
		Name string `json:"name,omitempty"`
	}
	anUsage struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	}
	anMessageOut struct {
		Type       string    `json:"type"`
		Model      string    `json:"model"`
		Content    []anBlock `json:"content"`
		StopReason string    `json:"stop_reason"`
		Usage      anUsage   `json:"usage"`
		// Error is set on an {"type":"error"} body a gateway sent with status 200.
		Error json.RawMessage `json:"error"`
	}
	// anEvent is one streamed event's data.
	anEvent struct {
		Type         string       `json:"type"`
		Index        int64        `json:"index"`
		Message      anMessageOut `json:"message"`
		ContentBlock anBlock      `json:"content_block"`
		Delta        struct {
			Type        string `json:"type"`
			Text        string `json:"text"`
			PartialJSON string `json:"partial_json"`
			StopReason  string `json:"stop_reason"`
		} `json:"delta"`
		Usage anUsage `json:"usage"`
	}
)

// inputTokens counts cached prompt tokens too: they are billed input (at the cache prices).
func (u anUsage) inputTokens() int {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// setInput puts u's prompt counts into usage: the total and the cached parts of it.
func (u anUsage) setInput(usage *Usage) {
	usage.InputTokens = u.inputTokens()
	usage.CacheReadTokens = u.CacheReadInputTokens
	usage.CacheWriteTokens = u.CacheCreationInputTokens
}

// Complete implements Client.
func (c *anthropicClient) Complete(ctx context.Context, req Request) (Response, error) {
	body, err := c.params(req)
	if err != nil {
		return Response{}, err
	}
	return c.complete(ctx, req, func(ctx context.Context) (Response, error) {
		header := http.Header{}
		header.Set("anthropic-version", anthropicVersion)
		if c.key != "" {
			header.Set("x-api-key", c.key)
		}
		resp, err := c.post(ctx, "/v1/messages", header, body, c.cfg.Streaming)
		if err != nil {
			return Response{}, err
		}
		if c.cfg.Streaming && isEventStream(resp) {
			return c.stream(ctx, resp)
		}
		return c.once(ctx, resp)
	})
}

func (c *anthropicClient) params(req Request) (anRequest, error) {
	p := anRequest{Model: c.cfg.Model, MaxTokens: maxTokens(req), Temperature: req.Temperature, Stream: c.cfg.Streaming}
	if req.System != "" {
		p.System = []anBlock{{Type: "text", Text: req.System}}
	}
	no := false
	for _, m := range req.Messages {
		switch m.Role {
		case RoleUser:
			p.Messages = append(p.Messages, anMessage{Role: "user", Content: []anBlock{{Type: "text", Text: m.Content}}})
		case RoleTool:
			p.Messages = append(p.Messages, anMessage{Role: "user", Content: []anBlock{{
				Type: "tool_result", ToolUseID: m.ToolCallID, IsError: &no,
				Content: []anBlock{{Type: "text", Text: m.Content}},
			}}})
		case RoleAssistant:
			var blocks []anBlock
			if m.Content != "" {
				blocks = append(blocks, anBlock{Type: "text", Text: m.Content})
			}
			for _, tc := range m.ToolCalls {
				input := json.RawMessage(tc.Arguments)
				// The wire wants an object: arguments a model sent malformed are replayed as {}.
				if !json.Valid(input) || len(input) == 0 || input[0] != '{' {
					input = json.RawMessage("{}")
				}
				blocks = append(blocks, anBlock{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: input})
			}
			p.Messages = append(p.Messages, anMessage{Role: "assistant", Content: blocks})
		default:
			return p, badRequest("unknown message role %q", string(m.Role))
		}
	}
	for _, t := range req.Tools {
		schema, err := toolSchema(t)
		if err != nil {
			return p, err
		}
		schema["type"] = "object"
		p.Tools = append(p.Tools, anTool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	if len(req.Tools) > 0 {
		switch req.ToolChoice.Mode {
		case "", ToolChoiceAuto:
			p.ToolChoice = &anChoice{Type: "auto"}
		case ToolChoiceRequired:
			p.ToolChoice = &anChoice{Type: "any"}
		case ToolChoiceTool:
			p.ToolChoice = &anChoice{Type: "tool", Name: req.ToolChoice.Name}
		default:
			return p, badRequest("unknown tool choice %q", req.ToolChoice.Mode)
		}
	}
	return p, nil
}

func (c *anthropicClient) once(ctx context.Context, hr *http.Response) (Response, error) {
	var msg anMessageOut
	if err := decodeAnswer(hr, &msg); err != nil {
		return Response{}, err
	}
	resp := Response{
		Model:      msg.Model,
		StopReason: msg.StopReason,
		Usage:      Usage{OutputTokens: msg.Usage.OutputTokens},
	}
	msg.Usage.setInput(&resp.Usage)
	if msg.Type == "error" || (msg.Type != "message" && len(msg.Content) == 0 && hasError(msg.Error)) {
		return resp, answeredError(ctx, msg.Error)
	}
	if msg.Type != "message" && len(msg.Content) == 0 {
		return resp, errors.New("the answer is not a message")
	}
	var text strings.Builder
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			args := append(json.RawMessage(nil), b.Input...)
			// Some Anthropic-compatible endpoints send the input as a JSON string holding the
			// object: the object is the arguments (a string holding no object stays as sent).
			var s string
			if json.Unmarshal(args, &s) == nil && strings.HasPrefix(strings.TrimSpace(s), "{") && json.Valid([]byte(s)) {
				args = json.RawMessage(s)
			}
			if len(args) == 0 {
				args = json.RawMessage("{}")
			}
			resp.ToolCalls = append(resp.ToolCalls, ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
		}
	}
	resp.Text = text.String()
	return resp, nil
}

// stream reads Messages events: text_delta and input_json_delta concatenate per content block
// (tool arguments stay raw, malformed or not), message_start carries input tokens and
// message_delta the stop reason and output tokens; an "error" event is the provider failing
// mid-answer.
func (c *anthropicClient) stream(ctx context.Context, hr *http.Response) (Response, error) {
	defer hr.Body.Close()
	sse := newSSEReader(hr.Body)
	var resp Response
	type block struct {
		kind string
		call ToolCall
		buf  strings.Builder
	}
	blocks := map[int64]*block{}
	done := false
	var streamErr error
read:
	for {
		raw, err := sse.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			streamErr = err
			break
		}
		if len(bytes.TrimSpace(raw.data)) == 0 && raw.name != "error" {
			continue // a ping (or another event) sent without data carries nothing
		}
		var ev anEvent
		if err := json.Unmarshal(raw.data, &ev); err != nil && raw.name == "error" {
			streamErr = errors.New("the provider failed while answering")
			break
		} else if err != nil {
			streamErr = errors.New("a streamed event is not JSON")
			break
		}
		if ev.Type == "" {
			ev.Type = raw.name
		}
		switch ev.Type {
		case "error":
			noteStreamError(ctx, raw.data)
			streamErr = errors.New("the provider failed while answering")
			break read
		case "message_start":
			resp.Model = ev.Message.Model
			ev.Message.Usage.setInput(&resp.Usage)
			resp.Usage.OutputTokens = ev.Message.Usage.OutputTokens
		case "content_block_start":
			b := &block{kind: ev.ContentBlock.Type}
			if b.kind == "tool_use" {
				b.call = ToolCall{ID: ev.ContentBlock.ID, Name: ev.ContentBlock.Name}
			}
			if b.kind == "text" {
				b.buf.WriteString(ev.ContentBlock.Text)
			}
			blocks[ev.Index] = b
		case "content_block_delta":
			b := blocks[ev.Index]
			if b == nil {
				streamErr = errors.New("a delta arrived for a block that never started")
				break read
			}
			switch ev.Delta.Type {
			case "text_delta":
				b.buf.WriteString(ev.Delta.Text)
			case "input_json_delta":
				b.buf.WriteString(ev.Delta.PartialJSON)
			}
		case "message_delta":
			if ev.Delta.StopReason != "" {
				resp.StopReason = ev.Delta.StopReason
			}
			if ev.Usage.OutputTokens > 0 {
				resp.Usage.OutputTokens = ev.Usage.OutputTokens
			}
			// Its counts are cumulative and may carry the input too (Anthropic's with server
			// tools, compatible servers that send 0 in message_start and the count here): the
			// call was recorded with no input tokens and no input cost.
			// Counts are cumulative: each is the larger of the two reports, so a server that
			// repeats only input_tokens here keeps message_start's cached counts.
			if ev.Usage.inputTokens() > 0 {
				resp.Usage.CacheReadTokens = max(resp.Usage.CacheReadTokens, ev.Usage.CacheReadInputTokens)
				resp.Usage.CacheWriteTokens = max(resp.Usage.CacheWriteTokens, ev.Usage.CacheCreationInputTokens)
				resp.Usage.InputTokens = max(resp.Usage.InputTokens, ev.Usage.inputTokens(),
					resp.Usage.CacheReadTokens+resp.Usage.CacheWriteTokens)
			}
		case "message_stop":
			done = true
			break read
		}
	}
	idx := make([]int64, 0, len(blocks))
	for i := range blocks {
		idx = append(idx, i)
	}
	sort.Slice(idx, func(a, b int) bool { return idx[a] < idx[b] })
	var text strings.Builder
	for _, i := range idx {
		b := blocks[i]
		switch b.kind {
		case "text":
			text.WriteString(b.buf.String())
		case "tool_use":
			tc := b.call
			tc.Arguments = json.RawMessage(b.buf.String())
			if b.buf.Len() == 0 {
				// A tool called with no arguments streams no delta; its input is {}.
				tc.Arguments = json.RawMessage("{}")
			}
			resp.ToolCalls = append(resp.ToolCalls, tc)
		}
	}
	resp.Text = text.String()
	if streamErr != nil {
		return resp, streamErr
	}
	if !done {
		return resp, errors.New("the stream ended before the answer was complete")
	}
	return resp, nil
}
