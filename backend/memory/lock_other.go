//go:build !unix

package memory

import (
	"fmt"
	"os"
	"sync"
)

// fileLock without flock: in-process serialisation only. Engram's supported desktop target is
// Linux; this keeps other builds compiling. lock does not wait (the store's mutex serialises
// its writers); tryLock still refuses a second holder in this process.
type fileLock struct {
	f  *os.File
	mu sync.Mutex
	on bool
}

func openLock(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to open lock file: %w", err)
	}
	return &fileLock{f: f}, nil
}

func (l *fileLock) lock() error { return nil }

func (l *fileLock) tryLock() (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.on {
		return false, nil
	}
	l.on = true
	return true, nil
}

func (l *fileLock) unlock() {
	l.mu.Lock()
	l.on = false
	l.mu.Unlock()
}

func (l *fileLock) close() error { return l.f.Close() }
