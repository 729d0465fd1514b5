package mcp

import (
	"io"
	"log/slog"
	"time"
)

// SetDrainTimeout shortens how long a stdio session waits, after its input ended, for its calls
// and the writes of their answers; it returns the previous value.
func SetDrainTimeout(d time.Duration) time.Duration {
	old := drainTimeout
	drainTimeout = d
	return old
}

// SetSessionTimeout shortens how long an HTTP session may sit idle; it returns the previous
// value.
func SetSessionTimeout(d time.Duration) time.Duration {
	old := sessionTimeout
	sessionTimeout = d
	return old
}

// EndedBook is the book of ended HTTP sessions of home, as a new process reads it.
func EndedBook(home string) (has func(string) bool, add func(string)) {
	b := newEndedBook(home, slog.New(slog.NewTextHandler(io.Discard, nil)))
	return b.has, b.add
}

// MaxEnded is how many ended sessions are remembered.
const MaxEnded = maxEnded
