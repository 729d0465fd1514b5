package memory

// FileLock is an advisory lock on a file, shared by every Engram process on a home (the
// desktop app, engram serve, the CLI); the store's own writer lock is one. Others, such as
// the organizer's one-run-at-a-time lock, take it without waiting.
type FileLock struct{ l *fileLock }

// OpenFileLock opens (creating) the lock file at path; the lock is not taken.
func OpenFileLock(path string) (*FileLock, error) {
	l, err := openLock(path)
	if err != nil {
		return nil, err
	}
	return &FileLock{l: l}, nil
}

// TryLock takes the lock if no other holder has it; ok is false when it is held elsewhere.
func (l *FileLock) TryLock() (ok bool, err error) { return l.l.tryLock() }

// Unlock releases the lock.
func (l *FileLock) Unlock() { l.l.unlock() }

// Close releases the lock file.
func (l *FileLock) Close() error { return l.l.close() }
