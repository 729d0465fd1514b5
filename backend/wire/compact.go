package wire

import (
	"context"
	"log/slog"
	"sync"

	"engram/backend/memory"
)

// compactor folds long sessions in the background for long-running processes (desktop,
// serve): the model's summary of 60 old messages may take seconds, which an agent's
// extraction.request (or its Stop hook) must not wait for. One worker, one session at a time;
// a session asked for twice while queued is folded once. One-shot CLI processes never start
// it, so their records compact in place as before.
type compactor struct {
	store     *memory.Store
	summarise memory.Summariser
	log       *slog.Logger

	mu      sync.Mutex
	running bool
	pending map[memory.SessionKey]bool
	queue   []memory.SessionKey
	wake    chan struct{}
}

func newCompactor(st *memory.Store, summarise memory.Summariser, log *slog.Logger) *compactor {
	return &compactor{store: st, summarise: summarise, log: log, pending: map[memory.SessionKey]bool{},
		wake: make(chan struct{}, 1)}
}

// Active reports whether the worker runs, so a recording caller may defer compaction to it.
func (c *compactor) Active() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running
}

// Enqueue asks for the session to be compacted soon.
func (c *compactor) Enqueue(agent, id string) {
	k := memory.SessionKey{Agent: agent, ID: id}
	c.mu.Lock()
	if !c.pending[k] {
		c.pending[k] = true
		c.queue = append(c.queue, k)
	}
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// start marks the worker active before it runs, so a record made right after Background
// already defers to it.
func (c *compactor) start() {
	c.mu.Lock()
	c.running = true
	c.mu.Unlock()
}

// run works the queue until ctx ends. A session still queued at shutdown stays over the
// bound until its next record, which compacts it again (or in place past the deferred cap).
func (c *compactor) run(ctx context.Context) {
	defer func() {
		c.mu.Lock()
		c.running = false
		c.mu.Unlock()
	}()
	for {
		c.mu.Lock()
		var k memory.SessionKey
		next := len(c.queue) > 0
		if next {
			k, c.queue = c.queue[0], c.queue[1:]
			delete(c.pending, k)
		}
		c.mu.Unlock()
		if !next {
			select {
			case <-ctx.Done():
				return
			case <-c.wake:
				continue
			}
		}
		if _, err := c.store.CompactSession(ctx, k.Agent, k.ID, c.summarise); err != nil && ctx.Err() == nil {
			c.log.Warn("engram: unable to compact a session", "agent", k.Agent, "session", k.ID, "err", err)
		}
	}
}
