package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// opensFromSnapshot reports whether the open that made e.s read the index's stamps from the
// snapshot.
func opensFromSnapshot(e *env) bool { return e.s.stampSnapshots.Load() > 0 }

// An open saves the index's stamps beside it and the next open reads them from there, while
// nothing in memory_meta's paths or stamps changed; any change made through the index — by
// Engram or by hand in SQL — moves the version, and the next open reads the index again.
func TestStampSnapshotFollowsTheIndex(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 20; i++ {
		e.ok(wr("memory-"+strconv.Itoa(i), "Memory "+strconv.Itoa(i), "body "+strconv.Itoa(i)))
	}
	e.reopen() // the writes moved the version: the index is read, and saved
	if opensFromSnapshot(e) {
		t.Fatal("the open after twenty writes used a snapshot taken before them")
	}
	if _, err := os.Stat(e.s.stampsPath()); err != nil {
		t.Fatalf("no snapshot after an open: %v", err)
	}
	e.reopen()
	if !opensFromSnapshot(e) {
		t.Fatal("nothing changed, yet the open read the index's stamps")
	}

	// A row changed in the index, not on disk: only the index's own stamps tell, so an open
	// that used the old snapshot would find the files as it expects and keep the wrong row.
	if _, err := e.s.db.ExecContext(e.ctx, `UPDATE memory_meta SET size = size + 7 WHERE slug = 'memory-3'`); err != nil {
		t.Fatal(err)
	}
	e.reopen()
	if opensFromSnapshot(e) {
		t.Fatal("the open used a snapshot older than the index")
	}
	var rel string
	if err := e.s.db.QueryRowContext(e.ctx, `SELECT path FROM memory_meta WHERE slug = 'memory-3'`).Scan(&rel); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(e.s.abs(rel))
	if err != nil {
		t.Fatal(err)
	}
	if got := e.count(`SELECT size FROM memory_meta WHERE slug = 'memory-3'`); int64(got) != info.Size() {
		t.Fatalf("row size %d after the open, file %d: the open did not reconcile", got, info.Size())
	}

	// An edit through Engram moves the version too.
	e.reopen()
	if !opensFromSnapshot(e) {
		t.Fatal("the snapshot saved after the reconcile was not used")
	}
	e.ok(wr("memory-new", "Memory new", "a new body"))
	e.reopen()
	if opensFromSnapshot(e) {
		t.Fatal("the open after an edit used the snapshot from before it")
	}
}

// A snapshot that is damaged, cut short or from another format is not used: the open reads
// the index and writes a good one.
func TestStampSnapshotDamaged(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 5; i++ {
		e.ok(wr("memory-"+strconv.Itoa(i), "Memory "+strconv.Itoa(i), "body"))
	}
	e.reopen()
	e.reopen()
	if !opensFromSnapshot(e) {
		t.Fatal("the snapshot was not used to begin with")
	}
	good, err := os.ReadFile(e.s.stampsPath())
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)-3] ^= 0x20
	for name, b := range map[string][]byte{
		"a byte flipped": flipped,
		"cut short":      good[:len(good)-5],
		"only the magic": stampsMagic,
		"empty":          nil,
		"another format": append([]byte("ENGRAM-STAMPS-9\n"), good[len(stampsMagic):]...),
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(e.s.stampsPath(), b, 0o600); err != nil {
				t.Fatal(err)
			}
			e.reopen()
			if opensFromSnapshot(e) {
				t.Fatal("a damaged snapshot was used")
			}
			if n := e.count(`SELECT COUNT(*) FROM memory_meta`); n != 5 {
				t.Fatalf("%d rows after the open, want 5", n)
			}
			e.reopen()
			if !opensFromSnapshot(e) {
				t.Fatal("the open did not write a good snapshot back")
			}
		})
	}
}

// A rebuild drops the stamp and vector-log triggers while it rewrites every row and puts them
// back before it commits, with a new stamp version and one change-log row that has every
// vector loaded again.
func TestStampTriggersAfterRebuild(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("memory-1", "Memory 1", "body"))
	before, err := stampVersion(e.ctx, e.s.db)
	if err != nil {
		t.Fatal(err)
	}
	reloads := func() int {
		return e.count(`SELECT COUNT(*) FROM recall_vec_log WHERE rid = ` + fmt.Sprint(VectorLogReload))
	}
	reloadsBefore := reloads()
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	if n := e.count(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'memory_meta_stamps_%'`); n != 3 {
		t.Fatalf("%d stamp triggers after a reindex, want 3", n)
	}
	if n := e.count(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'memory_meta_vectors_%'`); n != 3 {
		t.Fatalf("%d vector-log triggers after a reindex, want 3", n)
	}
	if got := reloads(); got != reloadsBefore+1 {
		t.Fatalf("reload rows %d → %d after a reindex, want one more", reloadsBefore, got)
	}
	after, err := stampVersion(e.ctx, e.s.db)
	if err != nil {
		t.Fatal(err)
	}
	if after == before {
		t.Fatal("a reindex left the stamp version where it was")
	}
	logged := e.count(`SELECT COUNT(*) FROM recall_vec_log`)
	e.ok(wr("memory-2", "Memory 2", "body"))
	if v, _ := stampVersion(e.ctx, e.s.db); v == after {
		t.Fatal("a write after the reindex did not move the stamp version: the triggers are not back")
	}
	if n := e.count(`SELECT COUNT(*) FROM recall_vec_log`); n <= logged {
		t.Fatal("a write after the reindex logged nothing for the vectors: the triggers are not back")
	}
	if n := e.count(`SELECT COUNT(*) FROM recall_vec_log WHERE tag = 0 AND seq > (SELECT MIN(seq) FROM recall_vec_log WHERE rid = -1)`); n != 0 {
		t.Fatalf("%d change-log rows without a tag", n)
	}
}

// A snapshot file a killed process left half-written is removed by a later save once it is
// an hour old; a recent one (another process may be writing it) is left.
func TestStampSnapshotLeftovers(t *testing.T) {
	e := newEnv(t)
	old := e.s.stampsPath() + ".123456"
	recent := e.s.stampsPath() + ".654321"
	for _, name := range []string{old, recent} {
		if err := os.WriteFile(name, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hourAgo := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(old, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	e.ok(wr("memory-1", "Memory 1", "body"))
	e.reopen() // reads the index and saves
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("the old leftover is still there: %v", err)
	}
	if _, err := os.Stat(recent); err != nil {
		t.Fatalf("the recent one was removed: %v", err)
	}
	if matches, _ := filepath.Glob(e.s.stampsPath() + ".*"); len(matches) != 1 {
		t.Fatalf("files beside the snapshot: %v", matches)
	}
}
