//go:build unix

package memory

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// fileLock serialises writers across processes (desktop app, engram mcp, the CLI) on one home.
type fileLock struct{ f *os.File }

func openLock(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.EROFS) {
		// A read-only home: nothing can be written there, but reading it must not fail for
		// want of a lock file (flock works on a read-only descriptor).
		if f, err = os.Open(path); errors.Is(err, os.ErrNotExist) {
			f, err = os.Open(os.DevNull)
		}
	}
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

// tryLock takes the lock without waiting; ok is false when another holder has it.
func (l *fileLock) tryLock() (ok bool, err error) {
	for {
		err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		}
		return false, fmt.Errorf("memory: unable to lock: %w", err)
	}
}

func (l *fileLock) unlock() { _ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN) }

func (l *fileLock) close() error { return l.f.Close() }
