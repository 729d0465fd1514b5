package memory

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
)

func TestMigrationsFreshHome(t *testing.T) {
	e := newEnv(t)
	if len(migrations) < 2 {
		t.Fatal("expected at least two migrations")
	}
	// Numbered in order; a number may be skipped while a parallel branch holds it (14).
	for i, m := range migrations {
		if m.version < i+1 || (i > 0 && m.version <= migrations[i-1].version) {
			t.Fatalf("migration %d has version %d: versions must increase from 1", i, m.version)
		}
	}
	rows, err := e.s.db.Query(`SELECT version, name, applied_at FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []int
	for rows.Next() {
		var v int
		var name, at string
		if err := rows.Scan(&v, &name, &at); err != nil {
			t.Fatal(err)
		}
		if name == "" || at == "" {
			t.Errorf("migration %d recorded without name/time", v)
		}
		got = append(got, v)
	}
	// One row per migration (numbers may skip one a parallel branch holds), the newest last.
	if len(got) != len(migrations) || got[len(got)-1] != SchemaVersion() {
		t.Fatalf("schema_migrations = %v, want the %d migrations up to %d", got, len(migrations), SchemaVersion())
	}
	for _, table := range []string{"memory_meta", "memory_fts", "memory_fts_tri", "memory_vec", "memory_audit_log",
		"memory_rejections", "memory_organize_runs", "extraction_runs", "graph_entities", "graph_relations",
		"graph_mentions", "llm_usage", "settings", "memory_access", "memory_problems", "projects"} {
		if n := e.count(`SELECT COUNT(*) FROM sqlite_master WHERE name = ?`, table); n != 1 {
			t.Errorf("table %s missing", table)
		}
	}
	if n := e.count(`SELECT COUNT(*) FROM settings WHERE key = 'index.needs_reindex'`); n != 0 {
		t.Fatal("reindex flag left set after open")
	}
	var mode string
	e.s.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	if mode != "wal" {
		t.Fatalf("journal_mode = %s", mode)
	}
	// reopening applies nothing twice.
	e.reopen()
	if n := e.count(`SELECT COUNT(*) FROM schema_migrations`); n != len(migrations) {
		t.Fatalf("%d rows after reopen", n)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	e := newEnv(t)
	if _, err := e.s.db.Exec(`INSERT INTO schema_migrations VALUES (?, 'from the future', '2030-01-01T00:00:00Z')`, SchemaVersion()+1); err != nil {
		t.Fatal(err)
	}
	e.s.Close()
	s, err := Open(e.ctx, e.home, e.opts)
	if err == nil {
		s.Close()
		t.Fatal("opened an index newer than this build")
	}
}

func TestReindexFlagRebuildsOnOpen(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("flagged", "F", "rebuild me"))
	// damage the index the way an interrupted rebuild would, and ask for a reindex.
	if _, err := e.s.db.Exec(`DELETE FROM memory_fts`); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.db.Exec(`INSERT INTO settings(key, value) VALUES('index.needs_reindex', '1')`); err != nil {
		t.Fatal(err)
	}
	e.reopen()
	if !hasSlug(e.search("rebuild", Filter{}), "flagged") {
		t.Fatal("flagged index not rebuilt on open")
	}
	if n := e.count(`SELECT COUNT(*) FROM settings WHERE key = 'index.needs_reindex'`); n != 0 {
		t.Fatal("flag not cleared")
	}
	if e.get(r.ID).Version != r.Version {
		t.Fatal("row changed across the rebuild")
	}
}

func TestDeletedIndexRebuiltFromFiles(t *testing.T) {
	e := newEnv(t)
	var ids []string
	for _, slug := range []string{"one-one", "two-two", "three-three"} {
		ids = append(ids, e.ok(wr(slug, slug, "text of "+slug)).ID)
	}
	e.ok(Item{Op: OpArchive, ID: ids[2]})
	e.s.Close()
	for _, f := range []string{"index.sqlite3", "index.sqlite3-wal", "index.sqlite3-shm"} {
		os.Remove(filepath.Join(e.home, "memory", f))
	}
	e.s = e.open()
	for _, id := range ids {
		e.get(id)
	}
	if !e.get(ids[2]).Archived {
		t.Fatal("archived state lost when rebuilding from files")
	}
}

// Every earlier schema version upgrades to the newest, keeping history rows (audit,
// rejections) and indexing the files, whichever migration it stopped at.
func TestMigrationFromEveryVersion(t *testing.T) {
	for k := 1; k < len(migrations); k++ {
		t.Run(fmt.Sprintf("from-v%d", migrations[k-1].version), func(t *testing.T) {
			home, fileID := oldHome(t, k)
			ctx := context.Background()
			e := &env{t: t, ctx: ctx, home: home, clock: newClock(baseTime)}
			e.opts = Options{Now: e.clock.Now, Logger: quietLogger}
			e.s = e.open()
			if n := e.count(`SELECT COUNT(*) FROM schema_migrations`); n != len(migrations) {
				t.Fatalf("schema_migrations has %d rows, want %d", n, len(migrations))
			}
			if n := e.count(`SELECT MAX(version) FROM schema_migrations`); n != SchemaVersion() {
				t.Fatalf("at v%d after upgrade", n)
			}
			if a, err := e.s.Audit(ctx, "old-id", 5); err != nil || len(a) != 2 {
				t.Fatalf("history lost: %v %v", a, err)
			}
			if m := e.get(fileID); m.Slug != "old-file" {
				t.Fatalf("file not indexed after upgrade: %+v", m)
			}
			if hits := e.search("upgrade", Filter{}); !hasSlug(hits, "old-file") {
				t.Fatalf("not searchable after upgrade: %v", hitSlugs(hits))
			}
			e.wantCode(wr("rejected-before", "t", "b"), CodeRejectedSlug)
			e.ok(wr("after-upgrade", "t", "b"))
		})
	}
}

// oldHome makes a home whose index stopped after the first k migrations, with history rows
// and a memory file written in those days but never indexed.
func oldHome(t *testing.T, k int) (home, fileID string) {
	t.Helper()
	home = t.TempDir()
	root := filepath.Join(home, "memory")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := openDB(filepath.Join(root, "index.sqlite3"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`)
	for _, m := range migrations[:k] {
		exec(m.sql)
		exec(`INSERT INTO schema_migrations VALUES (?, ?, '2024-01-01T00:00:00Z')`, m.version, m.name)
	}
	exec(`INSERT INTO memory_audit_log(ts, op, actor, memory_id, slug, result) VALUES
		('2024-01-01T00:00:00Z', 'write', 'user', 'old-id', 'old', 'ok'), ('2024-01-02T00:00:00Z', 'delete', 'user', 'old-id', 'old', 'ok')`)
	exec(`INSERT INTO memory_rejections VALUES ('global', '', 'rejected-before', 't', '2099-01-01T00:00:00Z', '2099-01-08T00:00:00Z')`)
	fileID = ulid.Make().String()
	p := filepath.Join(root, "global", "user", "old-file.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, handFile(fileID, "Old", "written before the upgrade"), 0o644); err != nil {
		t.Fatal(err)
	}
	return home, fileID
}

// Migration 16 rebuilds memory_meta: the rows keep their rids (vectors, graph rows and the
// full-text tables point at them), the index-form times become exact Unix milliseconds, and
// paths stay unique without the UNIQUE constraint's index, through the triggers over the
// covering path index.
func TestLeanRowsMigration(t *testing.T) {
	db, err := openDB(filepath.Join(t.TempDir(), "index.sqlite3"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	exec := func(q string, args ...any) error {
		_, err := db.ExecContext(ctx, q, args...)
		return err
	}
	if err := exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	var at int
	for i, m := range migrations {
		if m.version == 16 {
			at = i
			break
		}
		if err := applyMigration(ctx, db, m); err != nil {
			t.Fatal(err)
		}
	}
	insert := `INSERT INTO memory_meta(rid, id, path, slug, scope, type, created, updated, version, mtime, size, body)
		VALUES(?, ?, ?, ?, 'global', 'user', ?, ?, 'v', 1, 2, 'b')`
	rows := []struct {
		rid              int64
		id, path         string
		created, updated string
		wantC, wantU     int64
	}{
		{7, "a", "global/user/a.md", "2024-05-06T07:08:09.123456789Z", "2024-05-06T07:08:10.000000000Z", 1714979289123, 1714979290000},
		{42, "b", "global/user/b.md", "1999-12-31T23:59:59.999000000Z", "2026-01-01T00:00:00.000000000Z", 946684799999, 1767225600000},
		{43, "c", "global/user/c.md", "0001-01-01T00:00:00.000000000Z", "0001-01-01T00:00:00.000000000Z", time.Time{}.UnixMilli(), time.Time{}.UnixMilli()},
	}
	for _, r := range rows {
		if err := exec(insert, r.rid, r.id, r.path, r.id, r.created, r.updated); err != nil {
			t.Fatal(err)
		}
	}
	if err := applyMigration(ctx, db, migrations[at]); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		var created, updated int64
		var path string
		if err := db.QueryRowContext(ctx, `SELECT created, updated, path FROM memory_meta WHERE rid = ?`, r.rid).Scan(&created, &updated, &path); err != nil {
			t.Fatalf("rid %d: %v", r.rid, err)
		}
		if created != r.wantC || updated != r.wantU || path != r.path {
			t.Errorf("rid %d: created %d updated %d path %s, want %d %d %s", r.rid, created, updated, path, r.wantC, r.wantU, r.path)
		}
		if got := fromMetaTime(created); metaTime(got) != created {
			t.Errorf("rid %d: %d does not round-trip (%v)", r.rid, created, got)
		}
	}
	var autoindexes int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE tbl_name = 'memory_meta' AND name LIKE 'sqlite_autoindex%'`).Scan(&autoindexes); err != nil {
		t.Fatal(err)
	}
	if autoindexes != 1 {
		t.Errorf("%d automatic indexes on memory_meta, want 1 (id's)", autoindexes)
	}
	// Paths stay unique: a new row or a rename onto a taken path fails, a row rewritten at its
	// own path or moved to a free one does not.
	if err := exec(insert, 50, "d", "global/user/a.md", "d", 1, 1); err == nil || !strings.Contains(err.Error(), "UNIQUE constraint failed: memory_meta.path") {
		t.Errorf("second row at a taken path: %v", err)
	}
	if err := exec(`UPDATE memory_meta SET path = 'global/user/a.md' WHERE rid = 42`); err == nil || !strings.Contains(err.Error(), "UNIQUE") {
		t.Errorf("rename onto a taken path: %v", err)
	}
	if err := exec(`UPDATE memory_meta SET path = path, title = 'x' WHERE rid = 42`); err != nil {
		t.Errorf("rewrite at its own path: %v", err)
	}
	if err := exec(`UPDATE memory_meta SET path = 'global/user/free.md' WHERE rid = 42`); err != nil {
		t.Errorf("rename to a free path: %v", err)
	}
	if err := exec(insert, 51, "e", "global/user/b.md", "e", 1, 1); err != nil {
		t.Errorf("row at the path a rename freed: %v", err)
	}
	var plan string
	if err := db.QueryRowContext(ctx, `EXPLAIN QUERY PLAN SELECT rid FROM memory_meta WHERE path = ?`, "x").Scan(new(int), new(int), new(int), &plan); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "memory_meta_path") {
		t.Errorf("a path lookup does not use the path index: %s", plan)
	}
}

// Migration 16 copies memory_meta; the pages of the old rows go back to the file system
// instead of staying in the file, both in an index with incremental auto-vacuum and in an
// older one without it.
func TestLeanRowsMigrationHandsBackPages(t *testing.T) {
	for _, incremental := range []bool{true, false} {
		t.Run(fmt.Sprintf("incremental=%v", incremental), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index.sqlite3")
			if incremental {
				if err := os.WriteFile(path, nil, 0o600); err != nil {
					t.Fatal(err)
				}
				if err := newIndexPageSize(path); err != nil {
					t.Fatal(err)
				}
			}
			db, err := openDB(path, false)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ctx := context.Background()
			if _, err := db.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`); err != nil {
				t.Fatal(err)
			}
			for _, m := range migrations {
				if m.version == 16 {
					break
				}
				if err := applyMigration(ctx, db, m); err != nil {
					t.Fatal(err)
				}
			}
			// 600 rows of ~2 kB (~1.3 MB, a few hundred pages: a migration that left the old
			// table's pages free would leave about half the file free), in one transaction.
			body := strings.Repeat("words to fill a page ", 100)
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 600 {
				if _, err := tx.ExecContext(ctx, `INSERT INTO memory_meta(id, path, slug, scope, type, created, updated, version, mtime, size, body)
					VALUES(?, ?, 's', 'global', 'user', '2024-01-01T00:00:00.000000000Z', '2024-01-01T00:00:00.000000000Z', 'v', 1, 2, ?)`,
					fmt.Sprint(i), fmt.Sprintf("global/user/%d.md", i), body); err != nil {
					t.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			pages := func() (n, free int64) {
				t.Helper()
				if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
					t.Fatal(err)
				}
				if err := db.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&n); err != nil {
					t.Fatal(err)
				}
				if err := db.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&free); err != nil {
					t.Fatal(err)
				}
				return n, free
			}
			before, _ := pages()
			if _, err := migrate(ctx, db); err != nil {
				t.Fatal(err)
			}
			after, free := pages()
			if after > before*11/10 || free > after/10 {
				t.Errorf("index of %d pages became %d pages, %d of them free", before, after, free)
			}
		})
	}
}

// A row an older build wrote while it ran beside this one during the upgrade (its times as
// index-form text in the INTEGER columns) still reads, in Get, the Memory Index lists and the
// quota's oldest unreviewed memory.
func TestRowWithOlderTimesStillReads(t *testing.T) {
	e := newEnv(t)
	it := wr("older", "Older", "written by an older build")
	it.Reviewed = bp(false)
	id := e.ok(it).ID
	const at = "2024-05-06T07:08:09.000000000Z"
	if _, err := e.s.db.ExecContext(e.ctx, `UPDATE memory_meta SET created = ?, updated = ? WHERE id = ?`, at, at, id); err != nil {
		t.Fatal(err)
	}
	want, _ := time.Parse(time.RFC3339Nano, at)
	if m := e.get(id); !m.Created.Equal(want) || !m.Updated.Equal(want) {
		t.Fatalf("created %v updated %v, want %v", m.Created, m.Updated, want)
	}
	buckets, err := e.s.IndexBuckets(e.ctx, Filter{}, 10, "")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range buckets {
		for _, en := range b.Entries {
			if en.ID == id {
				found = en.Updated.Equal(want)
			}
		}
	}
	if !found {
		t.Fatalf("the row is not listed with its time: %+v", buckets)
	}
	sum, err := e.s.Quota(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	days := -1
	for _, q := range sum.Scopes {
		if q.Scope == ScopeGlobal {
			days = q.OldestUnreviewedDays
		}
	}
	if wantDays := int(e.clock.Now().Sub(want).Hours() / 24); days != wantDays {
		t.Fatalf("oldest unreviewed %d days ago, want %d", days, wantDays)
	}
}

// A migration that asks for a reindex flags it in its own transaction: a process killed after
// the migration committed and before the rest of migrate ran must still leave the flag, or the
// next open never reindexes (it finds nothing left to migrate).
func TestMigrationFlagsReindexWithItsCommit(t *testing.T) {
	for k := 1; k < len(migrations); k++ {
		m := migrations[k]
		if !m.needsReindex {
			continue
		}
		t.Run(fmt.Sprintf("v%d", m.version), func(t *testing.T) {
			home, _ := oldHome(t, k)
			db, err := openDB(filepath.Join(home, "memory", "index.sqlite3"), false)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ctx := context.Background()
			// Only this migration, as if the process died right after it committed.
			if err := applyMigration(ctx, db, m); err != nil {
				t.Fatal(err)
			}
			var flag string
			if err := db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = 'index.needs_reindex'`).Scan(&flag); err != nil || flag != "1" {
				t.Fatalf("reindex flag after migration %d alone: %q %v", m.version, flag, err)
			}
		})
	}
}

// A new index takes every step in one transaction (applyFresh); an index that stopped after
// some steps takes the rest one by one. Both must end in the same schema, the same recorded
// steps and the same settings rows, or a fresh home would differ from an upgraded one.
func TestFreshIndexMatchesOneStepAtATime(t *testing.T) {
	ctx := context.Background()
	type shape struct{ schema, steps, settings []string }
	read := func(t *testing.T, path string) shape {
		t.Helper()
		db, err := openDB(path, true)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		list := func(q string) []string {
			rows, err := db.QueryContext(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var out []string
			for rows.Next() {
				var a, b string
				if err := rows.Scan(&a, &b); err != nil {
					t.Fatal(err)
				}
				out = append(out, a+" | "+b)
			}
			return out
		}
		return shape{
			schema:   list(`SELECT type || ' ' || name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name`),
			steps:    list(`SELECT CAST(version AS TEXT), name FROM schema_migrations ORDER BY version`),
			settings: list(`SELECT key, value FROM settings ORDER BY key`),
		}
	}
	// One at a time: the first step alone (as an index of the first release), then migrate.
	stepwise := filepath.Join(t.TempDir(), "index.sqlite3")
	db, err := openDB(stepwise, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, stepsTable); err != nil {
		t.Fatal(err)
	}
	if err := applyMigration(ctx, db, migrations[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	fresh := filepath.Join(t.TempDir(), "index.sqlite3")
	if db, err = openDB(fresh, false); err != nil {
		t.Fatal(err)
	}
	if _, err := migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	a, b := read(t, stepwise), read(t, fresh)
	for _, c := range []struct {
		what     string
		one, all []string
	}{{"schema", a.schema, b.schema}, {"steps", a.steps, b.steps}, {"settings", a.settings, b.settings}} {
		if strings.Join(c.one, "\n") != strings.Join(c.all, "\n") {
			t.Errorf("%s differs:\none step at a time:\n%s\n\nnew index:\n%s", c.what, strings.Join(c.one, "\n"), strings.Join(c.all, "\n"))
		}
	}
	if len(b.steps) != len(migrations) {
		t.Fatalf("a new index recorded %d steps, want %d", len(b.steps), len(migrations))
	}
}
