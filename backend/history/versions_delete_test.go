package history

import (
	"context"
	"strings"
	"testing"

	"engram/backend/memory"
)

// A memory deleted and brought back from the trash: its history used to leave the delete out
// and show the return as "+0 −0", diffed against the version before the delete — the one
// change that took the memory away was recorded in git and shown nowhere. The delete is a
// version now (Deleted, every line removed), the return adds every line, and the delete has
// nothing to restore.
func TestVersionsShowADelete(t *testing.T) {
	ctx := context.Background()
	st, r := openHome(t, t.TempDir(), true)
	res := write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	id := res.Results[0].ID
	write(t, st, memory.ActorUser, memory.Item{Op: memory.OpDelete, ID: id})
	write(t, st, memory.ActorUser, memory.Item{Op: memory.OpRestore, ID: id})
	m, err := st.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := r.Versions(ctx, m.Path, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 {
		t.Fatalf("%d versions, want create, delete, restore: %+v", len(vs), vs)
	}
	back, gone, first := vs[0], vs[1], vs[2]
	if back.Deleted || back.Added == 0 || back.Removed != 0 || !strings.Contains(back.Diff, "+Likes green tea.") {
		t.Errorf("the return: %+v", back)
	}
	if !gone.Deleted || gone.Added != 0 || gone.Removed != first.Added || !strings.Contains(gone.Diff, "-Likes green tea.") {
		t.Errorf("the delete: %+v (the first version added %d lines)", gone, first.Added)
	}
	if first.Deleted || first.Removed != 0 {
		t.Errorf("the first version: %+v", first)
	}
	if _, err := r.Restore(ctx, st, id, gone.Commit, memory.ActorUser); err != ErrNoVersion {
		t.Fatalf("restoring the delete: %v", err)
	}
}
