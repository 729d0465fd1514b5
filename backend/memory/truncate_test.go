package memory

import (
	"database/sql"
	"fmt"
	"os"
	"testing"
)

// The index file cut short in place under a running process (a tool emptying it, a failing
// disk) must not kill the process: reads and writes answer, with an error at worst (the store
// reports a damaged index and rebuilds it at the next start). Reads through a memory map of
// the file took SIGBUS here, a fatal error no recover() catches.
func TestTruncatedIndexDoesNotKillTheProcess(t *testing.T) {
	e := newEnv(t)
	fillAndCut(t, e, 200, 4096)
	// Each of these may fail; none may take the process down.
	_, _, _ = e.s.List(e.ctx, Filter{Limit: 500})
	_, _ = e.s.Find(e.ctx, "lighthouses", Filter{Limit: 50})
	res, err := e.s.ApplyBatch(e.ctx, Batch{Actor: ActorUser, Items: []Item{{Op: OpWrite, Scope: ScopeGlobal,
		Type: TypeReference, Slug: "after-the-cut", Title: sp("After"), Body: sp("written after the index was cut"), Confidence: ConfidenceLow}}})
	// A write it acknowledged, if any, is on disk whatever the index says.
	if err == nil && len(res.Results) == 1 && res.Results[0].OK {
		if _, err := os.Stat(e.s.abs("global/reference/after-the-cut.md")); err != nil {
			t.Fatalf("an acknowledged write is not on disk: %v", err)
		}
	}
}

// fillAndCut writes n memories, moves them from the write-ahead log into the index file and
// cuts the file to size bytes in place, as a tool emptying it or a failing disk would.
func fillAndCut(t *testing.T, e *env, n int, size int64) {
	t.Helper()
	for i := 0; i < n; i++ {
		e.ok(Item{Op: OpWrite, Scope: ScopeGlobal, Type: TypeReference, Slug: fmt.Sprintf("note-%03d", i),
			Title: sp(fmt.Sprintf("Note %d", i)), Body: sp(fmt.Sprintf("body %d about lighthouses and harbours", i)), Confidence: ConfidenceLow})
	}
	db, err := sql.Open("sqlite", e.s.indexPath())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := os.Truncate(e.s.indexPath(), size); err != nil {
		t.Fatal(err)
	}
}
