package history

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// moveRemoteBranch moves a local remote's branch from cur (zero: it had none) to next the way
// git itself does: under "<branch>.lock", made exclusively, the value is checked again, written
// into the lock file and renamed over the branch. go-git's CheckAndSetReference truncates the
// branch file and then writes it; a process killed between the two left the remote — another
// machine's sync target on a shared folder or a USB disk — with an empty branch that git
// refuses to read. A git process writing the same branch at the same time holds the same lock.
func moveRemoteBranch(remote *git.Repository, dir string, cur, next plumbing.Hash) error {
	gitDir := localGitDir(dir)
	name := plumbing.NewBranchReferenceName(Branch.Short())
	path := filepath.Join(gitDir, filepath.FromSlash(name.String()))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("history: unable to move the remote's branch: %w", err)
	}
	lock := path + ".lock"
	f, err := takeBranchLock(lock)
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done { // removed while its flock is held, so nobody takes it for abandoned meanwhile
			_ = os.Remove(lock)
			f.Close()
		}
	}()
	// Under the lock, the branch is where the fetch saw it or another machine moved it since.
	if branchOf(remote) != cur {
		return errRemoteMoved
	}
	// The lock said who holds it (lockMark); it now holds the branch's next value, whole.
	if err := f.Truncate(0); err != nil {
		return fmt.Errorf("history: unable to move the remote's branch: %w", err)
	}
	if _, err := f.WriteAt([]byte(next.String()+"\n"), 0); err != nil {
		return fmt.Errorf("history: unable to move the remote's branch: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("history: unable to move the remote's branch: %w", err)
	}
	if err := os.Rename(lock, path); err != nil {
		return fmt.Errorf("history: unable to move the remote's branch: %w", err)
	}
	done = true
	return f.Close()
}

// lockMark begins a branch lock Engram holds until it writes the branch's value into it.
const lockMark = "engram-sync "

// lockGrace is how old a branch lock nobody holds an flock on must be to count as abandoned,
// unless it is marked as Engram's (lockMark): Engram holds an flock on its lock while it lives
// and the kernel releases it however the process ends, so a marked lock whose flock is free is
// abandoned at once; git takes no flock but holds its lock for milliseconds. A lock whose flock
// is held is never taken.
const lockGrace = 5 * time.Second

// takeBranchLock makes the lock file exclusively, marks it as Engram's and holds an flock on it
// while the branch moves. A lock left behind (abandoned) is removed and made again, once; a
// live one refuses with history_remote_locked naming the file.
func takeBranchLock(lock string) (*os.File, error) {
	for attempt := 0; ; attempt++ {
		f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			// A file system without flock still gets the lock file, as git would.
			_ = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			if _, err := f.WriteString(lockMark + strconv.Itoa(os.Getpid()) + "\n"); err != nil {
				f.Close()
				_ = os.Remove(lock)
				return nil, fmt.Errorf("history: unable to lock the remote's branch: %w", err)
			}
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("history: unable to lock the remote's branch: %w", err)
		}
		if attempt > 0 || !removeAbandoned(lock) {
			return nil, &Error{Code: CodeRemoteLocked, Args: map[string]any{"Path": lock},
				msg: "history: the remote's branch is locked by another process (" + lock + ")"}
		}
	}
}

// removeAbandoned removes the lock file when nobody holds it (see lockGrace), and reports
// whether it did. It decides and removes holding the old file's flock, and only while the path
// still names that file, so two processes finding the same leftover cannot remove each
// other's new lock.
func removeAbandoned(lock string) bool {
	f, err := os.Open(lock)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist) // gone meanwhile: try again
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return false // a live Engram process holds it
	}
	held, err := f.Stat()
	if err != nil {
		return false
	}
	head := make([]byte, len(lockMark))
	n, _ := f.ReadAt(head, 0)
	age := time.Since(held.ModTime())
	if string(head[:n]) != lockMark && age < lockGrace {
		return false
	}
	if now, err := os.Stat(lock); err != nil || !os.SameFile(held, now) {
		return false
	}
	return os.Remove(lock) == nil
}

// localGitDir is a local remote's git folder: the folder itself when bare, else its .git.
func localGitDir(dir string) string {
	if info, err := os.Stat(filepath.Join(dir, ".git")); err == nil && info.IsDir() {
		return filepath.Join(dir, ".git")
	}
	return dir
}
