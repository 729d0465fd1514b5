package history

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) && staleLock(lock) {
		// Left by a process killed while it held it: a push holds it for milliseconds.
		_ = os.Remove(lock)
		f, err = os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	}
	if errors.Is(err, fs.ErrExist) {
		return &Error{Code: CodeRemoteLocked, Args: map[string]any{"Path": lock},
			msg: "history: the remote's branch is locked by another process (" + lock + ")"}
	}
	if err != nil {
		return fmt.Errorf("history: unable to lock the remote's branch: %w", err)
	}
	done := false
	defer func() {
		if !done {
			f.Close()
			_ = os.Remove(lock)
		}
	}()
	// Under the lock, the branch is where the fetch saw it or another machine moved it since.
	if branchOf(remote) != cur {
		return errRemoteMoved
	}
	if _, err := f.WriteString(next.String() + "\n"); err != nil {
		return fmt.Errorf("history: unable to move the remote's branch: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("history: unable to move the remote's branch: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("history: unable to move the remote's branch: %w", err)
	}
	done = true
	if err := os.Rename(lock, path); err != nil {
		_ = os.Remove(lock)
		return fmt.Errorf("history: unable to move the remote's branch: %w", err)
	}
	return nil
}

// staleLockAge is how old a branch lock must be to be taken for one a killed process left.
const staleLockAge = 10 * time.Minute

func staleLock(path string) bool {
	info, err := os.Stat(path)
	return err == nil && time.Since(info.ModTime()) > staleLockAge
}

// localGitDir is a local remote's git folder: the folder itself when bare, else its .git.
func localGitDir(dir string) string {
	if info, err := os.Stat(filepath.Join(dir, ".git")); err == nil && info.IsDir() {
		return filepath.Join(dir, ".git")
	}
	return dir
}
