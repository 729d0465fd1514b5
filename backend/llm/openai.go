package llm

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"
)

// openAIClient speaks Chat Completions to any OpenAI-compatible endpoint.
type openAIClient struct {
	*base
	sdk openai.Client
}

func newOpenAI(b *base) *openAIClient {
	sdk := openai.NewClient(
		option.WithBaseURL(b.cfg.BaseURL),
		option.WithAPIKey(b.key),
		option.WithHTTPClient(b.cfg.HTTPClient),
		// Retries are the client's own (counted, bounded by the call's timeout).
		option.WithMaxRetries(0),
		option.WithMiddleware(b.middleware),
	)
	return &openAIClient{base: b, sdk: sdk}
}

// Complete implements Client.
func (c *openAIClient) Complete(ctx context.Context, req Request) (Response, error) {
	params, err := c.params(req)
	if err != nil {
		return Response{}, err
	}
	return c.complete(ctx, req, func(ctx context.Context) (Response, error) {
		if c.cfg.Streaming {
			return c.stream(ctx, params)
		}
		return c.once(ctx, params)
	})
}

func (c *openAIClient) params(req Request) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: c.cfg.Model}
	if req.System != "" {
		p.Messages = append(p.Messages, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleUser:
			p.Messages = append(p.Messages, openai.UserMessage(m.Content))
		case RoleTool:
			p.Messages = append(p.Messages, openai.ToolMessage(m.Content, m.ToolCallID))
		case RoleAssistant:
			a := openai.ChatCompletionAssistantMessageParam{}
			if m.Content != "" {
				a.Content.OfString = openai.String(m.Content)
			}
			for _, tc := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID: tc.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
							Name: tc.Name, Arguments: string(tc.Arguments),
						},
					},
				})
			}
			p.Messages = append(p.Messages, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		default:
			return p, badRequest("unknown message role %q", string(m.Role))
		}
	}
	for _, t := range req.Tools {
		schema, err := toolSchema(t)
		if err != nil {
			return p, err
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: t.Name, Description: openai.String(t.Description), Parameters: schema,
		}))
	}
	if len(req.Tools) > 0 {
		switch req.ToolChoice.Mode {
		case "", ToolChoiceAuto:
			p.ToolChoice.OfAuto = openai.String("auto")
		case ToolChoiceRequired:
			p.ToolChoice.OfAuto = openai.String("required")
		case ToolChoiceTool:
			p.ToolChoice = openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: req.ToolChoice.Name})
		default:
			return p, badRequest("unknown tool choice %q", req.ToolChoice.Mode)
		}
	}
	// OpenAI's own newer models take max_completion_tokens only; compatible servers (Ollama,
	// vLLM, DeepSeek) know max_tokens.
	if strings.HasPrefix(c.cfg.BaseURL, OpenAIBaseURL) {
		p.MaxCompletionTokens = openai.Int(maxTokens(req))
	} else {
		p.MaxTokens = openai.Int(maxTokens(req))
	}
	if req.Temperature != nil {
		p.Temperature = openai.Float(*req.Temperature)
	}
	if c.cfg.Streaming {
		p.StreamOptions.IncludeUsage = openai.Bool(true)
	}
	return p, nil
}

func (c *openAIClient) once(ctx context.Context, p openai.ChatCompletionNewParams) (Response, error) {
	out, err := c.sdk.Chat.Completions.New(ctx, p)
	if err != nil {
		return Response{}, err
	}
	resp := Response{Model: out.Model, Usage: Usage{InputTokens: int(out.Usage.PromptTokens), OutputTokens: int(out.Usage.CompletionTokens)}}
	if len(out.Choices) == 0 {
		return resp, errors.New("the answer has no choices")
	}
	ch := out.Choices[0]
	resp.Text = ch.Message.Content
	resp.StopReason = ch.FinishReason
	for _, tc := range ch.Message.ToolCalls {
		resp.ToolCalls = append(resp.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments)})
	}
	return resp, nil
}

// stream reads chat.completion.chunk events: text deltas concatenate, tool calls assemble by
// index (name and id from their first chunk, arguments from every chunk, raw), and the last
// chunk carries usage.
func (c *openAIClient) stream(ctx context.Context, p openai.ChatCompletionNewParams) (Response, error) {
	s := c.sdk.Chat.Completions.NewStreaming(ctx, p)
	defer s.Close()
	var resp Response
	var text strings.Builder
	calls := map[int64]*ToolCall{}
	args := map[int64]*strings.Builder{}
	done := false
	for s.Next() {
		ch := s.Current()
		if ch.Model != "" {
			resp.Model = ch.Model
		}
		if ch.Usage.PromptTokens > 0 || ch.Usage.CompletionTokens > 0 {
			resp.Usage = Usage{InputTokens: int(ch.Usage.PromptTokens), OutputTokens: int(ch.Usage.CompletionTokens)}
		}
		for _, choice := range ch.Choices {
			if choice.Index != 0 {
				continue
			}
			text.WriteString(choice.Delta.Content)
			for _, d := range choice.Delta.ToolCalls {
				tc := calls[d.Index]
				if tc == nil {
					tc = &ToolCall{}
					calls[d.Index] = tc
					args[d.Index] = &strings.Builder{}
				}
				if d.ID != "" {
					tc.ID = d.ID
				}
				if d.Function.Name != "" {
					tc.Name = d.Function.Name
				}
				args[d.Index].WriteString(d.Function.Arguments)
			}
			if choice.FinishReason != "" {
				resp.StopReason = choice.FinishReason
				done = true
			}
		}
	}
	resp.Text = text.String()
	idx := make([]int64, 0, len(calls))
	for i := range calls {
		idx = append(idx, i)
	}
	sort.Slice(idx, func(a, b int) bool { return idx[a] < idx[b] })
	for _, i := range idx {
		tc := *calls[i]
		tc.Arguments = json.RawMessage(args[i].String())
		resp.ToolCalls = append(resp.ToolCalls, tc)
	}
	if err := s.Err(); err != nil {
		var se *ssestream.StreamError
		if errors.As(err, &se) {
			noteStreamError(ctx, se.Event.Data)
		}
		return resp, err
	}
	if !done {
		return resp, errors.New("the stream ended before the answer was complete")
	}
	return resp, nil
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
