package memory

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/oklog/ulid/v2"
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
		list, err := e.s.RankTrigrams(e.ctx, QuotePhrase(q), Filter{}, TimeWindow{}, 50)
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

// A new index gets indexPageSize (16 KiB) pages and incremental auto-vacuum, and a reindex hands back the pages
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

// A full rebuild drops memory_meta's secondary indexes and builds them again from the finished
// table: afterwards the same indexes exist with the same definitions, queries still use them,
// and the turn index (migration 14) holds only the memories recorded from a conversation turn.
func TestReindexRebuildsMetaIndexes(t *testing.T) {
	e := newEnv(t)
	schema := func() string {
		t.Helper()
		return strings.Join(columnOf(t, e.s.db, `SELECT name || ': ' || COALESCE(sql, '') FROM sqlite_schema
			WHERE tbl_name = 'memory_meta' AND type IN ('index', 'trigger') ORDER BY name`), "\n")
	}
	// Ten memories from conversation turns, twenty placed by hand (no session).
	for i := 0; i < 10; i++ {
		it := wr(fmt.Sprintf("note-%02d", i), "Note", "body of a note")
		it.Source = &Source{Kind: "import", Session: "chat-1", Turn: 3 * i}
		e.ok(it)
	}
	for i := 0; i < 20; i++ {
		e.put(fmt.Sprintf("global/reference/hand-%02d.md", i), handFile(ulid.Make().String(), "Hand made", "written in vim"))
	}
	e.reconcile()
	before := schema()
	if !strings.Contains(before, "memory_meta_turn") || !strings.Contains(before, "memory_meta_bucket") ||
		!strings.Contains(before, "memory_meta_path_insert") || !strings.Contains(before, "memory_meta_path_update") {
		t.Fatalf("indexes missing before the reindex:\n%s", before)
	}
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	if after := schema(); after != before {
		t.Fatalf("indexes after reindex:\n%s\nwant:\n%s", after, before)
	}
	// The path triggers the rebuild dropped are back: a second row at a taken path is refused.
	if _, err := e.s.db.ExecContext(e.ctx, `INSERT INTO memory_meta(id, path, slug, scope, type, created, updated, version, mtime, size)
		SELECT 'dup', path, 'dup', scope, type, created, updated, version, mtime, size FROM memory_meta LIMIT 1`); err == nil ||
		!strings.Contains(err.Error(), "UNIQUE constraint failed: memory_meta.path") {
		t.Fatalf("a second row at a taken path after the reindex: %v", err)
	}
	// Only the ten memories with a session are in the turn index.
	if n := e.count(`SELECT COUNT(*) FROM memory_meta INDEXED BY memory_meta_turn
		WHERE json_extract(source, '$.session') IS NOT NULL`); n != 10 {
		t.Fatalf("turn index holds %d memories, want 10", n)
	}
	if n := e.count(`SELECT SUM(ncell) FROM dbstat WHERE name = 'memory_meta_turn' AND pagetype = 'leaf'`); n != 10 {
		t.Fatalf("turn index has %d entries, want 10 (only memories from a turn)", n)
	}
	got, err := e.s.TurnRIDs(e.ctx, []TurnKey{{Session: "chat-1", Turn: 3}, {Session: "chat-1", Turn: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("TurnRIDs = %v, want the memory of turn 3 only", got)
	}
	for _, q := range []string{
		`WITH want(s, t) AS (VALUES ('chat-1', 3)) SELECT m.rid FROM want JOIN memory_meta m
			ON json_extract(m.source, '$.session') = want.s AND json_extract(m.source, '$.turn') = want.t WHERE m.archived = 0`,
		`SELECT DISTINCT json_extract(source, '$.turn') FROM memory_meta WHERE json_extract(source, '$.session') = 'chat-1'
			AND json_extract(source, '$.turn') BETWEEN 1 AND 9 AND COALESCE(json_extract(source, '$.agent'), '') IN ('', 'a')`,
	} {
		if plan := e.plan(q); !strings.Contains(plan, "memory_meta_turn") {
			t.Fatalf("query does not use the turn index:\n%s\n%s", q, plan)
		}
	}
}

// plan is SQLite's query plan for q, its details joined.
func (e *env) plan(q string) string {
	e.t.Helper()
	rows, err := e.s.db.QueryContext(e.ctx, `EXPLAIN QUERY PLAN `+q)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, detail)
	}
	return strings.Join(out, "\n")
}

// ftsSegments reads the number of segments in a full-text table's structure record (its
// data row 10): a 4-byte cookie, the version-2 marker of a contentless_delete table, then
// varints nLevel and nSegment.
func ftsSegments(t *testing.T, e *env, table string) int {
	t.Helper()
	return ftsSegmentsIn(t, e, e.s.db, table)
}

// ftsSegmentsIn is ftsSegments as q (a transaction) sees the table.
func ftsSegmentsIn(t *testing.T, e *env, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, table string) int {
	t.Helper()
	var rec []byte
	if err := q.QueryRowContext(e.ctx, `SELECT block FROM `+table+`_data WHERE id = 10`).Scan(&rec); err != nil {
		t.Fatal(err)
	}
	i := 4
	if len(rec) >= 8 && string(rec[4:8]) == "\xff\x00\x00\x01" {
		i += 4
	}
	varint := func() int {
		v := 0
		for n := 0; n < 9 && i < len(rec); n++ {
			b := rec[i]
			i++
			v = v<<7 | int(b&0x7f)
			if b < 0x80 {
				break
			}
		}
		return v
	}
	varint() // levels
	return varint()
}

// A bulk build (a reindex, or a walk that indexed thousands of files) leaves each full-text
// table in one segment: smaller, and one lookup per term. Small reconciles do not merge.
func TestBulkBuildMergesFullText(t *testing.T) {
	e := newEnv(t)
	// A small bulk build: FTS5 flushes a segment per megabyte of pending terms by default, and
	// this table per 16 KiB ('hashsize'), so sixty files make as many segments as thousands.
	const files = 60
	e.s.bulkRows = files - 10
	for _, tbl := range []string{"memory_fts", "memory_fts_tri"} {
		if _, err := e.s.db.ExecContext(e.ctx, `INSERT INTO `+tbl+`(`+tbl+`, rank) VALUES('hashsize', 16384)`); err != nil {
			t.Fatal(err)
		}
	}
	words := strings.Fields("river stone lantern copper meadow harbor violet engine garden pepper " +
		"orbit canyon ladder velvet summit quartz thistle ember falcon willow 河流 石头 灯笼 铜 草地 港口")
	var b strings.Builder
	for i := 0; i < files; i++ {
		b.Reset()
		for j := 0; j < 300; j++ {
			b.WriteString(words[(i*7+j*13)%len(words)])
			fmt.Fprintf(&b, "%d ", (i+j)%997)
		}
		e.put(fmt.Sprintf("global/reference/bulk-%05d.md", i), handFile(ulid.Make().String(), fmt.Sprintf("Bulk %d", i), b.String()))
	}
	if rep := e.reconcile(); rep.Added != files {
		t.Fatalf("reconcile %+v", rep)
	}
	for _, tbl := range []string{"memory_fts", "memory_fts_tri"} {
		if n := ftsSegments(t, e, tbl); n != 1 {
			t.Fatalf("after a bulk reconcile %s has %d segments, want 1", tbl, n)
		}
	}
	// Small reconciles add a segment each and merge nothing; a reindex merges them again.
	for i := 0; i < 3; i++ {
		e.put(fmt.Sprintf("global/reference/later-%d.md", i), handFile(ulid.Make().String(), "Later", "a later note about lanterns"))
		if rep := e.reconcile(); rep.Added != 1 {
			t.Fatalf("reconcile %+v", rep)
		}
	}
	if n := ftsSegments(t, e, "memory_fts"); n < 2 {
		t.Fatalf("after three small reconciles memory_fts has %d segments: the check cannot tell a merge", n)
	}
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	for _, tbl := range []string{"memory_fts", "memory_fts_tri"} {
		if n := ftsSegments(t, e, tbl); n != 1 {
			t.Fatalf("after a reindex %s has %d segments, want 1", tbl, n)
		}
	}
	if hits := e.search("lantern", Filter{}); len(hits) == 0 {
		t.Fatal("the merged index finds nothing")
	}
}
