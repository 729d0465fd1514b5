package vector

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"engram/backend/embed"
	"engram/backend/memory"
)

// The index's cache follows the store when the index file is rebuilt under a running process
// (a damaged index repaired, RepairSoon): row ids and the vector log start again from scratch
// there, and a cache that kept its old rows would hand recall row ids that now name other
// memories.
func TestIndexFollowsARebuiltIndexFile(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	var items []memory.Item
	for i := 0; i < 40; i++ {
		items = append(items, note(memory.ScopeGlobal, "", "", fmt.Sprintf("note-%02d", i), fmt.Sprintf("topic%02d lighthouse harbour %02d", i, i)))
	}
	write(t, s, items...)
	l := embed.NewLocal(0)
	if err := NewIndexer(s, l, IndexerOptions{Logger: quiet}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	// Row ids with holes, which a rebuild closes: every memory after them gets another id.
	for i := 0; i < 10; i++ {
		write(t, s, memory.Item{Op: memory.OpDelete, Scope: memory.ScopeGlobal, Slug: fmt.Sprintf("note-%02d", i)})
	}
	if err := NewIndexer(s, l, IndexerOptions{Logger: quiet}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	x := NewIndex(s, l.Model())
	check := func(when string) {
		t.Helper()
		for _, i := range []int{13, 27, 38} {
			ms, err := x.Search(ctx, l.Vector(fmt.Sprintf("topic%02d lighthouse harbour %02d", i, i)), 1, memory.Filter{})
			if err != nil || len(ms) != 1 {
				t.Fatalf("%s: %v %v", when, ms, err)
			}
			got, err := s.HydrateRIDs(ctx, []int64{ms[0].RID}, memory.Filter{}, memory.TimeWindow{})
			if err != nil || got[ms[0].RID] == nil || got[ms[0].RID].ID != ms[0].ID || got[ms[0].RID].Slug != fmt.Sprintf("note-%02d", i) {
				t.Fatalf("%s: the vector hit for note-%02d is %+v, its row holds %+v (%v)", when, i, ms[0], got[ms[0].RID], err)
			}
		}
	}
	check("before")
	// Damage the file in place, repair it as a running process does, embed again.
	db, err := sql.Open("sqlite", filepath.Join(s.Home(), "memory", "index.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := os.Truncate(filepath.Join(s.Home(), "memory", "index.sqlite3"), 16384); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reindex(ctx); err != nil {
		t.Fatal(err)
	}
	// Memories written after the repair take row ids the old cache held for others, and the
	// new vector log grows past where the cache had read the old one.
	var more []memory.Item
	for i := 40; i < 70; i++ {
		more = append(more, note(memory.ScopeGlobal, "", "", fmt.Sprintf("note-%02d", i), fmt.Sprintf("topic%02d lighthouse harbour %02d", i, i)))
	}
	write(t, s, more...)
	if err := NewIndexer(s, l, IndexerOptions{Logger: quiet}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	check("after the repair")
	// Every row once: none of the old file's rows is left beside the new ones.
	if x.Len() != 60 {
		t.Fatalf("the index holds %d vectors, the store 60", x.Len())
	}
}
