package backup

import (
	"context"
	"testing"

	"engram/backend/memory"
)

// A backup's figures are the store's, counted once (memory.Store.Counts, as doctor and quota
// count): the journal's live days are its days, an archived day is no live day (it was counted
// as one, while doctor counted only live days and quota leaves days out), and a file put in
// place since the store last read the folder is kept but is no memory yet (it was counted as
// one from its path alone).
func TestBackupCountsAreDoctorsAndQuotas(t *testing.T) {
	ctx := context.Background()
	st := openHome(t, t.TempDir())
	apply(t, st, write("name-is-ada", memory.ScopeGlobal, ""), write("likes-tea", memory.ScopeGlobal, ""),
		write("uses-go", memory.ScopeGlobal, ""), write("short-answers", memory.ScopeAgent, "bot"),
		memory.Item{Op: memory.OpAppendDaily, Text: "backed up today"})
	apply(t, st, memory.Item{Op: memory.OpArchive, Scope: memory.ScopeGlobal, Slug: "uses-go"})
	root := st.Root()
	place(t, root, "daily/2025-03-02.md", "a day written by hand\n")
	place(t, root, ".archive/2025/daily/2025-03-01.md", "a day long ago\n")
	doc, err := st.Doctor(ctx) // reconciles: the store has read every file above
	if err != nil {
		t.Fatal(err)
	}
	used, archived := quotaTotals(t, ctx, st)
	// Put in place after the store's last reading: archived, counted as another file.
	place(t, root, "global/user/added-later.md", "---\nid: 01JB0000000000000000000931\ntitle: Later\n---\nnot read yet\n")
	res, err := Create(ctx, st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Manifest
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"memories (doctor's)", m.Memories, doc.Memories},
		{"memories (quota's used)", m.Memories, used},
		{"memories", m.Memories, 3},
		{"journal days (doctor's)", m.Daily, doc.JournalDays},
		{"journal days", m.Daily, 2},
		{"archived (doctor's)", m.Archived, doc.Archived},
		{"archived (quota's)", m.Archived, archived},
		{"archived journal days", m.ArchivedDaily, 1},
		{"other files (the one not read yet)", m.Other, 1},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
	if !contains(entries(t, res.Path), MemoryDir+"/global/user/added-later.md") {
		t.Fatal("the file not read yet is not in the archive")
	}
	// Once the store has read it, it is a memory in the next backup.
	if _, err := st.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	res, err = Create(ctx, st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := res.Manifest; m.Memories != 4 || m.Other != 0 {
		t.Fatalf("after a reconcile: %d memories, %d other", m.Memories, m.Other)
	}
}
