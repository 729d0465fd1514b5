//go:build !unix

package organizer

import (
	"fmt"
	"os"
	"sync"
)

// runLock without flock: one run at a time within this process only. Engram's supported
// desktop target is Linux; this keeps other builds compiling (as memory's lock does).
type runLock struct {
	f  *os.File
	mu sync.Mutex
	on bool
}

func openRunLock(path string) (*runLock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("organizer: unable to open lock file: %w", err)
	}
	return &runLock{f: f}, nil
}

func (l *runLock) tryLock() (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.on {
		return false, nil
	}
	l.on = true
	return true, nil
}

func (l *runLock) unlock() {
	l.mu.Lock()
	l.on = false
	l.mu.Unlock()
}

func (l *runLock) close() error { return l.f.Close() }
