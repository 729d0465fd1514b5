package desktop

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// paintMark appends the first report of each kind of paint to the start-up benchmark's file
// (Options.PaintMark): "<Unix ns> app" or "<Unix ns> shell". Later reports of a kind are
// ignored: a page reloaded by hand would otherwise move the figures.
type paintMark struct {
	path string
	mu   sync.Mutex
	seen map[string]bool
}

// paintKinds names each event's line in the file.
var paintKinds = map[string]string{PaintedEvent: "app", ShellPaintedEvent: "shell"}

func (m *paintMark) write(event string, at time.Time) error {
	kind, ok := paintKinds[event]
	if !ok {
		return fmt.Errorf("desktop: unknown paint event %q", event)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seen[kind] {
		return nil
	}
	if m.seen == nil {
		m.seen = map[string]bool{}
	}
	m.seen[kind] = true
	f, err := os.OpenFile(m.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(f, "%d %s\n", at.UnixNano(), kind); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
