package desktop

import (
	"context"
	"sync"
	"testing"
	"time"
)

// recorder collects what tellWhileOpening emits, and signals each event.
type recorder struct {
	mu     sync.Mutex
	names  []string
	events chan string
}

func (r *recorder) emit(name string, _ ...any) {
	r.mu.Lock()
	r.names = append(r.names, name)
	r.mu.Unlock()
	r.events <- name
}

func TestTellWhileOpeningSaysWaitingThenOpen(t *testing.T) {
	tests := []struct {
		name   string
		ok     bool
		last   string // the last event, "" for none after the waiting ones
		closes bool   // the window's context ends instead of the open
	}{
		{name: "opened", ok: true, last: StoreOpenEvent},
		{name: "failed", ok: false},
		{name: "window closed", closes: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opened := make(chan bool, 1)
			r := &recorder{events: make(chan string, 16)}
			finished := make(chan struct{})
			go func() {
				tellWhileOpening(ctx, opened, time.Millisecond, r.emit)
				close(finished)
			}()
			// It says it waits, again and again, while the store opens.
			for i := 0; i < 2; i++ {
				if got := <-r.events; got != StoreWaitingEvent {
					t.Fatalf("event %d: %q, want %q", i, got, StoreWaitingEvent)
				}
			}
			if tt.closes {
				cancel()
			} else {
				opened <- tt.ok
			}
			// Drain waiting events emitted meanwhile until it returns.
			for {
				select {
				case <-r.events:
					continue
				case <-finished:
				}
				break
			}
			for len(r.events) > 0 {
				<-r.events
			}
			r.mu.Lock()
			defer r.mu.Unlock()
			last := r.names[len(r.names)-1]
			if tt.last != "" && last != tt.last {
				t.Fatalf("last event %q, want %q (all: %v)", last, tt.last, r.names)
			}
			if tt.last == "" && last != StoreWaitingEvent {
				t.Fatalf("an event after a failed open or a closed window: %v", r.names)
			}
		})
	}
}
