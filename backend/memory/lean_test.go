package memory

import (
	"fmt"
	"strings"
	"testing"
)

// The lean index (lean.go): bodies live once, in memory_meta; both full-text tables are
// contentless and follow every write, edit and delete; the trigram table holds names and
// short bodies only, and grep still finds a substring of a long body.
func TestLeanIndex(t *testing.T) {
	e := newEnv(t)
	long := strings.Repeat("ordinary filler words about the weekly planning meeting. ", 12) +
		"The deploy uses kubernetesoperator v2. " + strings.Repeat("更多的内容在这里。", 10)
	if len(long) <= trigramBodyMax {
		t.Fatalf("long body has %d bytes, want more than %d", len(long), trigramBodyMax)
	}
	shortID := e.ok(wr("short-note", "Coffee order", "Prefers a flat white with oat milk")).ID
	longID := e.ok(wr("long-note", "Planning notes", long)).ID
	e.ok(wr("gone-note", "Temporary", "Something about zanzibar islands"))

	// No body is stored by either full-text table: both are contentless.
	for _, tbl := range []string{"memory_fts", "memory_fts_tri"} {
		var sqlText string
		if err := e.s.db.QueryRowContext(e.ctx, `SELECT sql FROM sqlite_master WHERE name = ?`, tbl).Scan(&sqlText); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(sqlText, "content = ''") || !strings.Contains(sqlText, "contentless_delete = 1") {
			t.Fatalf("%s is not contentless: %s", tbl, sqlText)
		}
		if n := e.count(`SELECT COUNT(*) FROM sqlite_master WHERE name = ?`, tbl+"_content"); n != 0 {
			t.Fatalf("%s keeps a content table", tbl)
		}
	}

	words := func(q string) []int64 {
		t.Helper()
		list, err := e.s.RankWords(e.ctx, BuildFTSQuery(q, "OR"), testWeights, Filter{}, TimeWindow{}, 50)
		if err != nil {
			t.Fatal(err)
		}
		return ridsOf(list)
	}
	tri := func(q string) []int64 {
		t.Helper()
		list, err := e.s.RankTrigrams(e.ctx, QuoteFTS(q), Filter{}, TimeWindow{}, 50)
		if err != nil {
			t.Fatal(err)
		}
		return ridsOf(list)
	}
	rid := func(id string) int64 {
		return int64(e.count(`SELECT rid FROM memory_meta WHERE id = ?`, id))
	}
	grep := func(lit string) []string {
		t.Helper()
		var slugs []string
		if err := e.s.ScanMemories(e.ctx, Filter{}, lit, func(m *Memory) bool {
			if strings.Contains(strings.ToLower(m.Title+"\n"+m.Body), strings.ToLower(lit)) {
				slugs = append(slugs, m.Slug)
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
		return slugs
	}

	if !containsRID(words("kubernetesoperator"), rid(longID)) || !containsRID(words("内容"), rid(longID)) {
		t.Fatal("a long body's words are not in the word index")
	}
	if !containsRID(tri("oat mil"), rid(shortID)) {
		t.Fatal("a short body's substring is not in the trigram index")
	}
	if containsRID(tri("netesoperat"), rid(longID)) {
		t.Fatal("a long body was put in the trigram index")
	}
	if !containsRID(tri("lanning not"), rid(longID)) {
		t.Fatal("a long memory's title is not in the trigram index")
	}
	if got := grep("netesOPERAT"); len(got) != 1 || got[0] != "long-note" {
		t.Fatalf("grep of a long body's substring = %v", got)
	}
	if got := grep("flat whi"); len(got) != 1 || got[0] != "short-note" {
		t.Fatalf("grep of a short body's substring = %v", got)
	}

	// Edits and deletes keep both tables in step: old text stops matching, new text matches.
	e.ok(Item{Op: OpUpdate, ID: shortID, Mode: "replace", Body: sp("Switched to green tea with jasmine")})
	if containsRID(words("oat"), rid(shortID)) || containsRID(tri("oat mil"), rid(shortID)) {
		t.Fatal("edited-away text still matches")
	}
	if !containsRID(words("jasmine"), rid(shortID)) || !containsRID(tri("asmin"), rid(shortID)) {
		t.Fatal("edited text does not match")
	}
	e.ok(Item{Op: OpDelete, Slug: "gone-note", Scope: ScopeGlobal})
	if len(words("zanzibar")) != 0 || len(tri("anzib")) != 0 {
		t.Fatal("a deleted memory still matches")
	}
	if err := e.s.FullTextCheck(e.ctx); err != nil {
		t.Fatal(err)
	}
	rep, err := e.s.Doctor(e.ctx)
	if err != nil || !rep.FTSConsistent {
		t.Fatalf("doctor: consistent=%v err=%v", rep.FTSConsistent, err)
	}

	// RebuildFullText refills emptied tables from memory_meta alone.
	for _, q := range clearFullTextQueries {
		if _, err := e.s.db.ExecContext(e.ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if len(words("jasmine")) != 0 {
		t.Fatal("delete-all left rows")
	}
	if err := e.s.RebuildFullText(e.ctx); err != nil {
		t.Fatal(err)
	}
	if !containsRID(words("jasmine"), rid(shortID)) || !containsRID(words("kubernetesoperator"), rid(longID)) ||
		!containsRID(tri("asmin"), rid(shortID)) {
		t.Fatal("rebuild did not restore the full-text index")
	}
	if err := e.s.FullTextCheck(e.ctx); err != nil {
		t.Fatal(err)
	}
	// A full reindex from the files gives the same answers.
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	if !containsRID(words("jasmine"), rid(shortID)) || grep("netesoperat")[0] != "long-note" {
		t.Fatal("reindex lost the full-text index")
	}
	if err := e.s.FullTextCheck(e.ctx); err != nil {
		t.Fatal(err)
	}
}

// A literal with cased letters beyond ASCII cannot be prefiltered with LIKE (it folds ASCII
// only), so every long body is kept for the caller's own match.
func TestGrepLongBodiesCase(t *testing.T) {
	if cond, args := grepLongBodies("Größe"); len(args) != 0 || strings.Contains(cond, "LIKE") {
		t.Fatalf("cased non-ASCII literal prefiltered: %s %v", cond, args)
	}
	if _, args := grepLongBodies("内容50%"); len(args) != 1 || args[0] != `%内容50\%%` {
		t.Fatalf("uncased literal not prefiltered: %v", args)
	}
}

func ridsOf(list []RankedRID) []int64 {
	out := make([]int64, len(list))
	for i, r := range list {
		out[i] = r.RID
	}
	return out
}

func containsRID(list []int64, rid int64) bool {
	for _, r := range list {
		if r == rid {
			return true
		}
	}
	return false
}

// A new index gets 16 KiB pages and incremental auto-vacuum, and a reindex hands back the pages
// it freed: the file holds no free pages afterwards.
func TestNewIndexPagesAndVacuum(t *testing.T) {
	e := newEnv(t)
	if n := e.count(`PRAGMA page_size`); n != indexPageSize {
		t.Fatalf("page_size = %d, want %d", n, indexPageSize)
	}
	if n := e.count(`PRAGMA auto_vacuum`); n != 2 {
		t.Fatalf("auto_vacuum = %d, want 2 (incremental)", n)
	}
	for i := 0; i < 40; i++ {
		e.ok(wr(fmt.Sprintf("note-%02d", i), "Note", strings.Repeat("filler text for the pages ", 200)))
	}
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	if n := e.count(`PRAGMA freelist_count`); n != 0 {
		t.Fatalf("%d free pages left after reindex", n)
	}
	if n := e.count(`SELECT COUNT(*) FROM sqlite_master WHERE name = 'memory_meta_scope'`); n != 0 {
		t.Fatal("memory_meta_scope (a prefix of memory_meta_bucket) still exists")
	}
}
