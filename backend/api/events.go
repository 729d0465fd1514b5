package api

import (
	"sync"
	"time"

	"engram/backend/memory"
	"engram/backend/settings"
)

// Event names pushed to clients.
const (
	EventMemoryChanged     = "memory.changed"
	EventQuotaChanged      = "quota.changed"
	EventSettingsChanged   = "settings.changed"
	EventExtractionStatus  = "extraction.status"
	EventOrganizerProgress = "organizer.progress"
	EventRemoteChanged     = "remote.changed"
	EventEmbeddingProgress = "embedding.progress"
	EventMemoryProblems    = "memory.problems"
	EventOrganizerChanged  = "organizer.changed"
	// EventKVChanged carries {agent, keys}: keys is empty when the file changed on disk.
	EventKVChanged = "kv.changed"
	// EventGraphChanged {} follows memory changes (debounced): the knowledge graph may differ.
	EventGraphChanged = "graph.changed"
)

// graphDebounce gathers a burst of memory changes into one graph.changed.
const graphDebounce = 300 * time.Millisecond

// EventNames are every event a client may subscribe to.
var EventNames = []string{EventMemoryChanged, EventQuotaChanged, EventSettingsChanged, EventExtractionStatus,
	EventOrganizerProgress, EventRemoteChanged, EventEmbeddingProgress, EventMemoryProblems, EventOrganizerChanged, EventKVChanged,
	EventGraphChanged, EventIndexProgress}

// Hub fans service events out to every transport (Wails window, bridge connections).
type Hub struct {
	// graphTimer is armed by the first memory change of a burst; it publishes graph.changed.
	graphTimer *time.Timer
	mu         sync.Mutex
	subs       map[int]func(name string, data any)
	next       int
	// lastProgress is when each progress event last went out (PublishProgress).
	lastProgress map[string]time.Time
}

// progressEvery is the most often one kind of progress goes out. A backup reported every
// file (512 events for 500 memories, faster than a browser reads them): the bridge's send
// queue filled and it dropped the browser as a slow client while the backup succeeded.
const progressEvery = 100 * time.Millisecond

// PublishProgress publishes a progress event at most once each progressEvery per name;
// edge events (a start, a phase change, the end, a failure) always go out, so the last state
// a client sees is the real one.
func (h *Hub) PublishProgress(name string, data any, edge bool) {
	h.mu.Lock()
	now := time.Now()
	if !edge && now.Sub(h.lastProgress[name]) < progressEvery {
		h.mu.Unlock()
		return
	}
	if h.lastProgress == nil {
		h.lastProgress = map[string]time.Time{}
	}
	h.lastProgress[name] = now
	h.mu.Unlock()
	h.Publish(name, data)
}

// NewHub returns a hub wired to the store and settings.
func NewHub(store *memory.Store, st *settings.Service) *Hub {
	h := &Hub{subs: map[int]func(string, any){}}
	if store != nil {
		store.Subscribe(func(ev memory.Event) {
			switch ev.Kind {
			case "memory.changed":
				h.Publish(EventMemoryChanged, map[string]any{"ids": ev.IDs})
				h.graphChanged()
			case "quota.changed":
				h.Publish(EventQuotaChanged, map[string]any{"level": ev.Level})
			case "memory.problems":
				h.Publish(EventMemoryProblems, map[string]any{})
			case memory.EventKVChanged:
				keys := ev.Keys
				if keys == nil {
					keys = []string{}
				}
				h.Publish(EventKVChanged, map[string]any{"agent": ev.Agent, "keys": keys})
			}
		})
	}
	if st != nil {
		st.OnChange(func(s settings.Settings) { h.Publish(EventSettingsChanged, s) })
	}
	return h
}

// graphChanged schedules one graph.changed for a burst of memory changes: the graph is kept
// in step inside each write, so any memory change may have changed it.
func (h *Hub) graphChanged() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.graphTimer != nil {
		return
	}
	h.graphTimer = time.AfterFunc(graphDebounce, func() {
		h.mu.Lock()
		h.graphTimer = nil
		h.mu.Unlock()
		h.Publish(EventGraphChanged, map[string]any{})
	})
}

// Subscribe registers fn for every event; the returned function removes it.
func (h *Hub) Subscribe(fn func(name string, data any)) (cancel func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	id := h.next
	h.next++
	h.subs[id] = fn
	return func() {
		h.mu.Lock()
		delete(h.subs, id)
		h.mu.Unlock()
	}
}

// Publish sends an event to every subscriber. Subscribers must not block: transports queue.
func (h *Hub) Publish(name string, data any) {
	h.mu.Lock()
	fns := make([]func(string, any), 0, len(h.subs))
	for _, fn := range h.subs {
		fns = append(fns, fn)
	}
	h.mu.Unlock()
	for _, fn := range fns {
		fn(name, data)
	}
}
