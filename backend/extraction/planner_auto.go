package extraction

import (
	"context"
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
			return NewModelPlanner(c, p.Timeout).Plan(ctx, in)
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
