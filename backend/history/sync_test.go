package history

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"

	"engram/backend/memory"
)

// bodies lists "slug=body" of every live global memory of a store, sorted.
func bodies(t *testing.T, st *memory.Store) []string {
	t.Helper()
	ms, _, err := st.List(context.Background(), memory.Filter{NoDaily: true, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range ms {
		full, _ := st.Get(context.Background(), m.ID)
		out = append(out, m.Slug+"="+full.Body)
	}
	sort.Strings(out)
	return out
}

func TestTwoClonesConflictingEditsLoseNothing(t *testing.T) {
	ctx := context.Background()
	bare := filepath.Join(t.TempDir(), "remote.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	a, ra := openHome(t, t.TempDir(), true)
	b, rb := openHome(t, t.TempDir(), true)

	res := write(t, a, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	write(t, a, memory.ActorUser, memory.Item{Op: memory.OpAppendDaily, Text: "Started the sync test on A."})
	if s, err := ra.Sync(ctx, a, bare); err != nil || !s.Pushed {
		t.Fatalf("first sync of A = %+v, %v", s, err)
	}
	// B joins: its own first commit is unrelated to A's, and the merge takes A's memories.
	write(t, b, memory.ActorUser, memory.Item{Op: memory.OpAppendDaily, Text: "Joined from B."})
	if s, err := rb.Sync(ctx, b, bare); err != nil || len(s.Conflicts) != 0 {
		t.Fatalf("first sync of B = %+v, %v", s, err)
	}
	mb, err := b.GetBySlug(ctx, memory.ScopeGlobal, "", "", "tea-pref")
	if err != nil || mb.Body != "Likes green tea." || mb.ID != res.Results[0].ID {
		t.Fatalf("B after pull = %+v, %v", mb, err)
	}
	// The same memory edited on both machines.
	write(t, a, memory.ActorUser, memory.Item{Op: memory.OpUpdate, Slug: "tea-pref", Scope: memory.ScopeGlobal, Mode: "replace", Body: str("Likes oolong tea (A).")})
	write(t, b, memory.ActorUser, memory.Item{Op: memory.OpUpdate, Slug: "tea-pref", Scope: memory.ScopeGlobal, Mode: "replace", Body: str("Likes jasmine tea (B).")})
	if _, err := ra.Sync(ctx, a, ""); err != nil {
		t.Fatal(err)
	}
	sb, err := rb.Sync(ctx, b, "")
	if err != nil {
		t.Fatal(err)
	}
	if !sb.Merged || len(sb.Conflicts) != 1 || sb.Conflicts[0].Slug != "tea-pref" || sb.Conflicts[0].CopyError != "" {
		t.Fatalf("B's sync = %+v", sb)
	}
	copySlug := sb.Conflicts[0].Copy
	if !strings.HasPrefix(copySlug, "tea-pref-conflict-") {
		t.Fatalf("copy slug = %q", copySlug)
	}
	sa, err := ra.Sync(ctx, a, "")
	if err != nil || !sa.FastForward {
		t.Fatalf("A's second sync = %+v, %v", sa, err)
	}
	want := []string{"tea-pref=Likes jasmine tea (B).", copySlug + "=Likes oolong tea (A)."}
	sort.Strings(want)
	for name, st := range map[string]*memory.Store{"A": a, "B": b} {
		if got := bodies(t, st); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("%s holds %q, want %q", name, got, want)
		}
		cp, err := st.GetBySlug(ctx, memory.ScopeGlobal, "", "", copySlug)
		if err != nil || cp.Reviewed || len(cp.ConflictsWith) != 1 || cp.ConflictsWith[0] != "tea-pref" {
			t.Fatalf("%s's conflict copy = %+v, %v", name, cp, err)
		}
		// Both journals survive the daily merge.
		days, _, err := st.List(ctx, memory.Filter{Type: memory.TypeDaily, Limit: 10})
		if err != nil || len(days) != 1 {
			t.Fatalf("%s's days = %v, %v", name, days, err)
		}
		day, _ := st.Get(ctx, days[0].ID)
		if !strings.Contains(day.Body, "Started the sync test on A.") || !strings.Contains(day.Body, "Joined from B.") {
			t.Fatalf("%s's journal = %q", name, day.Body)
		}
	}
	// A project without an id file or a git remote is keyed by its path: it matches on the
	// other machine when its folder has the same path there (clones of one repository match
	// whatever their paths: identity_sync_test.go).
	wd := t.TempDir()
	write(t, a, memory.ActorUser, memory.Item{Op: memory.OpWrite, Slug: "uses-postgres", Scope: memory.ScopeProject, Workdir: wd,
		Type: memory.TypeProject, Title: str("Postgres"), Body: str("The service uses Postgres 16."), Confidence: memory.ConfidenceLow})
	if _, err := ra.Sync(ctx, a, ""); err != nil {
		t.Fatal(err)
	}
	if s, err := rb.Sync(ctx, b, ""); err != nil || !s.FastForward {
		t.Fatalf("B's project pull = %+v, %v", s, err)
	}
	if pm, err := b.GetBySlug(ctx, memory.ScopeProject, wd, "", "uses-postgres"); err != nil || pm.Body != "The service uses Postgres 16." {
		t.Fatalf("B's project memory = %+v, %v", pm, err)
	}
	// A second sync with nothing new changes nothing.
	if s, err := ra.Sync(ctx, a, ""); err != nil || s.Merged || s.FastForward || s.Changed != 0 {
		t.Fatalf("idle sync = %+v, %v", s, err)
	}
}

func TestSyncNeedsARemoteAndHistory(t *testing.T) {
	ctx := context.Background()
	st, r := openHome(t, t.TempDir(), false)
	if _, err := r.Sync(ctx, st, ""); err != ErrOff {
		t.Fatalf("sync with history off = %v", err)
	}
	if err := st.Locked(func() error { _, err := r.Enable(); return err }); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Sync(ctx, st, ""); err != ErrNoRemote {
		t.Fatalf("sync without remote = %v", err)
	}
}
