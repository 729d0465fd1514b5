package extraction

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"engram/backend/llm"
	"engram/backend/prompts"
)

// ExtractionTimeout bounds one extraction's model calls (DESIGN §10).
const ExtractionTimeout = 45 * time.Second

// Noop reasons: why a run applied nothing.
const (
	NoopPlan        = "plan-noop"      // the planner found nothing worth remembering
	NoopNoToolCall  = "no-tool-call"   // the model never called SubmitMemoryPlan, even when asked again
	NoopMalformed   = "malformed-plan" // its arguments could not be read, even when asked again
	NoopCut         = "plan-cut"       // its answer was cut at its token limit, even when asked for a shorter one
	NoopRefused     = "model-refused"  // the model declined to answer (a refusal, a content filter)
	NoopAllRejected = "all-rejected"   // every item was refused
	// NoopRejectedByYou: every item was refused because the person rejected its memory in
	// the last 7 days; said apart from all-rejected, which reads as the extractor's failure.
	NoopRejectedByYou = "rejected-by-you"
	NoopNoPlanner     = "no-planner"      // this process has no planner
	NoopNothingLeft   = "nothing-applied" // the plan had items but none reached the store
)

// PlanMaxTokens bounds the model's answer: a plan longer than this is cut by the provider.
const PlanMaxTokens = 4096

// ModelPlanner asks a language model for the plan through one SubmitMemoryPlan call.
type ModelPlanner struct {
	client  llm.Client
	timeout time.Duration
	tool    llm.Tool
}

// NewModelPlanner returns a planner over client; timeout 0 is ExtractionTimeout.
func NewModelPlanner(client llm.Client, timeout time.Duration) *ModelPlanner {
	if timeout <= 0 {
		timeout = ExtractionTimeout
	}
	return &ModelPlanner{client: client, timeout: timeout, tool: llm.Tool{Name: prompts.SubmitMemoryPlanName,
		Description: prompts.SubmitMemoryPlanDescription, Parameters: json.RawMessage(prompts.SubmitMemoryPlanSchema)}}
}

// Tool is the SubmitMemoryPlan tool as the model is offered it.
func (p *ModelPlanner) Tool() llm.Tool { return p.tool }

// Plan asks once with the tool required; if the answer holds no readable SubmitMemoryPlan
// call it asks once more offering only that tool, and after that gives a noop outcome with
// the reason (NoopNoToolCall, NoopMalformed), which ModelOrOffline hands to the offline
// extractor so the turn is planned rather than lost. Transport failures, the timeout and a
// cancel are errors.
func (p *ModelPlanner) Plan(ctx context.Context, in Input) (Outcome, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	out := Outcome{Model: p.client.Model()}
	req := llm.Request{
		Purpose:    llm.PurposeExtraction,
		System:     prompts.ExtractionSystem,
		Messages:   []llm.Message{{Role: llm.RoleUser, Content: renderInput(in)}},
		Tools:      []llm.Tool{p.tool},
		ToolChoice: llm.ToolChoice{Mode: llm.ToolChoiceTool, Name: p.tool.Name},
		MaxTokens:  PlanMaxTokens,
		Timeout:    p.timeout,
	}
	for attempt := 0; attempt < 2; attempt++ {
		resp, err := p.client.Complete(ctx, req)
		if err != nil {
			if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) && !errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("%w: %w", context.DeadlineExceeded, err)
			}
			return out, fmt.Errorf("extraction: unable to ask the model: %w", err)
		}
		if resp.Model != "" {
			out.Model = resp.Model
		}
		out.InputTokens += resp.Usage.InputTokens
		out.OutputTokens += resp.Usage.OutputTokens
		call, plan, decodeErr := pickPlan(resp)
		if decodeErr == nil && call != nil {
			out.Plan, out.NoopReason = plan, ""
			return out, nil
		}
		if call == nil && resp.Refused() {
			// A refusal is the model's answer, not a slip: asked again it declines again, and
			// the run says it declined rather than "answered without a plan".
			out.NoopReason = NoopRefused
			break
		}
		reason := NoopNoToolCall
		if call != nil {
			reason, out.DecodeError = NoopMalformed, decodeErr.Error()
		}
		// An answer the provider cut at PlanMaxTokens is not a plan written wrong: asked again
		// only to "match the schema", the model wrote the same long plan and was cut again.
		cut := cutAnswer(resp.StopReason)
		if cut {
			reason = NoopCut
		}
		out.NoopReason = reason
		if attempt == 1 {
			break
		}
		out.Retried = true
		// Ask again with only the tool: replay the answer so the model sees what it did.
		next := append([]llm.Message{}, req.Messages...)
		if call != nil {
			why := fmt.Sprintf(prompts.ExtractionRetryBadArgs, decodeErr)
			if cut {
				why = prompts.ExtractionRetryCut
			}
			next = append(next, llm.Message{Role: llm.RoleAssistant, Content: resp.Text, ToolCalls: []llm.ToolCall{*call}},
				llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Content: why})
		} else {
			if resp.Text != "" {
				next = append(next, llm.Message{Role: llm.RoleAssistant, Content: resp.Text})
			}
			ask := prompts.ExtractionRetryNoCall
			if cut {
				ask = prompts.ExtractionRetryCut
			}
			next = append(next, llm.Message{Role: llm.RoleUser, Content: ask})
		}
		req.Messages = next
		req.Tools = []llm.Tool{p.tool}
		req.ToolChoice = llm.ToolChoice{Mode: llm.ToolChoiceTool, Name: p.tool.Name}
	}
	out.Plan = Plan{Status: PlanNoop}
	return out, nil
}

// cutAnswer reports whether a provider's stop reason says the answer was cut at its token
// limit (OpenAI-compatible "length", Anthropic "max_tokens").
func cutAnswer(stop string) bool {
	return stop == "length" || stop == "max_tokens"
}

// pickPlan finds the first SubmitMemoryPlan call and decodes it strictly; call is nil when
// the answer made none (calls to any other name do not count).
func pickPlan(resp llm.Response) (*llm.ToolCall, Plan, error) {
	for i := range resp.ToolCalls {
		c := resp.ToolCalls[i]
		if c.Name != prompts.SubmitMemoryPlanName {
			continue
		}
		plan, err := DecodePlan(c.Arguments)
		return &c, plan, err
	}
	if len(resp.ToolCalls) == 0 {
		if c, ok := textPlanCall(resp.Text); ok {
			if plan, err := DecodePlan(c.Arguments); err == nil {
				return c, plan, nil
			}
		}
	}
	return nil, Plan{}, nil
}

// MaxPlanBytes bounds the arguments of one SubmitMemoryPlan call. Far above any plan that can
// apply (8 items of at most 8 KiB bodies): one oversized item is refused by itself
// (body-too-large) rather than costing the plan's other items, as a 256 KiB bound did.
const MaxPlanBytes = 2 << 20

// DecodePlan reads SubmitMemoryPlan arguments strictly: one JSON object with only the
// schema's fields, and a known status.
func DecodePlan(raw json.RawMessage) (Plan, error) {
	var p Plan
	if len(raw) > MaxPlanBytes {
		return p, fmt.Errorf("arguments are %d bytes; at most %d are read", len(raw), MaxPlanBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Plan{}, fmt.Errorf("arguments are not a plan: %w", err)
	}
	if dec.More() {
		return Plan{}, errors.New("arguments hold more than one JSON value")
	}
	if p.Status != PlanUpdated && p.Status != PlanNoop {
		return Plan{}, fmt.Errorf("status %q is neither %q nor %q", p.Status, PlanUpdated, PlanNoop)
	}
	return p, nil
}
