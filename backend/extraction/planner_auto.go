package extraction

import (
	"context"
	"errors"
	"fmt"
	"time"

	"engram/backend/coded"
	"engram/backend/llm"
)

// ModelOrOffline plans with the model the source names when one is configured, and with the
// offline extractor otherwise. It asks the source on every run, so a fresh home learns out of
// the box and switches to the model as soon as a person sets one up, with no restart.
type ModelOrOffline struct {
	// Model gives the configured client; nil or "not configured" plans offline.
	Model llm.Source
	// Offline is the rule-based extractor.
	Offline Planner
	// Timeout bounds one model planning step (0 is ExtractionTimeout).
	Timeout time.Duration
}

// Plan picks the planner for this run. A model that is configured but cannot be built (a
// damaged key file, a bad base URL) fails the run with that error instead of silently
// planning offline: the person set a model up and must learn why it is not used.
func (p ModelOrOffline) Plan(ctx context.Context, in Input) (Outcome, error) {
	if p.Model != nil {
		c, err := p.Model()
		switch {
		case err == nil && c != nil:
			out, err := NewModelPlanner(c, p.Timeout).Plan(ctx, in)
			failed := err
			if err == nil {
				failed = noPlan(out)
			}
			if failed == nil || p.Offline == nil || errors.Is(ctx.Err(), context.Canceled) {
				return out, err // planned, or the run itself was called off
			}
			// The model failed (down, a refused key, a limit, out of time), or answered twice
			// without a plan that can be read (text instead of the tool call, arguments that do
			// not decode): the turn is planned offline, so what the person said ("remember …")
			// is not lost with the model's answer. The hook does not send a turn again. The
			// offline extractor takes milliseconds; the model may have used the deadline.
			off, oerr := p.Offline.Plan(context.WithoutCancel(ctx), in)
			if oerr != nil {
				return out, err
			}
			off.ModelError = failed
			off.InputTokens, off.OutputTokens = out.InputTokens, out.OutputTokens
			off.Retried, off.DecodeError = out.Retried, out.DecodeError
			return off, nil
		case err != nil && !notConfigured(err):
			return Outcome{}, fmt.Errorf("extraction: the configured model cannot be used: %w", err)
		}
	}
	return p.Offline.Plan(ctx, in)
}

// Codes of a model that answered without a plan that can be read, even when asked again: the
// run says so in words when the offline extractor planned the turn instead.
const (
	CodeModelNoPlan  = "extraction_model_no_plan"
	CodeModelBadPlan = "extraction_model_bad_plan"
	CodeModelCutPlan = "extraction_model_cut_plan"
	CodeModelRefused = "extraction_model_refused"
)

// noPlan is why the model's outcome holds no plan of the model's own (nil when it does): it
// never called SubmitMemoryPlan, or its arguments could not be read, after the retry.
func noPlan(out Outcome) error {
	switch out.NoopReason {
	case NoopNoToolCall:
		return codeErr(CodeModelNoPlan, nil, "the model answered without calling %s, even when asked again", "SubmitMemoryPlan")
	case NoopMalformed:
		return codeErr(CodeModelBadPlan, nil, "the model's plan could not be read, even when asked again: %s", out.DecodeError)
	case NoopRefused:
		return codeErr(CodeModelRefused, nil, "the model declined to plan this turn")
	case NoopCut:
		return codeErr(CodeModelCutPlan, map[string]any{"Max": PlanMaxTokens},
			"the model's answer was cut at its limit of %d tokens, even when asked for a shorter plan", PlanMaxTokens)
	}
	return nil
}

func notConfigured(err error) bool {
	c, ok := coded.As(err)
	return ok && c.ErrorCode() == llm.CodeNotConfigured
}
