package history

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"engram/backend/memory"
)

// A remote mistyped as another repository — here a project's code, with a README and a Go
// file — shares no history with the memory folder. It was merged: main.go and README.md
// landed among the memories and every memory was pushed to that repository. It is refused
// now (history_remote_foreign, naming a file that is no memory), nothing is merged or sent,
// and the remote that worked stays configured. Two machines that turned history on apart and
// share one remote (unrelated histories of memory files only) still merge.
func TestUnrelatedForeignRemoteIsNotMerged(t *testing.T) {
	ctx := context.Background()
	gitBin := gitBinary(t)
	run := func(dir string, args ...string) string {
		t.Helper()
		return gitIn(t, gitBin, dir, args...)
	}
	// The code repository.
	codeDir := t.TempDir()
	code := filepath.Join(codeDir, "shop.git")
	run(codeDir, "init", "-q", "--bare", "-b", "main", code)
	work := filepath.Join(codeDir, "work")
	run(codeDir, "clone", "-q", code, work)
	for name, text := range map[string]string{"README.md": "# Shop\n", "main.go": "package main\n", "docs/notes.md": "notes\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(work, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(work, "add", ".")
	run(work, "commit", "-qm", "shop")
	run(work, "push", "-q", "origin", "HEAD:main")
	codeHead := run(codeDir, "--git-dir", code, "rev-parse", "main")

	// Two machines, history turned on apart, sharing an empty remote.
	_, bare := bareRepo(t)
	stA, rA := openHome(t, t.TempDir(), true)
	write(t, stA, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	if _, err := rA.Sync(ctx, stA, bare); err != nil {
		t.Fatal(err)
	}
	stB, rB := openHome(t, t.TempDir(), true)
	write(t, stB, memory.ActorUser, newMem("desk-setup", "Uses a standing desk."))
	if _, err := rB.Sync(ctx, stB, bare); err != nil {
		t.Fatalf("a second machine's unrelated history of memories: %v", err)
	}
	if _, err := stB.GetBySlug(ctx, memory.ScopeGlobal, "", "", "tea-pref"); err != nil {
		t.Fatalf("the other machine's memory did not arrive: %v", err)
	}

	// The code repository by mistake.
	_, err := rB.Sync(ctx, stB, code)
	if codeOf(err) != CodeRemoteForeign {
		t.Fatalf("sync with a code repository: %v (%s)", err, codeOf(err))
	}
	var he *Error
	if !errors.As(err, &he) || he.Args["Path"] != "main.go" || he.Args["Count"] != 1 {
		t.Fatalf("the refusal names %v", he.Args)
	}
	if rB.Remote() != bare {
		t.Fatalf("the remote is now %q, want the one that worked", rB.Remote())
	}
	for _, f := range []string{"main.go", "README.md", "docs/notes.md"} {
		if _, err := os.Stat(filepath.Join(stB.Root(), f)); err == nil {
			t.Errorf("%s of the code repository is in the memory folder", f)
		}
	}
	if got := run(codeDir, "--git-dir", code, "rev-parse", "main"); got != codeHead {
		t.Fatalf("the code repository's branch moved: %s → %s", codeHead, got)
	}
}
