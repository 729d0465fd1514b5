package memory

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// intermediateStep20 turns a closed home's index into the one a development build of
// 2026-12-04 (a808716) left: its step 20 was "vector version" (a version table and triggers
// logging memory_meta's changes without a tag), rewritten twenty minutes later under the same
// number. A home on this machine was left that way, and every later build failed its first
// bulk write with "table recall_vec_log has no column named tag".
func intermediateStep20(t *testing.T, home string) {
	t.Helper()
	db, err := sql.Open("sqlite", sqliteURI(filepath.Join(home, "memory", indexName)))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`DROP TRIGGER memory_meta_vectors_insert`, `DROP TRIGGER memory_meta_vectors_delete`, `DROP TRIGGER memory_meta_vectors_update`,
		`DROP TRIGGER recall_vec_ins`, `DROP TRIGGER recall_vec_upd`, `DROP TRIGGER recall_vec_del`,
		`ALTER TABLE recall_vec_log DROP COLUMN tag`,
		`CREATE TRIGGER recall_vec_ins AFTER INSERT ON memory_vec BEGIN INSERT INTO recall_vec_log(rid) VALUES (NEW.rid); END`,
		`CREATE TRIGGER recall_vec_upd AFTER UPDATE ON memory_vec BEGIN INSERT INTO recall_vec_log(rid) VALUES (NEW.rid); END`,
		`CREATE TRIGGER recall_vec_del AFTER DELETE ON memory_vec BEGIN INSERT INTO recall_vec_log(rid) VALUES (OLD.rid); END`,
		`CREATE TABLE vector_version (id INTEGER PRIMARY KEY CHECK (id = 1), v INTEGER NOT NULL)`,
		`INSERT INTO vector_version VALUES (1, random())`,
		`CREATE TRIGGER recall_vec_log_version AFTER INSERT ON recall_vec_log BEGIN UPDATE vector_version SET v = random() WHERE id = 1; END`,
		`CREATE TRIGGER memory_meta_vectors_insert AFTER INSERT ON memory_meta BEGIN INSERT INTO recall_vec_log(rid) VALUES (NEW.rid); END`,
		`CREATE TRIGGER memory_meta_vectors_delete AFTER DELETE ON memory_meta BEGIN INSERT INTO recall_vec_log(rid) VALUES (OLD.rid); END`,
		`UPDATE schema_migrations SET name = 'vector version' WHERE version = 20`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// An index another build migrated differently (a step of the same number under another name)
// is moved aside and rebuilt from the files, its history carried over, and the person is told
// which step differed; a read-only home builds a temporary index instead of using it.
func TestDivergedIndexIsRebuilt(t *testing.T) {
	t.Run("writable home", func(t *testing.T) {
		d := newDamagedHome(t)
		intermediateStep20(t, d.e.home)
		e := d.e
		e.s = e.open()
		rec := e.s.Recovery(e.ctx)
		if rec == nil || rec.Code != CodeIndexReplaced || !strings.Contains(rec.Cause, `20: "vector version"`) {
			t.Fatalf("recovery %+v", rec)
		}
		if !strings.Contains(rec.MovedTo, indexName+".other-build-") {
			t.Fatalf("old copy named %q", rec.MovedTo)
		}
		if _, err := os.Stat(filepath.Join(e.s.Root(), filepath.FromSlash(rec.MovedTo))); err != nil {
			t.Fatalf("old copy not kept: %v", err)
		}
		// The first bulk write of the old index failed; every write works on the rebuilt one.
		e.ok(wr("after-upgrade", "After", "written after the rebuild: wombat"))
		if !hasSlug(e.search("quokka", Filter{}), "kept-memory") || !hasSlug(e.search("wombat", Filter{}), "after-upgrade") {
			t.Fatal("memories not searchable after the rebuild")
		}
		for _, name := range []string{"settings", "memory_rejections", "memory_audit_log", "memory_access"} {
			if st := d.table(t, rec, name); st.Lost != 0 || st.Salvaged == 0 {
				t.Fatalf("%s: %+v", name, st)
			}
		}
		for _, st := range rec.Tables {
			if st.Table == "stamp_version" {
				t.Fatalf("the stamps' version, derived from the files, was carried over: %+v", st)
			}
		}
		e.wantCode(wr(d.rejected, "Again", "written again"), CodeRejectedSlug)
		if n := e.count(`SELECT COUNT(*) FROM sqlite_master WHERE name IN ('vector_version', 'recall_vec_log_version')`); n != 0 {
			t.Fatalf("%d objects of the other build's step left", n)
		}
		if err := checkSteps(e.ctx, e.s.db); err != nil {
			t.Fatal(err)
		}
		// Opened again, the rebuilt index is used as it is.
		e.reopen()
		if e.s.RepairedHere() != nil {
			t.Fatal("the rebuilt index was rebuilt again")
		}
	})
	t.Run("read-only home", func(t *testing.T) {
		d := newDamagedHome(t)
		intermediateStep20(t, d.e.home)
		e := d.e
		e.opts.writable = func(string) bool { return false }
		e.s = e.open()
		if !e.s.ReadOnly() || e.s.tmpIndex == "" {
			t.Fatalf("read-only %v, temporary index %q: the other build's index was used as it is", e.s.ReadOnly(), e.s.tmpIndex)
		}
		if !hasSlug(e.search("quokka", Filter{}), "kept-memory") {
			t.Fatal("memory not found through the temporary index")
		}
	})
}

// Every step's name is checked, and only a name that differs counts.
func TestCheckSteps(t *testing.T) {
	e := newEnv(t)
	if err := checkSteps(e.ctx, e.s.db); err != nil {
		t.Fatalf("a fresh index: %v", err)
	}
	if _, err := e.s.db.Exec(`UPDATE schema_migrations SET name = 'something else' WHERE version = 3`); err != nil {
		t.Fatal(err)
	}
	err := checkSteps(e.ctx, e.s.db)
	var dv *DivergedError
	if !IsDiverged(err) || !errors.As(err, &dv) || dv.Step != 3 || dv.Had != "something else" || dv.Want != migrations[2].name {
		t.Fatalf("renamed step 3: %v", err)
	}
}
