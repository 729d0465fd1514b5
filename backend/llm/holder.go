package llm

import (
	"context"
	"sync"
)

// Source returns the client to use now, or an error coded llm_not_configured (or
// llm_invalid_config) while none can be built. Services that call a model (extraction, the
// organizer) take a Source by constructor injection and ask it at each call, so a change of
// settings or key takes effect without rebuilding them.
type Source func() (Client, error)

// Builder makes the client from the current settings and key (wire supplies it).
type Builder func(ctx context.Context) (Client, error)

// Holder keeps the current client and rebuilds it on Reload (wire calls Reload when the LLM
// settings or the key change). Safe for concurrent use.
type Holder struct {
	build Builder

	mu     sync.RWMutex
	client Client
	err    error
}

// NewHolder returns a holder with nothing built yet: call Reload.
func NewHolder(build Builder) *Holder {
	return &Holder{build: build, err: ErrNotConfigured()}
}

// Reload builds the client again and returns the build's error (also what Current answers
// until the next Reload).
func (h *Holder) Reload(ctx context.Context) error {
	if h == nil {
		return ErrNotConfigured()
	}
	c, err := h.build(ctx)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.client, h.err = c, err
	if err == nil && c == nil {
		h.err = ErrNotConfigured()
	}
	return h.err
}

// Current returns the client, or why there is none.
func (h *Holder) Current() (Client, error) {
	if h == nil {
		return nil, ErrNotConfigured()
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.err != nil {
		return nil, h.err
	}
	return h.client, nil
}

// Source is Current as a Source.
func (h *Holder) Source() Source { return h.Current }
