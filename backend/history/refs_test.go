package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The branch moves by a whole file renamed into place: after commits it names the newest one,
// and no temporary file is left in refs/ (one there would read as a branch) or in .git.
func TestBranchMovesWhole(t *testing.T) {
	home := t.TempDir()
	st, r := openHome(t, home, true)
	write(t, st, "user", newMem("tea", "Drinks green tea."))
	write(t, st, "user", newMem("coffee", "No coffee after noon."))
	b, err := os.ReadFile(filepath.Join(r.gitDir(), "refs", "heads", Branch.Short()))
	if err != nil {
		t.Fatal(err)
	}
	repo, err := r.open()
	if err != nil {
		t.Fatal(err)
	}
	head, err := r.head(repo)
	if err != nil || head == nil || string(b) != head.Hash.String()+"\n" {
		t.Fatalf("branch file %q, head %v (%v)", b, head, err)
	}
	if got := commits(t, r.root); len(got) < 3 {
		t.Fatalf("commits %v: want the enable and two batches", got)
	}
	left, _ := filepath.Glob(filepath.Join(r.gitDir(), refTempPrefix+"*"))
	inRefs, _ := filepath.Glob(filepath.Join(r.gitDir(), "refs", "heads", "*"))
	if len(left) != 0 || len(inRefs) != 1 {
		t.Fatalf("left behind: %v, branches %v", left, inRefs)
	}
	// A temporary file a killed process left goes once it is an hour old.
	old := filepath.Join(r.gitDir(), refTempPrefix+"123")
	if err := os.WriteFile(old, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	write(t, st, "user", newMem("water", "Two litres a day."))
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an old leftover is still there: %v", err)
	}
}

// An empty branch file (what go-git's truncating write left when killed) is not taken for a
// repository without commits: a commit on it would start a history without the old one. The
// commit is refused with a coded error and doctor names it, with the fix that sets it aside.
func TestEmptyBranchFileIsRefused(t *testing.T) {
	home := t.TempDir()
	st, r := openHome(t, home, true)
	write(t, st, "user", newMem("tea", "Drinks green tea."))
	before := commits(t, r.root)
	if err := os.WriteFile(filepath.Join(r.gitDir(), "refs", "heads", Branch.Short()), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.commitPaths([]string{"global/user/tea.md"}, "user: write\n"); !errors.Is(err, ErrBranchDamaged) {
		t.Fatalf("a commit on an empty branch file: %v, want ErrBranchDamaged", err)
	}
	if b, _ := os.ReadFile(filepath.Join(r.gitDir(), "refs", "heads", Branch.Short())); len(b) != 0 {
		t.Fatalf("the refused commit moved the branch: %q", b)
	}
	found := r.Check()
	if len(found) != 1 || found[0].Code != "git_unreadable" || !strings.Contains(found[0].Fix, ".git-broken") {
		t.Fatalf("doctor: %+v", found)
	}
	if len(before) < 2 {
		t.Fatalf("commits before the damage: %v", before)
	}
}
