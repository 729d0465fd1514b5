package faults

import (
	"context"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

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
