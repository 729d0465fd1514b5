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
			if err == nil || p.Offline == nil || errors.Is(ctx.Err(), context.Canceled) {
				return out, err // planned, or the run itself was called off
			}
			// The model failed (down, a refused key, a limit, out of time): the turn is
			// planned offline, so what the person said is not lost with the model's answer.
			// The offline extractor takes milliseconds; the model may have used the deadline.
			off, oerr := p.Offline.Plan(context.WithoutCancel(ctx), in)
			if oerr != nil {
				return out, err
			}
			off.ModelError = err
			off.InputTokens, off.OutputTokens = out.InputTokens, out.OutputTokens
			return off, nil
		case err != nil && !notConfigured(err):
			return Outcome{}, fmt.Errorf("extraction: the configured model cannot be used: %w", err)
		}
	}
	return p.Offline.Plan(ctx, in)
}

func notConfigured(err error) bool {
	c, ok := coded.As(err)
	return ok && c.ErrorCode() == llm.CodeNotConfigured
}
