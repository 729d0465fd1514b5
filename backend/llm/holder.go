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

// Stamp fingerprints what a client is built from (the settings and the key file as stored),
// cheaply: a different stamp means the client must be built again; "" means it could not be
// read, and changes nothing.
type Stamp func() string

// Holder keeps the current client and rebuilds it on Reload (wire calls Reload when the LLM
// settings or the key change in this process) or, with Watch, when the stamp changes: another
// process (`engram llm set`, `engram llm key set` while the desktop app or `engram serve`
// runs) changed the settings or the key. Safe for concurrent use.
type Holder struct {
	build Builder
	stamp Stamp

	mu     sync.RWMutex
	client Client
	err    error
	built  string // the stamp the client was built at
	// watchCtx is what a rebuild Current starts runs under (the process's).
	watchCtx context.Context
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
	stamp := ""
	if h.stamp != nil {
		stamp = h.stamp()
	}
	c, err := h.build(ctx)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.client, h.err, h.built = c, err, stamp
	if err == nil && c == nil {
		h.err = ErrNotConfigured()
	}
	return h.err
}

// Watch makes Current build the client again when stamp differs from the one it was built
// at. Call it before sharing the holder. Without it, a long-running process kept the client
// it started with: a model set up from the CLI while the app ran was never used by it (its
// extraction planned offline, its organizer ran without the model) until it restarted.
func (h *Holder) Watch(ctx context.Context, stamp Stamp) {
	h.stamp = stamp
	h.watchCtx = ctx
}

// Current returns the client, or why there is none.
func (h *Holder) Current() (Client, error) {
	if h == nil {
		return nil, ErrNotConfigured()
	}
	if h.stamp != nil {
		h.mu.RLock()
		built := h.built
		h.mu.RUnlock()
		// "" is a stamp that could not be read (the index busy being repaired): no reason to
		// rebuild a working client into a failing one.
		if now := h.stamp(); now != "" && now != built {
			_ = h.Reload(h.watchCtx)
		}
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
