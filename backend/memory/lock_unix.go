//go:build unix

package memory

import (
	"fmt"
	"os"
	"syscall"
)

// fileLock serialises writers across processes (desktop app, engram mcp, the CLI) on one home.
type fileLock struct{ f *os.File }

func openLock(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to open lock file: %w", err)
	}
	return &fileLock{f: f}, nil
}

func (l *fileLock) lock() error {
	for {
		err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			if err != nil {
				return fmt.Errorf("memory: unable to lock: %w", err)
			}
			return nil
		}
	}
}

func (l *fileLock) unlock() { _ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN) }

func (l *fileLock) close() error { return l.f.Close() }
