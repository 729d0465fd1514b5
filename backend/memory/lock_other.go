//go:build !unix

package memory

import (
	"fmt"
	"os"
)

// fileLock without flock: in-process serialisation only. Engram's supported desktop target is
// Linux; this keeps other builds compiling.
type fileLock struct{ f *os.File }

func openLock(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to open lock file: %w", err)
	}
	return &fileLock{f: f}, nil
}

func (l *fileLock) lock() error  { return nil }
func (l *fileLock) unlock()      {}
func (l *fileLock) close() error { return l.f.Close() }
