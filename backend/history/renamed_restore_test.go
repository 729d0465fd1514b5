package history

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"engram/backend/memory"
)

// A memory file renamed by hand while no Engram ran keeps its id at the new path; history
// deleted lists the old path with its last version (git saw that path removed), and the
// command it printed failed: "that commit holds no version of this memory", because the
// restore read the commit at the memory's new path. The version is now read from the path
// named and written over the live memory as an update, at its new path, once.
func TestRestoreByTheOldPathOfARenamedMemory(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	st, _ := openHome(t, home, true)
	tea := write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea.")).Results[0]
	write(t, st, memory.ActorUser, memory.Item{Op: memory.OpUpdate, ID: tea.ID, Mode: "replace", Body: str("Likes oolong now.")})
	st.Close()

	root := filepath.Join(home, "memory")
	if err := os.Rename(filepath.Join(root, "global", "user", "tea-pref.md"), filepath.Join(root, "global", "user", "tea-notes.md")); err != nil {
		t.Fatal(err)
	}
	st, r := openHome(t, home, true)
	cur, err := st.Get(ctx, tea.ID)
	if err != nil || cur.Path != "global/user/tea-notes.md" {
		t.Fatalf("after the rename: %+v %v", cur, err)
	}
	ds, err := r.Deleted(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var d *DeletedMemory
	for i := range ds {
		if ds[i].Path == "global/user/tea-pref.md" {
			d = &ds[i]
		}
	}
	if d == nil {
		t.Fatalf("the old path is not listed: %+v", ds)
	}
	vs, err := r.Versions(ctx, "global/user/tea-pref.md", 0)
	if err != nil || len(vs) < 3 {
		t.Fatalf("versions of the old path: %d %v", len(vs), err)
	}
	first := vs[len(vs)-1].Commit // the memory's first version: "Likes green tea."
	for _, commit := range []string{d.Commit, first} {
		res, err := r.RestoreDeleted(ctx, st, d.Path, commit, memory.ActorUser)
		if err != nil || !res.OK {
			t.Fatalf("restore %s: %+v %v", commit, res, err)
		}
	}
	back, err := st.Get(ctx, tea.ID)
	if err != nil || back.Path != "global/user/tea-notes.md" || back.Body != "Likes green tea." {
		t.Fatalf("restored: %+v %v", back, err)
	}
	if _, err := os.Stat(filepath.Join(root, "global", "user", "tea-pref.md")); !os.IsNotExist(err) {
		t.Fatalf("a second file at the old path: %v", err)
	}
}
