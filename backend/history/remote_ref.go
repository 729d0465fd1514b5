package history

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	ours, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("history: unable to move the remote's branch: %w", err)
	}
	// stillOurs: the path still names the lock this process made. Renames and removals go by
	// path, so one that named another's lock (a machine that took ours for abandoned) would
	// move or remove that one.
	stillOurs := func() bool {
		now, err := os.Lstat(lock)
		return err == nil && os.SameFile(ours, now)
	}
	done := false
	defer func() {
		if !done { // removed while its flock is held, so nobody takes it for abandoned meanwhile
			if stillOurs() {
				_ = os.Remove(lock)
			}
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
	if lockStageHook != nil {
		lockStageHook("written", lock)
	}
	if !stillOurs() {
		return lockedError(lock)
	}
	if err := os.Rename(lock, path); err != nil {
		return fmt.Errorf("history: unable to move the remote's branch: %w", err)
	}
	done = true
	if err := syncPath(filepath.Dir(path)); err != nil {
		f.Close()
		return fmt.Errorf("history: unable to move the remote's branch: %w", err)
	}
	return f.Close()
}

// lockStageHook, for tests, runs at three moments of a branch move: "taken" (the lock file is
// made, its flock not yet held), "marked" (held and marked) and "written" (the new value is in
// it, not yet renamed).
var lockStageHook func(stage, lock string)

func lockedError(lock string) error {
	return &Error{Code: CodeRemoteLocked, Args: map[string]any{"Path": lock},
		msg: "history: the remote's branch is locked by another process (" + lock + ")"}
}

// flockState is what an attempt at an exclusive flock found.
type flockState int

const (
	flockHeld flockState = iota // taken
	flockBusy                   // another open file holds it
	flockNone                   // the file system (or system) has no flock
)

// flockWait bounds how long a new lock waits for its flock: another process holds it only
// while it judges whether the file was abandoned (removeAbandoned), a few reads.
const flockWait = 2 * time.Second

// holdFlock takes the flock of a lock file this process just made, waiting for one that
// removeAbandoned holds meanwhile. Before this, a lock whose flock was busy at that moment was
// marked anyway without one, and the next sync took the live lock for a killed one's.
func holdFlock(f *os.File) bool {
	for deadline := time.Now().Add(flockWait); ; {
		switch tryFlock(f) {
		case flockHeld, flockNone:
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// thisHost names this machine in a lock's mark: a flock says whether a lock's holder lives only
// on the machine that took it (on a shared folder another machine's flocks may not be seen).
func thisHost() string {
	h, err := os.Hostname()
	if err != nil || h == "" || strings.ContainsAny(h, " \n") {
		return "?"
	}
	return h
}

// lockMark begins a branch lock Engram holds until it writes the branch's value into it.
const lockMark = "engram-sync "

// lockGrace is how old a branch lock nobody holds an flock on must be to count as abandoned,
// unless this machine's Engram marked it (lockMark and this host): Engram holds an flock on its
// lock while it lives and the kernel releases it however the process ends, so such a lock
// whose flock is free is abandoned at once; git takes no flock but holds its lock for
// milliseconds. Another machine's mark waits foreignGrace: its flock may not reach this one (a
// shared folder over sshfs or SMB), and its holder may be slow to write through the network.
// A lock whose flock is held is never taken.
const (
	lockGrace    = 5 * time.Second
	foreignGrace = time.Minute
)

// takeBranchLock makes the lock file exclusively, marks it as Engram's and holds an flock on it
// while the branch moves. A lock left behind (abandoned) is removed and made again, once; a
// live one refuses with history_remote_locked naming the file.
func takeBranchLock(lock string) (*os.File, error) {
	for attempt := 0; ; attempt++ {
		f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			if lockStageHook != nil {
				lockStageHook("taken", lock)
			}
			// Marked only once the flock is held (a file system without flock still gets the
			// lock file, as git would): unmarked, a lock is young and left alone meanwhile.
			if !holdFlock(f) {
				f.Close()
				_ = os.Remove(lock)
				return nil, lockedError(lock)
			}
			if _, err := f.WriteString(lockMark + thisHost() + " " + strconv.Itoa(os.Getpid()) + "\n"); err != nil {
				f.Close()
				_ = os.Remove(lock)
				return nil, fmt.Errorf("history: unable to lock the remote's branch: %w", err)
			}
			if lockStageHook != nil {
				lockStageHook("marked", lock)
			}
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("history: unable to lock the remote's branch: %w", err)
		}
		if attempt > 0 || !removeAbandoned(lock) {
			return nil, lockedError(lock)
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
	flock := tryFlock(f)
	if flock == flockBusy {
		return false // a live Engram process holds it
	}
	held, err := f.Stat()
	if err != nil {
		return false
	}
	head := make([]byte, 256)
	n, _ := f.ReadAt(head, 0)
	age := time.Since(held.ModTime())
	switch mark := string(head[:n]); {
	case flock == flockHeld && strings.HasPrefix(mark, lockMark+thisHost()+" "):
		// this machine's Engram, and the kernel let go of its flock: killed
	case strings.HasPrefix(mark, lockMark):
		if age < foreignGrace { // another machine's, or one whose flock this system cannot see
			return false
		}
	case age < lockGrace: // git's
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

// dropRemoteRefs removes the branches fetched from the remote (refs/remotes/origin/*) before
// another remote takes its place, and before the config names it, so no kill in between leaves
// them under the new name. They stayed: the old remote's main, taken for the new one's, made a
// project's repository without a main look like a memory remote already in step, and the next
// sync pushed every memory into it as its main branch.
func dropRemoteRefs(repo *git.Repository) error {
	refs, err := repo.References()
	if err != nil {
		return fmt.Errorf("history: unable to list the remote's branches: %w", err)
	}
	var names []plumbing.ReferenceName
	prefix := "refs/remotes/" + RemoteName + "/"
	_ = refs.ForEach(func(ref *plumbing.Reference) error {
		if strings.HasPrefix(ref.Name().String(), prefix) {
			names = append(names, ref.Name())
		}
		return nil
	})
	for _, n := range names {
		if err := repo.Storer.RemoveReference(n); err != nil {
			return fmt.Errorf("history: unable to forget branch %s of the previous remote: %w", n.Short(), err)
		}
	}
	return nil
}
