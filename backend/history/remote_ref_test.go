package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"engram/backend/memory"
)

// A local remote's branch moves the way git moves it: under "main.lock", renamed into place
// whole (go-git's truncating write could leave the remote with an empty branch when killed). A
// lock another process holds refuses the push with a coded error and is left alone; one a
// killed process left is taken over; a branch another machine moved after the fetch is not
// overwritten.
func TestRemoteBranchMovesUnderGitsLock(t *testing.T) {
	ctx := context.Background()
	bare := filepath.Join(t.TempDir(), "remote.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	branch := filepath.Join(bare, "refs", "heads", Branch.Short())
	lock := branch + ".lock"
	st, r := openHome(t, t.TempDir(), true)
	headOf := func() string {
		t.Helper()
		repo, err := r.open()
		if err != nil {
			t.Fatal(err)
		}
		h, err := r.head(repo)
		if err != nil || h == nil {
			t.Fatalf("head: %v %v", h, err)
		}
		return h.Hash.String()
	}
	remoteBranch := func() string {
		t.Helper()
		b, err := os.ReadFile(branch)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	write(t, st, memory.ActorUser, newMem("tea", "Drinks green tea."))
	if s, err := r.Sync(ctx, st, bare); err != nil || !s.Pushed {
		t.Fatalf("first sync = %+v, %v", s, err)
	}
	if got, want := remoteBranch(), headOf()+"\n"; got != want {
		t.Fatalf("remote branch %q, want %q", got, want)
	}
	if _, err := os.Stat(lock); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the lock was left behind: %v", err)
	}

	// Another process holds the lock: nothing moves, the lock stays, the error says so.
	if err := os.WriteFile(lock, []byte("busy"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Dated ahead, so it stays younger than lockGrace however slow this machine is.
	ahead := time.Now().Add(time.Hour)
	if err := os.Chtimes(lock, ahead, ahead); err != nil {
		t.Fatal(err)
	}
	before := remoteBranch()
	write(t, st, memory.ActorUser, newMem("coffee", "No coffee after noon."))
	_, err := r.Sync(ctx, st, "")
	var he *Error
	if !errors.As(err, &he) || he.Code != CodeRemoteLocked || he.Args["Path"] != lock {
		t.Fatalf("sync with the branch locked: %v, want %s naming the lock", err, CodeRemoteLocked)
	}
	if remoteBranch() != before {
		t.Fatal("the remote's branch moved under another process's lock")
	}
	if b, _ := os.ReadFile(lock); string(b) != "busy" {
		t.Fatalf("another process's lock was touched: %q", b)
	}

	// A lock nobody holds an flock on is taken over: git's after a few seconds (git holds
	// its lock for milliseconds), Engram's at once (the kernel released its flock when it was
	// killed). One whose flock is held, a live Engram's, is not.
	n := 0
	pushes := func(name string, content string, age time.Duration, held bool) bool {
		t.Helper()
		if err := os.WriteFile(lock, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		if err := os.Chtimes(lock, at, at); err != nil {
			t.Fatal(err)
		}
		if held {
			h, err := os.Open(lock)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if err := syscall.Flock(int(h.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
				t.Fatal(err)
			}
		}
		n++
		write(t, st, memory.ActorUser, newMem(fmt.Sprintf("note-%d", n), "Pushed past "+name+"."))
		s, err := r.Sync(ctx, st, "")
		if err == nil && s.Pushed && remoteBranch() == headOf()+"\n" {
			if _, serr := os.Stat(lock); !errors.Is(serr, os.ErrNotExist) {
				t.Fatalf("%s: pushed and left a lock: %v", name, serr)
			}
			return true
		}
		if !errors.As(err, &he) || he.Code != CodeRemoteLocked {
			t.Fatalf("%s: sync = %+v, %v: want pushed or %s", name, s, err, CodeRemoteLocked)
		}
		if b, _ := os.ReadFile(lock); string(b) != content {
			t.Fatalf("%s: a live lock was touched: %q", name, b)
		}
		return false
	}
	if !pushes("git's, a minute old", "0000000000000000000000000000000000000000\n", time.Minute, false) {
		t.Fatal("a git lock a minute old was not taken over")
	}
	if !pushes("a killed Engram's", lockMark+thisHost()+" 99999\n", 0, false) {
		t.Fatal("a killed Engram's lock was not taken over at once")
	}
	if pushes("a live Engram's", lockMark+thisHost()+" 99999\n", time.Hour, true) {
		t.Fatal("a lock whose flock is held was taken over")
	}
	// Another machine's (a shared folder whose flocks do not cross machines): only once it is
	// older than foreignGrace; an older build's mark, which names no machine, counts as one.
	if pushes("another machine's, fresh", lockMark+"elsewhere 7\n", 0, false) {
		t.Fatal("another machine's fresh lock was taken over")
	}
	if pushes("an older build's, fresh", lockMark+"99999\n", 0, false) {
		t.Fatal("a fresh lock marked without a machine was taken over")
	}
	if !pushes("another machine's, old", lockMark+"elsewhere 7\n", 2*foreignGrace, false) {
		t.Fatal("another machine's lock older than foreignGrace was not taken over")
	}
	if _, err := os.Stat(lock); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the lock taken over last was left: %v", err)
	}

	// Moved by another machine since the fetch (the remote is not where the caller saw it).
	remote, err := openLocal(bare)
	if err != nil {
		t.Fatal(err)
	}
	at := remoteBranch()
	if err := moveRemoteBranch(remote, bare, plumbing.NewHash("1111111111111111111111111111111111111111"), plumbing.NewHash(headOf())); !errors.Is(err, errRemoteMoved) {
		t.Fatalf("move from a stale position: %v, want errRemoteMoved", err)
	}
	if remoteBranch() != at {
		t.Fatal("the branch moved from a position it was not at")
	}
	if _, err := os.Stat(lock); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused move left its lock: %v", err)
	}
	// The remote-tracking branch of the home was written whole too, beside no leftovers.
	if b, err := os.ReadFile(filepath.Join(r.gitDir(), "refs", "remotes", RemoteName, Branch.Short())); err != nil || len(b) != 41 {
		t.Fatalf("remote-tracking branch %q, %v", b, err)
	}
}

// The remote is saved in .git/config by a whole file renamed into place (a new file, not the
// old one truncated and written: a kill between the two left a config git cannot read), and
// nothing of the write is left beside it.
func TestRemoteConfigWrittenWhole(t *testing.T) {
	_, r := openHome(t, t.TempDir(), true)
	path := filepath.Join(r.gitDir(), "config")
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	if err := r.SetRemote(remote); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(before, after) {
		t.Fatal("the config was rewritten in place")
	}
	if got := r.Remote(); got != remote {
		t.Fatalf("remote %q after saving %q", got, remote)
	}
	if left, _ := filepath.Glob(filepath.Join(r.gitDir(), configTempPrefix+"*")); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

// A sync that makes its lock while another process is judging the path (removeAbandoned holds
// the flock of whatever file it opened for a moment) waits for that flock before it marks the
// lock: marked without it, its live lock looked abandoned to the next sync, which removed it,
// and the first sync's rename by path then put the second's lock file — its mark — over the
// branch. And a lock that is no longer this process's at the rename is not renamed.
func TestRemoteBranchLockIsHeldOrNotUsed(t *testing.T) {
	ctx := context.Background()
	bare := filepath.Join(t.TempDir(), "remote.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	branch := filepath.Join(bare, "refs", "heads", Branch.Short())
	st, r := openHome(t, t.TempDir(), true)
	write(t, st, memory.ActorUser, newMem("tea", "Drinks green tea."))
	if s, err := r.Sync(ctx, st, bare); err != nil || !s.Pushed {
		t.Fatalf("first sync = %+v, %v", s, err)
	}
	t.Cleanup(func() { lockStageHook = nil })

	// Another process holds the new lock's flock for a moment right after it is made.
	var judged []bool
	released := make(chan struct{})
	lockStageHook = func(stage, lock string) {
		switch stage {
		case "taken":
			other, err := os.Open(lock)
			if err != nil {
				t.Error(err)
				return
			}
			if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
				t.Error(err)
			}
			go func() { time.Sleep(150 * time.Millisecond); other.Close(); close(released) }()
		case "marked":
			<-released                                     // the other process is done with it
			judged = append(judged, removeAbandoned(lock)) // and a third sync looks at it now
		}
	}
	write(t, st, memory.ActorUser, newMem("coffee", "No coffee after noon."))
	if s, err := r.Sync(ctx, st, ""); err != nil || !s.Pushed {
		t.Fatalf("sync while another process looked at the lock = %+v, %v", s, err)
	}
	if len(judged) != 1 || judged[0] {
		t.Fatalf("the live lock was judged abandoned: %v", judged)
	}
	if b, _ := os.ReadFile(branch); len(b) != 41 {
		t.Fatalf("the remote's branch holds %q", b)
	}

	// The lock is replaced under the sync (another machine took it): not renamed over the
	// branch, and the other's lock is left in place.
	before, _ := os.ReadFile(branch)
	lockStageHook = func(stage, lock string) {
		if stage != "written" {
			return
		}
		if err := os.Remove(lock); err != nil {
			t.Error(err)
		}
		if err := os.WriteFile(lock, []byte(lockMark+"elsewhere 7\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	write(t, st, memory.ActorUser, newMem("cocoa", "Cocoa at night."))
	_, err := r.Sync(ctx, st, "")
	var he *Error
	if !errors.As(err, &he) || he.Code != CodeRemoteLocked {
		t.Fatalf("sync whose lock was replaced: %v, want %s", err, CodeRemoteLocked)
	}
	if after, _ := os.ReadFile(branch); string(after) != string(before) {
		t.Fatalf("the branch moved to %q under another's lock", after)
	}
	if b, _ := os.ReadFile(branch + ".lock"); string(b) != lockMark+"elsewhere 7\n" {
		t.Fatalf("the other's lock was touched: %q", b)
	}
}
