package memory

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oklog/ulid/v2"
)

// A transaction that indexes many files holds FTS5's merges back (the segments it flushes
// stay unmerged until the one merge after the build) and puts the default settings back
// before it commits; one that fails rolls the settings back with everything else.
func TestBulkBuildHoldsMerges(t *testing.T) {
	e := newEnv(t)
	for _, tbl := range []string{"memory_fts", "memory_fts_tri"} {
		// A segment per 16 KiB of pending terms, so that sixty notes make many.
		if _, err := e.s.db.ExecContext(e.ctx, `INSERT INTO `+tbl+`(`+tbl+`, rank) VALUES('hashsize', 16384)`); err != nil {
			t.Fatal(err)
		}
	}
	words := strings.Fields("river stone lantern copper meadow harbor violet engine garden pepper orbit canyon ladder velvet summit quartz")
	build := func(hold, commit bool) int {
		tx, err := e.s.db.BeginTx(e.ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		held, err := holdMerges(e.ctx, tx, hold)
		if err != nil || held != hold {
			t.Fatalf("holdMerges(%v) = %v, %v", hold, held, err)
		}
		for i := 0; i < 60; i++ {
			var b strings.Builder
			for j := 0; j < 300; j++ {
				fmt.Fprintf(&b, "%s%d ", words[(i*7+j*13)%len(words)], (i+j)%997)
			}
			m := &Memory{Path: fmt.Sprintf("n%d.md", i), Title: "Note", Body: b.String()}
			if err := insertFullText(e.ctx, tx, int64(1000+i), m, fullTextOf(m)); err != nil {
				t.Fatal(err)
			}
		}
		segs := ftsSegmentsIn(t, e, tx, "memory_fts")
		if commit {
			if err := releaseMerges(e.ctx, tx, held); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		}
		return segs
	}
	merged, held := build(false, false), build(true, false)
	if held <= merged || held < 20 {
		t.Fatalf("sixty notes left %d segments with merges held and %d without: nothing was held", held, merged)
	}
	setting := func(key string) string { return ftsSetting(t, e, key) }
	if a, c := setting("automerge"), setting("crisismerge"); a != "default" || c != "default" {
		t.Fatalf("a build rolled back left automerge %s, crisismerge %s in the config", a, c)
	}
	build(true, true)
	if a, c := setting("automerge"), setting("crisismerge"); a != "4" || c != "16" {
		t.Fatalf("a committed build left automerge %s, crisismerge %s, want FTS5's defaults 4 and 16", a, c)
	}
	// The next ordinary write merges again.
	if n := build(false, false); n > merged+1 {
		t.Fatalf("after the release a build left %d segments, %d before the hold", n, merged)
	}
}

// ftsSetting is a setting in memory_fts's config, or "default" when none is written.
func ftsSetting(t *testing.T, e *env, key string) string {
	t.Helper()
	var v string
	if err := e.s.db.QueryRowContext(e.ctx, `SELECT coalesce((SELECT v FROM memory_fts_config WHERE k = ?), 'default')`, key).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The full-text refill (migrations, repair) holds merges too and leaves one segment and the
// default settings.
func TestRebuildFullTextHoldsMerges(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 5; i++ {
		e.put(fmt.Sprintf("global/reference/n-%d.md", i), handFile(ulid.Make().String(), fmt.Sprintf("Note %d", i), "lanterns by the harbor"))
	}
	e.reconcile()
	if err := e.s.RebuildFullText(e.ctx); err != nil {
		t.Fatal(err)
	}
	if a, c := ftsSetting(t, e, "automerge"), ftsSetting(t, e, "crisismerge"); a != "4" || c != "16" {
		t.Fatalf("after a refill automerge %s, crisismerge %s, want 4 and 16", a, c)
	}
	if n := ftsSegments(t, e, "memory_fts"); n != 1 {
		t.Fatalf("after a refill memory_fts has %d segments, want 1", n)
	}
	if hits := e.search("lantern", Filter{}); len(hits) != 5 {
		t.Fatalf("the refilled index finds %d of 5", len(hits))
	}
}
