//go:build unix

package organizer

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// runLock keeps one organizer run at a time on a home, across processes (the desktop app,
// engram serve, the CLI): an advisory flock on memory/.organizer.lock, taken without waiting.
type runLock struct{ f *os.File }

func openRunLock(path string) (*runLock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.EROFS) {
		// A read-only home: no run can write there, but reading it must not fail for want of
		// a lock file (flock works on a read-only descriptor).
		if f, err = os.Open(path); errors.Is(err, os.ErrNotExist) {
			f, err = os.Open(os.DevNull)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("organizer: unable to open lock file: %w", err)
	}
	return &runLock{f: f}, nil
}

// tryLock takes the lock if no other holder has it; ok is false when it is held elsewhere.
func (l *runLock) tryLock() (ok bool, err error) {
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
		return false, fmt.Errorf("organizer: unable to lock: %w", err)
	}
}

func (l *runLock) unlock() { _ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN) }

func (l *runLock) close() error { return l.f.Close() }
