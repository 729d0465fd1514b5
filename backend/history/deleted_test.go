package history

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"engram/backend/memory"
)

// A memory deleted and then purged from the trash (engram cleanup) was gone from the index,
// the trash and its path: nothing named it, so history could not show or restore it though git
// kept every version. Deleted lists it with its last version and RestoreDeleted writes that
// version back; a slug taken since is refused, the newer memory untouched.
func TestPurgedMemoryIsRestoredFromHistory(t *testing.T) {
	ctx := context.Background()
	st, r := openHome(t, t.TempDir(), true)
	tea := write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea.")).Results[0]
	write(t, st, memory.ActorUser, memory.Item{Op: memory.OpUpdate, ID: tea.ID, Mode: "replace", Body: str("Likes oolong now.")})
	coffee := write(t, st, memory.ActorUser, newMem("coffee-pref", "No coffee after noon.")).Results[0]
	write(t, st, memory.ActorUser, newMem("kept-note", "Still here."))
	shelved := write(t, st, memory.ActorUser, newMem("shelved-note", "Archived, not deleted.")).Results[0]
	write(t, st, memory.ActorUser, memory.Item{Op: memory.OpDelete, ID: tea.ID}, memory.Item{Op: memory.OpDelete, ID: coffee.ID})
	if _, err := st.Cleanup(ctx, -time.Hour, false); err != nil { // purge the whole trash
		t.Fatal(err)
	}
	write(t, st, memory.ActorUser, newMem("coffee-pref", "A newer coffee note."))
	write(t, st, memory.ActorUser, memory.Item{Op: memory.OpArchive, ID: shelved.ID})
	if _, err := st.Get(ctx, tea.ID); err == nil {
		t.Fatal("the purged memory is still in the index")
	}
	ds, err := r.Deleted(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]DeletedMemory{}
	for _, d := range ds {
		found[d.Slug] = d
	}
	d, ok := found["tea-pref"]
	if !ok || d.ID != tea.ID || d.Path != "global/user/tea-pref.md" || d.Title != "About tea-pref" || d.DeletedBy != memory.ActorUser {
		t.Fatalf("tea-pref not listed as deleted: %+v", ds)
	}
	if _, ok := found["coffee-pref"]; !ok {
		t.Fatalf("coffee-pref (another memory took its slug since) not listed: %+v", ds)
	}
	if _, ok := found["shelved-note"]; ok {
		t.Fatalf("an archived memory listed as deleted: %+v", ds)
	}
	if _, ok := found["kept-note"]; ok {
		t.Fatalf("a live memory listed as deleted: %+v", ds)
	}
	res, err := r.RestoreDeleted(ctx, st, d.Path, d.Commit, memory.ActorUser)
	if err != nil || !res.OK {
		t.Fatalf("restore: %+v %v", res, err)
	}
	back, err := st.GetBySlug(ctx, memory.ScopeGlobal, "", "", "tea-pref")
	if err != nil || back.ID != tea.ID || back.Body != "Likes oolong now." || back.Title != "About tea-pref" || back.SourceQuote != "said so" {
		t.Fatalf("restored: %+v %v", back, err)
	}
	if ds, _ = r.Deleted(ctx, 0); len(ds) != 1 || ds[0].Slug != "coffee-pref" {
		t.Fatalf("after the restore: %+v", ds)
	}
	// The slug was taken since: refused, the newer memory kept.
	res, err = r.RestoreDeleted(ctx, st, ds[0].Path, ds[0].Commit, memory.ActorUser)
	if err != nil || res.OK || res.Code != memory.CodeAlreadyExists {
		t.Fatalf("restore over a taken slug: %+v %v", res, err)
	}
	if m, _ := st.GetBySlug(ctx, memory.ScopeGlobal, "", "", "coffee-pref"); m == nil || m.Body != "A newer coffee note." {
		t.Fatalf("the newer memory: %+v", m)
	}
}

// A memory deleted but still in the trash comes back from the trash (as itself, with the
// version asked for), not as a second copy beside the trashed one.
func TestDeletedMemoryInTheTrashComesBackFromIt(t *testing.T) {
	ctx := context.Background()
	st, r := openHome(t, t.TempDir(), true)
	tea := write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea.")).Results[0]
	first, err := r.Versions(ctx, "global/user/tea-pref.md", 0)
	if err != nil || len(first) != 1 {
		t.Fatalf("versions: %+v %v", first, err)
	}
	write(t, st, memory.ActorUser, memory.Item{Op: memory.OpUpdate, ID: tea.ID, Mode: "replace", Body: str("Likes oolong now.")})
	write(t, st, memory.ActorUser, memory.Item{Op: memory.OpDelete, ID: tea.ID})
	ds, err := r.Deleted(ctx, 0)
	if err != nil || len(ds) != 1 || ds[0].ID != tea.ID {
		t.Fatalf("deleted: %+v %v", ds, err)
	}
	// The first version, not the last: back from the trash, then to that version.
	res, err := r.RestoreDeleted(ctx, st, ds[0].Path, first[0].Commit, memory.ActorUser)
	if err != nil || !res.OK {
		t.Fatalf("restore: %+v %v", res, err)
	}
	m, err := st.Get(ctx, tea.ID)
	if err != nil || m.Body != "Likes green tea." {
		t.Fatalf("restored: %+v %v", m, err)
	}
	if left, _ := filepath.Glob(filepath.Join(st.Root(), ".trash", "*tea-pref.md")); len(left) != 0 {
		t.Fatalf("a copy is left in the trash: %v", left)
	}
}
