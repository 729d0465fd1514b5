package vector

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"engram/backend/embed"
	"engram/backend/memory"
)

// sameArrays fails unless a and b hold the same rows in the same order.
func sameArrays(t *testing.T, when string, a, b *Index) {
	t.Helper()
	if a.dim != b.dim || !slices.Equal(a.meta, b.meta) || !slices.Equal(a.cls, b.cls) || !slices.Equal(a.slab, b.slab) ||
		!slices.Equal(a.qrows, b.qrows) || !slices.Equal(a.qscale, b.qscale) || !reflect.DeepEqual(a.classes, b.classes) ||
		!reflect.DeepEqual(a.pos, b.pos) || !reflect.DeepEqual(a.classOf, b.classOf) {
		t.Fatalf("%s: the snapshot's index differs from the one loaded from SQLite (%d/%d rows, %d/%d classes)",
			when, len(a.meta), len(b.meta), len(a.classes), len(b.classes))
	}
}

// loads runs one search of the global scope on a new index (a new process's), and reports whether the snapshot
// served its load, with the ids found.
func loads(t *testing.T, s *memory.Store, l *embed.Local) (bool, []string, *Index) {
	t.Helper()
	x := NewIndex(s, l.Model())
	ms, err := x.Search(context.Background(), l.Vector("lighthouse harbour keeper"), 50, memory.Filter{Scope: memory.ScopeGlobal})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	return x.snapshots.Load() == 1, ids, x
}

// A new process's index is loaded from the snapshot while nothing a load reads has changed,
// and from SQLite after any change that a load would see — a vector written, a memory
// archived, a flag or a scope changed in the index behind the store's back — and then holds
// exactly what SQLite gives.
func TestVectorSnapshotFollowsTheIndex(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	var items []memory.Item
	for i := 0; i < 30; i++ {
		items = append(items, note(memory.ScopeGlobal, "", "", fmt.Sprintf("note-%02d", i), fmt.Sprintf("lighthouse harbour keeper %02d tide", i)))
	}
	write(t, s, items...)
	l := embed.NewLocal(0)
	if err := NewIndexer(s, l, IndexerOptions{Logger: quiet}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	first, want, a := loads(t, s, l)
	if first {
		t.Fatal("the first load was served by a snapshot that no one saved")
	}
	if _, err := os.Stat(s.VectorSnapshotPath()); err != nil {
		t.Fatalf("no snapshot after a load from SQLite: %v", err)
	}
	used, got, b := loads(t, s, l)
	if !used || !slices.Equal(got, want) {
		t.Fatalf("second load: snapshot used %v, ids %v, want %v", used, got, want)
	}
	sameArrays(t, "unchanged", a, b)

	db, err := sql.Open("sqlite", filepath.Join(s.Home(), "memory", "index.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	ids := map[string]string{}
	rows, err := db.QueryContext(ctx, `SELECT slug, id FROM memory_meta`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var slug, id string
		if err := rows.Scan(&slug, &id); err != nil {
			t.Fatal(err)
		}
		ids[slug] = id
	}
	rows.Close()
	if len(want) != 30 || !slices.Contains(want, ids["note-05"]) {
		t.Fatalf("the first search found %d memories: the test proves nothing", len(want))
	}
	// A stamp alone is not something a load reads: the snapshot stays good.
	exec(`UPDATE memory_meta SET mtime = mtime + 1 WHERE slug = 'note-03'`)
	if used, _, _ := loads(t, s, l); !used {
		t.Fatal("a stamp's change made the snapshot stale")
	}
	for _, c := range []struct {
		name, q string
		gone    string // a memory no longer found with the default filter, if any
	}{
		{"reviewed flag", `UPDATE memory_meta SET reviewed = 1 - reviewed WHERE slug = 'note-04'`, ""},
		{"archived flag", `UPDATE memory_meta SET archived = 1 WHERE slug = 'note-05'`, "note-05"},
		{"type", `UPDATE memory_meta SET type = 'project' WHERE slug = 'note-06'`, ""},
		{"scope", `UPDATE memory_meta SET scope = 'agent', scope_key = 'someone' WHERE slug = 'note-07'`, "note-07"},
		{"content version", `UPDATE memory_meta SET version = 'other' WHERE slug = 'note-08'`, "note-08"},
		{"vector", `UPDATE memory_vec SET vec = (SELECT vec FROM memory_vec WHERE rid = (SELECT rid FROM memory_meta WHERE slug = 'note-10')) WHERE rid = (SELECT rid FROM memory_meta WHERE slug = 'note-09')`, ""},
		{"vector removed", `DELETE FROM memory_vec WHERE rid = (SELECT rid FROM memory_meta WHERE slug = 'note-11')`, "note-11"},
		{"row removed", `DELETE FROM memory_meta WHERE slug = 'note-12'`, "note-12"},
	} {
		exec(c.q)
		used, got, fromSnap := loads(t, s, l)
		if used {
			t.Fatalf("%s: a stale snapshot was used", c.name)
		}
		if c.gone != "" && slices.Contains(got, ids[c.gone]) {
			t.Fatalf("%s: %s is still found", c.name, c.gone)
		}
		// What the new load saved is exactly what SQLite gives, and serves the next one.
		again, got2, snap := loads(t, s, l)
		if !again || !slices.Equal(got2, got) {
			t.Fatalf("%s: the snapshot saved after the change was not used (%v) or finds other memories", c.name, again)
		}
		sameArrays(t, c.name, fromSnap, snap)
	}
}

// A snapshot that is damaged, cut, of another model or of another format is not used, and
// the load from SQLite that replaces it writes a good one.
func TestVectorSnapshotDamaged(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	var items []memory.Item
	for i := 0; i < 12; i++ {
		items = append(items, note(memory.ScopeGlobal, "", "", fmt.Sprintf("note-%02d", i), fmt.Sprintf("lighthouse harbour keeper %02d", i)))
	}
	write(t, s, items...)
	l := embed.NewLocal(0)
	if err := NewIndexer(s, l, IndexerOptions{Logger: quiet}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	_, want, _ := loads(t, s, l)
	good, err := os.ReadFile(s.VectorSnapshotPath())
	if err != nil {
		t.Fatal(err)
	}
	flip := func(at int) []byte {
		b := slices.Clone(good)
		b[at] ^= 0x40
		return b
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"a vector's byte flipped", flip(snapshotHead + 12*8 + 12*4 + 100)},
		{"an id's byte flipped", flip(len(good) - 3)},
		{"the row count changed", flip(snapshotHead - 12)},
		{"cut", good[:len(good)/2]},
		{"only the header", good[:snapshotHead]},
		{"empty", nil},
		{"another format", append([]byte("ENGRAM-VECTORS-9"), good[16:]...)},
	} {
		if err := os.WriteFile(s.VectorSnapshotPath(), c.data, 0o600); err != nil {
			t.Fatal(err)
		}
		used, got, _ := loads(t, s, l)
		if used || !slices.Equal(got, want) {
			t.Fatalf("%s: snapshot used %v, ids %v, want %v", c.name, used, got, want)
		}
		if used, _, _ := loads(t, s, l); !used {
			t.Fatalf("%s: no good snapshot written in its place", c.name)
		}
	}
	// Another model's index neither uses this one's snapshot nor finds anything.
	x := NewIndex(s, "local-hash-v2/128")
	if ms, err := x.Search(ctx, embed.NewLocal(128).Vector("lighthouse"), 5, memory.Filter{}); err != nil || len(ms) != 0 || x.snapshots.Load() != 0 {
		t.Fatalf("another model: %v %v, snapshot used %d", ms, err, x.snapshots.Load())
	}
}

// Past twoStageFrom rows the index keeps a folded, quantized copy for its first stage: the
// snapshot carries it, and a search over the loaded index ranks exactly as over the original.
func TestVectorSnapshotTwoStage(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	l := embed.NewLocal(0)
	x := NewIndex(s, l.Model())
	texts := make([]string, 0, twoStageFrom+10)
	for i := 0; i < twoStageFrom+10; i++ {
		texts = append(texts, fmt.Sprintf("note %d about topic %d and thing %d", i, i%97, i%13))
	}
	texts[4321] = "a purple giraffe plays the saxophone at midnight"
	vecs, _ := l.Embed(ctx, texts)
	for i, v := range vecs {
		scope, key := memory.ScopeGlobal, ""
		if i%3 == 1 {
			scope, key = memory.ScopeAgent, fmt.Sprintf("agent-%d", i%5)
		}
		x.add(memory.VectorEntry{RID: int64(i + 1), ID: fmt.Sprintf("mem-%05d", i), Scope: scope, ScopeKey: key, Type: memory.TypeUser,
			Archived: i%11 == 0, Reviewed: i%2 == 0, Vec: EncodeVec(v)})
	}
	v, err := s.VectorVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	x.saveSnapshot(memory.VectorState{Version: v, Head: 7, Known: true})
	y := NewIndex(s, l.Model())
	if !y.loadSnapshot(ctx) {
		t.Fatal("the snapshot of a folding index was not loaded")
	}
	sameArrays(t, "two stages", x, y)
	if y.seq != 7 {
		t.Fatalf("the log position read back is %d, want 7", y.seq)
	}
	q := l.Vector("giraffe saxophone")
	a, b := x.twoStage(q, 10, allowAll(x)), y.twoStage(q, 10, allowAll(y))
	if !slices.Equal(a, b) || len(a) == 0 || a[0].i != 4321 {
		t.Fatalf("two-stage results differ or miss: %v against %v", a, b)
	}
	// The loaded index takes changes as any other: a row removed and one added.
	y.remove(10)
	y.add(memory.VectorEntry{RID: 99999, ID: "mem-new", Scope: memory.ScopeGlobal, Type: memory.TypeUser, Vec: EncodeVec(l.Vector("a new note"))})
	if got := y.twoStage(q, 1, allowAll(y)); len(got) != 1 || y.meta[got[0].i].id != "mem-04321" {
		t.Fatalf("after a change the best is %v", got)
	}
}
