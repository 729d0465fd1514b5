package organizer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"engram/backend/coded"
	"engram/backend/llm"
)

// LLMProvider returns the model the organizer uses. It is called at the start of every run,
// so a settings change (a model configured, changed or removed) takes effect at the next run.
// (nil, nil), or an error coded llm.CodeNotConfigured, means no model: the offline planner and
// structural groups run. Any other error also falls back offline, recorded in the run report.
type LLMProvider func() (llm.Client, error)

// Time limits of one model call (including the client's own retries) when a planner or
// clusterer leaves its Timeout zero.
const (
	DefaultTopicsTimeout = 90 * time.Second
	DefaultPlanTimeout   = 120 * time.Second
)

// modelName is how a run records the model it used: "provider/model".
func modelName(c llm.Client) string {
	if c.Model() == "" {
		return c.Provider()
	}
	return c.Provider() + "/" + c.Model()
}

// chooseModels picks the run's clusterer and planner: the ones passed in Options, else the
// configured model's, else the offline ones. A provider that fails is recorded in the report.
func (s *Service) chooseModels(r *runner) {
	r.planner, r.clusterer = s.planner, s.clusterer
	if s.llm != nil && (r.planner == nil || r.clusterer == nil) {
		client, err := s.resolveLLM()
		switch {
		case err != nil:
			r.report.LLMFallback = runErrorOf(err)
			s.log.Warn("organizer: the model is unavailable; planning offline", "run", r.id, "err", err)
		case client != nil:
			r.report.Model = modelName(client)
			if r.clusterer == nil {
				r.clusterer = &LLMClusterer{Client: client}
			}
			if r.planner == nil {
				r.planner = &LLMPlanner{Client: client}
				r.fallback = OfflinePlanner{}
			}
		}
	}
	if r.planner == nil {
		r.planner = OfflinePlanner{}
	}
	r.report.Planner = r.planner.Name()
	r.report.Clusterer = StructuralClusterer{}.Name()
	if r.clusterer != nil {
		r.report.Clusterer = r.clusterer.Name()
	}
}

// resolveLLM asks the provider for a client; "not configured" is no client and no error. A
// panicking provider is an unavailable model, never a crashed run.
func (s *Service) resolveLLM() (c llm.Client, err error) {
	defer func() {
		if p := recover(); p != nil {
			c, err = nil, codeErr(CodeLLMUnavailable, map[string]any{"Detail": fmt.Sprint(p)}, "unable to get the model: %v", p)
		}
	}()
	c, err = s.llm()
	if err != nil {
		if ce, ok := coded.As(err); ok && ce.ErrorCode() == llm.CodeNotConfigured {
			return nil, nil
		}
		return nil, wrapErr(CodeLLMUnavailable, err, "unable to get the model")
	}
	return c, nil
}

// toolCall is one forced tool call: the request, the tool it must call and the reminder sent
// once when the model answers without it.
type toolCall struct {
	purpose string
	system  string
	prompt  string
	tool    llm.Tool
	retry   string
	timeout time.Duration
	tokens  int
}

// call asks the model to call tc.tool. When it answers without that tool, it is asked once
// more with only that tool, forced; a second miss is CodeLLMNoToolCall. Usage covers every
// call that answered, also on error.
func (tc toolCall) call(ctx context.Context, c llm.Client) (json.RawMessage, Usage, error) {
	var use Usage
	prompt := tc.prompt
	// The first call leaves the choice to the model (every OpenAI-compatible server takes
	// "auto"; not all take a forced tool); the retry forces the one tool.
	choice := llm.ToolChoice{Mode: llm.ToolChoiceAuto}
	cut := false
	for attempt := 0; attempt < 2; attempt++ {
		resp, err := tc.complete(ctx, c, prompt, choice)
		use.InputTokens += max(resp.Usage.InputTokens, 0)
		use.OutputTokens += max(resp.Usage.OutputTokens, 0)
		if err != nil {
			return nil, use, err
		}
		cut = resp.StopReason == "length" || resp.StopReason == "max_tokens"
		for _, call := range resp.ToolCalls {
			if call.Name == tc.tool.Name {
				if cut && (!json.Valid(call.Arguments) || !strings.HasPrefix(strings.TrimSpace(string(call.Arguments)), "{")) {
					// Asked again, the model writes the same long answer and is cut again.
					return nil, use, tc.cutErr()
				}
				return call.Arguments, use, nil
			}
		}
		prompt = tc.prompt + "\n\n" + tc.retry
		choice = llm.ToolChoice{Mode: llm.ToolChoiceTool, Name: tc.tool.Name}
	}
	if cut {
		return nil, use, tc.cutErr()
	}
	return nil, use, codeErr(CodeLLMNoToolCall, map[string]any{"Tool": tc.tool.Name},
		"the model did not call %s, even when asked again", tc.tool.Name)
}

// cutErr says the answer was cut at the call's token limit before its tool call was whole.
func (tc toolCall) cutErr() error {
	return codeErr(CodeLLMCut, map[string]any{"Tool": tc.tool.Name, "Max": tc.tokens},
		"the answer was cut at its limit of %d tokens before %s was complete", tc.tokens, tc.tool.Name)
}

func (tc toolCall) complete(ctx context.Context, c llm.Client, prompt string, choice llm.ToolChoice) (llm.Response, error) {
	// The deadline is also set on ctx so that a call stuck below the client still ends.
	cctx, cancel := context.WithTimeout(ctx, tc.timeout)
	defer cancel()
	resp, err := c.Complete(cctx, llm.Request{Purpose: tc.purpose, System: tc.system,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt}}, Tools: []llm.Tool{tc.tool}, ToolChoice: choice,
		MaxTokens: tc.tokens, Timeout: tc.timeout})
	if err == nil {
		return resp, nil
	}
	switch {
	case ctx.Err() != nil:
		return resp, ctx.Err() // the run was aborted: not the model's failure
	case errors.Is(err, context.DeadlineExceeded) || cctx.Err() != nil:
		return resp, codeErr(CodeLLMTimeout, map[string]any{"Seconds": int(tc.timeout.Seconds())},
			"the model did not answer within %s", tc.timeout)
	}
	return resp, llmFailure(err)
}

// llmFailure is a model call's failure as the run records it: the model client's own coded
// failure (llm_unreachable, llm_auth_failed, llm_rate_limited, …) keeps its code and
// arguments, so the report says in the person's language what went wrong and where, as
// extraction's runs do — it said "The model could not answer: llm: unable to reach …: Post
// …: dial tcp …", the Go error chain; anything else is CodeLLMFailed with its text.
func llmFailure(err error) *Error {
	if ce, ok := coded.As(err); ok && strings.HasPrefix(ce.ErrorCode(), "llm_") {
		args := map[string]any{}
		for k, v := range ce.ErrorArgs() {
			args[k] = v
		}
		if _, ok := args["Detail"]; !ok {
			args["Detail"] = err.Error()
		}
		return &Error{Code: ce.ErrorCode(), Args: args, Msg: "unable to get an answer from the model", Err: err}
	}
	return wrapErr(CodeLLMFailed, err, "unable to get an answer from the model")
}

// decodeStrict decodes a model's tool arguments into v, refusing unknown fields, trailing
// data and anything that is not one JSON object.
func decodeStrict(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the arguments")
	}
	return nil
}

func badArgs(tool string, err error) error {
	return codeErr(CodeLLMBadArguments, map[string]any{"Tool": tool, "Detail": clip(err.Error(), 200)},
		"unable to use the arguments of %s: %v", tool, err)
}

// clean makes model text safe to show: control characters (newlines kept) removed, spaces
// trimmed, at most n runes.
func clean(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\u202e' || r == '\u202d' {
			return -1
		}
		return r
	}, s)
	return clip(strings.TrimSpace(s), n)
}

// clip cuts s to at most n runes, marking a cut with "…".
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// schema turns a Go value into a JSON Schema document for a tool.
func schema(v map[string]any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err) // a literal map of strings and numbers always marshals
	}
	return raw
}
