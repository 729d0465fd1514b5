package vector

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

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

// sameRows fails unless a and b hold the same rows, in any order: what each row id names, its
// class and its vector.
func sameRows(t *testing.T, when string, a, b *Index) {
	t.Helper()
	if len(a.meta) != len(b.meta) {
		t.Fatalf("%s: %d rows against %d loaded from SQLite", when, len(a.meta), len(b.meta))
	}
	for i, m := range a.meta {
		k, ok := b.pos[m.rid]
		if !ok || b.meta[k] != m || a.classes[a.cls[i]] != b.classes[b.cls[k]] ||
			!slices.Equal(a.slab[i*a.dim:(i+1)*a.dim], b.slab[k*b.dim:(k+1)*b.dim]) {
			t.Fatalf("%s: row %d (%s) differs from SQLite's", when, m.rid, m.id)
		}
	}
}

// loads runs one search of the global scope on a new index (a new process's), and reports
// whether it started from the snapshot and whether it then read everything from SQLite, with
// the ids found.
func loads(t *testing.T, s *memory.Store, l *embed.Local) (fromSnap, fromSQL bool, ids []string, x *Index) {
	t.Helper()
	x = NewIndex(s, l.Model())
	ms, err := x.Search(context.Background(), l.Vector("lighthouse harbour keeper"), 50, memory.Filter{Scope: memory.ScopeGlobal})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	return x.snapshots.Load() == 1, x.reloads.Load() > 0, ids, x
}

// seedNotes writes notes from..to-1 to the global scope and embeds them with l.
func seedNotes(t *testing.T, s *memory.Store, l *embed.Local, from, to int) {
	t.Helper()
	var items []memory.Item
	for i := from; i < to; i++ {
		items = append(items, note(memory.ScopeGlobal, "", "", fmt.Sprintf("note-%02d", i), fmt.Sprintf("lighthouse harbour keeper %02d tide", i)))
	}
	write(t, s, items...)
	if err := NewIndexer(s, l, IndexerOptions{Logger: quiet}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// truth is the index as SQLite gives it now.
func truth(t *testing.T, s *memory.Store, l *embed.Local) *Index {
	t.Helper()
	x := NewIndex(s, l.Model())
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := x.reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	return x
}

// A new process's index starts from the snapshot and applies what the change log holds since:
// after any change a load would see — a vector written or removed, a memory archived, a flag,
// type, scope or content version changed, a row removed, each written behind the store's back
// — it holds exactly what SQLite gives, without reading every vector again.
func TestVectorSnapshotFollowsTheIndex(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	l := embed.NewLocal(0)
	seedNotes(t, s, l, 0, 30)
	snap, sql1, want, a := loads(t, s, l)
	if snap || !sql1 {
		t.Fatalf("the first load: from a snapshot %v, from SQLite %v", snap, sql1)
	}
	if _, err := os.Stat(s.VectorSnapshotPath()); err != nil {
		t.Fatalf("no snapshot after a load from SQLite: %v", err)
	}
	snap, sql2, got, b := loads(t, s, l)
	if !snap || sql2 || !slices.Equal(got, want) {
		t.Fatalf("second load: from the snapshot %v, from SQLite %v, ids %v, want %v", snap, sql2, got, want)
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
	for _, c := range []struct {
		name, q string
		gone    string // a memory no longer found in the global scope, if any
	}{
		{"a stamp alone", `UPDATE memory_meta SET mtime = mtime + 1 WHERE slug = 'note-03'`, ""},
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
		snap, fromSQL, got, x := loads(t, s, l)
		if !snap || fromSQL {
			t.Fatalf("%s: from the snapshot %v, from SQLite %v: want the snapshot and the log's changes", c.name, snap, fromSQL)
		}
		if c.gone != "" && slices.Contains(got, ids[c.gone]) {
			t.Fatalf("%s: %s is still found", c.name, c.gone)
		}
		sameRows(t, c.name, x, truth(t, s, l))
	}
}

// A bulk build does not log its rows one by one: the row it logs instead has every vector
// read again, by a new process starting from an older snapshot and by a running one.
func TestVectorSnapshotAfterABulkBuild(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	l := embed.NewLocal(0)
	seedNotes(t, s, l, 0, 20)
	_, _, _, running := loads(t, s, l) // saves the snapshot; stays loaded, as a running process's
	if _, err := s.Reindex(ctx); err != nil {
		t.Fatal(err)
	}
	if err := NewIndexer(s, l, IndexerOptions{Logger: quiet}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	snap, fromSQL, got, x := loads(t, s, l)
	if !snap || !fromSQL || len(got) != 20 {
		t.Fatalf("after a reindex: from the snapshot %v, then from SQLite %v, %d found", snap, fromSQL, len(got))
	}
	sameRows(t, "new process", x, truth(t, s, l))
	before := running.reloads.Load()
	if _, err := running.Search(ctx, l.Vector("lighthouse"), 5, memory.Filter{}); err != nil {
		t.Fatal(err)
	}
	if running.reloads.Load() != before+1 {
		t.Fatal("the running index did not read everything again after the reindex")
	}
	sameRows(t, "running process", running, truth(t, s, l))
}

// An index restored from an older copy does not use a snapshot taken later, though its log
// grows back to the same sequence numbers: their tags differ.
func TestVectorSnapshotOfAnotherHistory(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	open := func() *memory.Store {
		st, err := memory.Open(ctx, home, memory.Options{Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	l := embed.NewLocal(0)
	batch := func(s *memory.Store, from, to int) { seedNotes(t, s, l, from, to) }
	s := open()
	batch(s, 0, 10)
	s.Close()
	idx := filepath.Join(home, "memory", "index.sqlite3")
	saved, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	s = open()
	batch(s, 10, 20)
	_ = os.Remove(s.VectorSnapshotPath())
	if snap, fromSQL, got, _ := loads(t, s, l); snap || !fromSQL || len(got) != 20 {
		t.Fatalf("the later state's load: %v %v %d", snap, fromSQL, len(got))
	}
	s.Close()
	// The older index back, and other changes after it.
	for _, suffix := range []string{"-wal", "-shm"} {
		_ = os.Remove(idx + suffix)
	}
	if err := os.WriteFile(idx, saved, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 10; i < 20; i++ {
		_ = os.Remove(filepath.Join(home, "memory", "global", "user", fmt.Sprintf("note-%02d.md", i)))
	}
	s = open()
	defer s.Close()
	batch(s, 30, 45)
	snap, fromSQL, got, x := loads(t, s, l)
	if snap || !fromSQL || len(got) != 25 {
		t.Fatalf("restored index: from the snapshot %v, from SQLite %v, %d found (want 25)", snap, fromSQL, len(got))
	}
	sameRows(t, "restored", x, truth(t, s, l))
}

// A snapshot that is damaged, cut, of another model or of another format is not used, and
// the load from SQLite that replaces it writes a good one.
func TestVectorSnapshotDamaged(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	l := embed.NewLocal(0)
	seedNotes(t, s, l, 0, 12)
	_, _, want, _ := loads(t, s, l)
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
		used, _, got, _ := loads(t, s, l)
		if used || !slices.Equal(got, want) {
			t.Fatalf("%s: snapshot used %v, ids %v, want %v", c.name, used, got, want)
		}
		if used, _, _, _ := loads(t, s, l); !used {
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
	db, err := sql.Open("sqlite", filepath.Join(s.Home(), "memory", "index.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var head, tag int64
	if err := db.QueryRowContext(ctx, `SELECT seq, tag FROM recall_vec_log ORDER BY seq DESC LIMIT 1`).Scan(&head, &tag); err != nil {
		t.Fatal(err)
	}
	x.saveSnapshot(memory.VectorState{Head: head, Tag: tag, Known: true})
	y := NewIndex(s, l.Model())
	if !y.loadSnapshot(ctx) {
		t.Fatal("the snapshot of a folding index was not loaded")
	}
	sameArrays(t, "two stages", x, y)
	if y.seq != head {
		t.Fatalf("the log position read back is %d, want %d", y.seq, head)
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

// A process that follows the log for long (the app) saves the snapshot as it ends when it is
// resaveAfter changes or more ahead of the one on disk, so the next process replays nothing;
// fewer changes leave the file alone (a save writes every vector).
func TestVectorSnapshotSavedAtTheEnd(t *testing.T) {
	s, err := memory.Open(context.Background(), t.TempDir(), memory.Options{Logger: quiet, Location: time.UTC, QuotaLimit: 2000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	l := embed.NewLocal(0)
	seedNotes(t, s, l, 0, 20)
	_, fromSQL, _, a := loads(t, s, l)
	if !fromSQL {
		t.Fatal("the first load did not read SQLite")
	}
	fileSeq := func() int64 {
		t.Helper()
		b, err := os.ReadFile(s.VectorSnapshotPath())
		if err != nil || len(b) < 24 {
			t.Fatalf("snapshot: %v", err)
		}
		return int64(binary.LittleEndian.Uint64(b[16:]))
	}
	follow := func() { // the running process searches after the writes: it follows the log
		t.Helper()
		if _, err := a.Search(context.Background(), l.Vector("lighthouse"), 5, memory.Filter{Scope: memory.ScopeGlobal}); err != nil {
			t.Fatal(err)
		}
	}
	start := fileSeq()
	seedNotes(t, s, l, 20, 20+resaveAfter/2)
	follow()
	a.SaveIfBehind(context.Background())
	if got := fileSeq(); got != start {
		t.Fatalf("saved after %d changes (file at %d, was %d): want no save under %d", resaveAfter/2, got, start, resaveAfter)
	}
	seedNotes(t, s, l, 20+resaveAfter/2, 20+resaveAfter+10)
	follow()
	if got := fileSeq(); got != start {
		t.Fatal("a running process saved while it followed the log")
	}
	a.SaveIfBehind(context.Background())
	a.mu.RLock()
	seq := a.seq
	a.mu.RUnlock()
	if got := fileSeq(); got != seq || seq == start {
		t.Fatalf("after %d changes the file is at %d, want the index's %d (was %d)", resaveAfter+10, got, seq, start)
	}
	snap, sql2, _, b := loads(t, s, l)
	if !snap || sql2 || b.behind != 0 {
		t.Fatalf("next process: from the snapshot %v, from SQLite %v, replayed %d: want the snapshot and nothing to replay", snap, sql2, b.behind)
	}
	sameRows(t, "saved at the end", b, truth(t, s, l))
}
