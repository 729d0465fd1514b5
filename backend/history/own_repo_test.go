package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/memory"
)

// Turning history on in a memory folder that already was the person's own repository (their
// commits on main, a notes.txt beside the memories) rebuilt the branch's tree from the memory
// files alone: the "history enabled" commit deleted notes.txt from their branch, and a sync
// would have deleted it from their remote. Files Engram never versions now stay in the branch
// as they were; a memory deleted since is still removed from it.
func TestEnableKeepsThePersonsOwnFilesInTheBranch(t *testing.T) {
	gitBin := gitBinary(t)
	home := t.TempDir()
	st, _ := openHome(t, home, false)
	write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."), newMem("desk-setup", "Standing desk."))
	root := st.Root()
	st.Close()
	run := func(args ...string) string {
		t.Helper()
		return gitIn(t, gitBin, root, args...)
	}
	run("init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("my own notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run("add", "global", "notes.txt")
	run("commit", "-qm", "my own commit")
	// Deleted by hand while no Engram ran.
	if err := os.Remove(filepath.Join(root, "global", "user", "desk-setup.md")); err != nil {
		t.Fatal(err)
	}

	openHome(t, home, true)
	files := run("ls-tree", "-r", "--name-only", "main")
	if !strings.Contains(files, "notes.txt") {
		t.Fatalf("the person's notes.txt left the branch:\n%s", files)
	}
	if strings.Contains(files, "desk-setup.md") || !strings.Contains(files, "global/user/tea-pref.md") || !strings.Contains(files, ".gitignore") {
		t.Fatalf("branch after enable:\n%s", files)
	}
	if got := run("show", "main:notes.txt"); got != "my own notes" {
		t.Fatalf("notes.txt = %q", got)
	}
}
