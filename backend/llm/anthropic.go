package llm

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// anthropicClient speaks Anthropic's Messages API.
type anthropicClient struct {
	*base
	sdk anthropic.Client
}

func newAnthropic(b *base) *anthropicClient {
	opts := []option.RequestOption{
		// Keys come only from Engram's key file, never from the environment or profiles.
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(b.cfg.BaseURL),
		option.WithHTTPClient(b.cfg.HTTPClient),
		option.WithMaxRetries(0),
		option.WithMiddleware(b.middleware),
	}
	if b.key != "" {
		opts = append(opts, option.WithAPIKey(b.key))
	}
	return &anthropicClient{base: b, sdk: anthropic.NewClient(opts...)}
}

// Complete implements Client.
func (c *anthropicClient) Complete(ctx context.Context, req Request) (Response, error) {
	params, err := c.params(req)
	if err != nil {
		return Response{}, err
	}
	var opts []option.RequestOption
	if req.Temperature != nil {
		// The SDK's params carry no temperature field; the wire still takes one.
		opts = append(opts, option.WithJSONSet("temperature", *req.Temperature))
	}
	return c.complete(ctx, req, func(ctx context.Context) (Response, error) {
		if c.cfg.Streaming {
			return c.stream(ctx, params, opts)
		}
		return c.once(ctx, params, opts)
	})
}

func (c *anthropicClient) params(req Request) (anthropic.MessageNewParams, error) {
	p := anthropic.MessageNewParams{Model: anthropic.Model(c.cfg.Model), MaxTokens: maxTokens(req)}
	if req.System != "" {
		p.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleUser:
			p.Messages = append(p.Messages, anthropic.NewUserMessage(anthropic.NewTextBlock(m.Content)))
		case RoleTool:
			p.Messages = append(p.Messages, anthropic.NewUserMessage(anthropic.NewToolResultBlock(m.ToolCallID, m.Content, false)))
		case RoleAssistant:
			var blocks []anthropic.ContentBlockParamUnion
			if m.Content != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Content))
			}
			for _, tc := range m.ToolCalls {
				var input any = json.RawMessage(tc.Arguments)
				if !json.Valid(tc.Arguments) {
					input = map[string]any{}
				}
				blocks = append(blocks, anthropic.NewToolUseBlock(tc.ID, input, tc.Name))
			}
			p.Messages = append(p.Messages, anthropic.NewAssistantMessage(blocks...))
		default:
			return p, badRequest("unknown message role %q", string(m.Role))
		}
	}
	for _, t := range req.Tools {
		schema, err := toolSchema(t)
		if err != nil {
			return p, err
		}
		in := anthropic.ToolInputSchemaParam{ExtraFields: map[string]any{}}
		for k, v := range schema {
			switch k {
			case "type":
			case "properties":
				in.Properties = v
			case "required":
				for _, r := range asList(v) {
					in.Required = append(in.Required, r)
				}
			default:
				in.ExtraFields[k] = v
			}
		}
		p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
			Name: t.Name, Description: anthropic.String(t.Description), InputSchema: in,
		}})
	}
	if len(req.Tools) > 0 {
		switch req.ToolChoice.Mode {
		case "", ToolChoiceAuto:
			p.ToolChoice = anthropic.ToolChoiceUnionParam{OfAuto: &anthropic.ToolChoiceAutoParam{}}
		case ToolChoiceRequired:
			p.ToolChoice = anthropic.ToolChoiceUnionParam{OfAny: &anthropic.ToolChoiceAnyParam{}}
		case ToolChoiceTool:
			p.ToolChoice = anthropic.ToolChoiceParamOfTool(req.ToolChoice.Name)
		default:
			return p, badRequest("unknown tool choice %q", req.ToolChoice.Mode)
		}
	}
	return p, nil
}

func asList(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func (c *anthropicClient) once(ctx context.Context, p anthropic.MessageNewParams, opts []option.RequestOption) (Response, error) {
	msg, err := c.sdk.Messages.New(ctx, p, opts...)
	if err != nil {
		return Response{}, err
	}
	u := msg.Usage
	resp := Response{
		Model:      string(msg.Model),
		StopReason: string(msg.StopReason),
		Usage: Usage{
			InputTokens:  int(u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens),
			OutputTokens: int(u.OutputTokens),
		},
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
			resp.ToolCalls = append(resp.ToolCalls, ToolCall{ID: b.ID, Name: b.Name, Arguments: append(json.RawMessage(nil), b.Input...)})
		}
	}
	resp.Text = text.String()
	return resp, nil
}

// stream reads Messages events: text_delta and input_json_delta concatenate per content block
// (tool arguments stay raw, malformed or not), message_start carries input tokens and
// message_delta the stop reason and output tokens.
func (c *anthropicClient) stream(ctx context.Context, p anthropic.MessageNewParams, opts []option.RequestOption) (Response, error) {
	s := c.sdk.Messages.NewStreaming(ctx, p, opts...)
	defer s.Close()
	var resp Response
	type block struct {
		kind string
		call ToolCall
		buf  strings.Builder
	}
	blocks := map[int64]*block{}
	done := false
	for s.Next() {
		ev := s.Current()
		switch ev.Type {
		case "message_start":
			resp.Model = string(ev.Message.Model)
			u := ev.Message.Usage
			resp.Usage.InputTokens = int(u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens)
			resp.Usage.OutputTokens = int(u.OutputTokens)
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
				return resp, errors.New("a delta arrived for a block that never started")
			}
			switch ev.Delta.Type {
			case "text_delta":
				b.buf.WriteString(ev.Delta.Text)
			case "input_json_delta":
				b.buf.WriteString(ev.Delta.PartialJSON)
			}
		case "message_delta":
			if ev.Delta.StopReason != "" {
				resp.StopReason = string(ev.Delta.StopReason)
			}
			if ev.Usage.OutputTokens > 0 {
				resp.Usage.OutputTokens = int(ev.Usage.OutputTokens)
			}
		case "message_stop":
			done = true
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
	if err := s.Err(); err != nil {
		var ae *anthropic.Error
		if errors.As(err, &ae) {
			noteStreamError(ctx, []byte(ae.RawJSON()))
		}
		return resp, err
	}
	if !done {
		return resp, errors.New("the stream ended before the answer was complete")
	}
	return resp, nil
}
