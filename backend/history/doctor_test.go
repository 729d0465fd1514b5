package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/memory"
)

// Doctor's look at the history: quiet for a home without one and for a committed tree; each
// kind of change no process committed (an edit, a new file, a deleted file) counts; a branch
// pointing at a missing commit is a repository git cannot read, with a fix that keeps it aside.
func TestCheckFindsWhatNoProcessCommitted(t *testing.T) {
	st, r := openHome(t, t.TempDir(), false)
	write(t, st, memory.ActorUser, newMem("tea", "Drinks green tea."), newMem("cat", "Has a cat."))
	if got := r.Check(); len(got) != 0 {
		t.Fatalf("no repository: %+v", got)
	}
	if err := st.Locked(func() error { _, err := r.Enable(); return err }); err != nil {
		t.Fatal(err)
	}
	if got := r.Check(); len(got) != 0 {
		t.Fatalf("all committed: %+v", got)
	}
	root := st.Root()
	tea := filepath.Join(root, "global", "user", "tea.md")
	data, err := os.ReadFile(tea)
	if err != nil {
		t.Fatal(err)
	}
	// Written behind Engram's back (no hook runs), as an editor would while nothing runs.
	if err := os.WriteFile(tea, []byte(strings.Replace(string(data), "green", "black", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "global", "user", "new.md"), []byte("---\ntitle: New\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "global", "user", "cat.md")); err != nil {
		t.Fatal(err)
	}
	got := r.Check()
	if len(got) != 1 || got[0].Code != "git_uncommitted" || got[0].Count != 3 || got[0].Fix != FixCommitNow {
		t.Fatalf("three changes: %+v", got)
	}
	// The fix it names clears it.
	if err := st.Locked(func() error { _, err := r.Enable(); return err }); err != nil {
		t.Fatal(err)
	}
	if got := r.Check(); len(got) != 0 {
		t.Fatalf("after the fix: %+v", got)
	}
	// Off: changes are not expected to be committed.
	if err := r.Disable(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tea, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := r.Check(); len(got) != 0 {
		t.Fatalf("history off: %+v", got)
	}
	// The branch names a commit that is not there.
	ref := filepath.Join(root, ".git", filepath.FromSlash(string(Branch)))
	if err := os.WriteFile(ref, []byte(strings.Repeat("ab", 20)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r2 := New(root, quiet)
	got = r2.Check()
	if len(got) != 1 || got[0].Code != "git_unreadable" || !strings.Contains(got[0].Fix, "'"+root+"'/.git-broken") {
		t.Fatalf("broken branch: %+v", got)
	}
}
