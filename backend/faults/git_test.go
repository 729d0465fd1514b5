package faults

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"engram/backend/api"
	"engram/backend/history"
	"engram/backend/memory"
)

// setupGitHistory turns git history on for the home, so every batch the child applies is one
// commit and the kills of workWrite land in the middle of commits too.
func setupGitHistory(t *testing.T, h *home) {
	st, err := memory.Open(context.Background(), h.dir, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := history.New(st.Root(), nil)
	if err := st.Locked(func() error { _, err := r.Enable(); return err }); err != nil {
		t.Fatalf("enable history: %v", err)
	}
}

// afterGitHistory: after the kills the repository still reads — HEAD resolves and every
// commit's tree opens — every acknowledged memory is at HEAD with its acknowledged text (the
// commit is part of the batch the ack followed), and a new batch commits on top.
func afterGitHistory(t *testing.T, h *home) {
	repo, err := git.PlainOpen(h.root())
	if err != nil {
		t.Fatalf("open the history: %v", err)
	}
	head, err := repo.Head()
	if err != nil {
		t.Fatalf("HEAD after the kills: %v", err)
	}
	commits := 0
	iter, err := repo.Log(&git.LogOptions{From: head.Hash()})
	if err != nil {
		t.Fatal(err)
	}
	if err := iter.ForEach(func(c *object.Commit) error {
		commits++
		_, err := c.Tree()
		return err
	}); err != nil {
		t.Fatalf("a commit does not read after the kills: %v", err)
	}
	top, err := repo.CommitObject(head.Hash())
	if err != nil {
		t.Fatal(err)
	}
	// The store tells each memory's path; the history is attached only after the checks, so
	// nothing is committed before HEAD is read.
	st, err := memory.Open(context.Background(), h.dir, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, a := range h.l.acks {
		if a.Kind != "mem" {
			continue
		}
		m, err := st.Get(context.Background(), a.ID)
		if err != nil {
			continue // the common checks report it
		}
		f, err := top.File(m.Path)
		if err != nil {
			t.Errorf("acknowledged %s (%s) is not at HEAD: %v", a.ID, m.Path, err)
			continue
		}
		if body, err := f.Contents(); err != nil || !strings.Contains(body, a.Marker) {
			t.Errorf("HEAD's %s lacks the acknowledged %q (%v)", m.Path, a.Marker, err)
		}
	}
	r := history.New(st.Root(), nil)
	history.Attach(st, r)
	before, err := r.Status()
	if err != nil {
		t.Fatal(err)
	}
	title, body := "After the kills", "A commit still lands: mk-git-after."
	res, err := st.ApplyBatch(context.Background(), memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpWrite,
		Scope: memory.ScopeGlobal, Type: memory.TypeUser, Slug: "after-the-kills", Title: &title, Body: &body}}})
	if err != nil || !res.Results[0].OK {
		t.Fatalf("write after the kills: %+v %v", res, err)
	}
	after, err := r.Status()
	if err != nil || after.Commits != before.Commits+1 {
		t.Fatalf("commits %d → %d (%v): want one more after a write", before.Commits, after.Commits, err)
	}
	t.Logf("%d commits read after the kills", commits)
}

// syncRemote is the bare repository beside the home that kill-git-sync pushes to: a shared
// folder or USB disk's remote, as far as Engram can tell.
func syncRemote(home string) string { return filepath.Join(home, "remote.git") }

// setupGitSync turns git history on and makes the folder remote.
func setupGitSync(t *testing.T, h *home) {
	setupGitHistory(t, h)
	if _, err := git.PlainInit(syncRemote(h.dir), true); err != nil {
		t.Fatal(err)
	}
}

// workSync writes beside a loop of syncs to the folder remote, acknowledging each push with
// the commit pushed, until killed — mid-fetch, mid-merge, mid-push or while the remote's branch
// moves. A lock the previous round's kill left is taken over (the kernel released its flock),
// at once when it still carries Engram's mark, after a few seconds when it already held the
// branch's next value; meanwhile the sync is refused and tried again, as a person would.
func workSync(c *child) error {
	return c.writeBeside(func() error {
		res, err := c.api.History.Sync(api.HistorySyncParams{Remote: syncRemote(c.home)})
		var coded interface{ ErrorCode() string }
		if errors.As(err, &coded) && coded.ErrorCode() == history.CodeRemoteLocked {
			time.Sleep(100 * time.Millisecond)
			return nil
		}
		if err != nil {
			return err
		}
		if res.Pushed {
			c.ack(ack{Kind: "sync", Marker: res.Head})
		}
		return nil
	})
}

// afterGitSync: the remote still reads — its branch names a commit whose history reads
// through, no lock is left that would refuse the next push — every acknowledged push is in
// the remote's history, and a sync after the kills pushes again.
func afterGitSync(t *testing.T, h *home) {
	remote, err := git.PlainOpen(syncRemote(h.dir))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := remote.Reference(plumbing.NewBranchReferenceName("main"), true)
	if err != nil {
		b, _ := os.ReadFile(filepath.Join(syncRemote(h.dir), "refs", "heads", "main"))
		t.Fatalf("the remote's branch after the kills: %v (file %q)", err, b)
	}
	reached := map[string]bool{}
	iter, err := remote.Log(&git.LogOptions{From: ref.Hash()})
	if err != nil {
		packs, _ := filepath.Glob(filepath.Join(syncRemote(h.dir), "objects", "pack", "*"))
		for _, p := range packs {
			info, _ := os.Stat(p)
			t.Logf("the remote's %s: %d bytes", filepath.Base(p), info.Size())
		}
		t.Fatal(err)
	}
	if err := iter.ForEach(func(c *object.Commit) error {
		reached[c.Hash.String()] = true
		_, err := c.Tree()
		return err
	}); err != nil {
		t.Fatalf("a commit of the remote does not read after the kills: %v", err)
	}
	pushed := 0
	for _, a := range h.l.acks {
		if a.Kind == "sync" {
			pushed++
			if !reached[a.Marker] {
				t.Errorf("acknowledged push %s is not in the remote's history", a.Marker)
			}
		}
	}
	if pushed == 0 {
		t.Fatal("no push was acknowledged: the test proves nothing")
	}
	st, err := memory.Open(context.Background(), h.dir, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := history.New(st.Root(), nil)
	history.Attach(st, r)
	title, body := "After the sync kills", "A push still lands: mk-sync-after."
	if res, err := st.ApplyBatch(context.Background(), memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpWrite,
		Scope: memory.ScopeGlobal, Type: memory.TypeUser, Slug: "after-the-sync-kills", Title: &title, Body: &body}}}); err != nil || !res.Results[0].OK {
		t.Fatalf("write after the kills: %+v %v", res, err)
	}
	// A kill between the branch's next value written into the lock and the rename leaves a
	// lock that is no longer marked as Engram's: it is taken over after lockGrace (5 s).
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := r.Sync(context.Background(), st, "")
		var he *history.Error
		if errors.As(err, &he) && he.Code == history.CodeRemoteLocked && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		if err != nil || !res.Pushed {
			t.Fatalf("sync after the kills: %+v, %v", res, err)
		}
		break
	}
	t.Logf("%d pushes acknowledged, %d commits on the remote", pushed, len(reached))
}
