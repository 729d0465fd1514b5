package memory

import (
	"bufio"
	"bytes"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// damagedHome builds a home with memories and history (a setting, a rejection, audit rows,
// access counts), closes it and returns what to expect back.
type damagedHome struct {
	e        *env
	keep     ItemResult
	rejected string
	pages    map[string]int64 // rootpage of each table and index
	pageSize int64
}

func newDamagedHome(t *testing.T) *damagedHome {
	e := newEnv(t)
	d := &damagedHome{e: e, pages: map[string]int64{}}
	d.keep = e.ok(wr("kept-memory", "Kept", "the files keep this: quokka"))
	gone := e.ok(wr("rejected-one", "Rejected", "will be rejected"))
	d.rejected = gone.Slug
	e.ok(Item{Op: OpReject, ID: gone.ID})
	if _, err := e.s.db.Exec(`INSERT INTO settings(key, value) VALUES('ui.theme', '"dark"')`); err != nil {
		t.Fatal(err)
	}
	if err := e.s.TouchAccess(e.ctx, []string{d.keep.ID}, baseTime); err != nil {
		t.Fatal(err)
	}
	rows, err := e.s.db.Query(`SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		var p int64
		rows.Scan(&n, &p)
		d.pages[n] = p
	}
	rows.Close()
	if err := e.s.db.QueryRow(`PRAGMA page_size`).Scan(&d.pageSize); err != nil {
		t.Fatal(err)
	}
	if err := e.s.Close(); err != nil {
		t.Fatal(err)
	}
	return d
}

// smash overwrites one page of the closed index with garbage (page 1 holds the header).
func (d *damagedHome) smash(t *testing.T, page int64) {
	path := filepath.Join(d.e.home, "memory", indexName)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	junk := bytes.Repeat([]byte{0xA5, 0x5A, 0xFF, 0x00}, int(d.pageSize)/4)
	if _, err := f.WriteAt(junk, (page-1)*d.pageSize); err != nil {
		t.Fatal(err)
	}
}

func (d *damagedHome) table(t *testing.T, rec *Recovery, name string) SalvagedTable {
	t.Helper()
	for _, st := range rec.Tables {
		if st.Table == name {
			return st
		}
	}
	t.Fatalf("no salvage line for %s in %+v", name, rec.Tables)
	return SalvagedTable{}
}

// Issue 8 item 11: a damaged index no longer fails every verb. Open moves it aside, rebuilds
// from the files, salvages the history tables it can read and reports what it lost.
func TestDamagedIndexIsRepairedAtOpen(t *testing.T) {
	t.Run("not a database", func(t *testing.T) {
		d := newDamagedHome(t)
		d.smash(t, 1)
		e := d.e
		e.s = e.open()
		rec := e.s.Recovery(e.ctx)
		if rec == nil || rec.Code != CodeIndexRecovered || !strings.Contains(rec.Cause, "not a database") {
			t.Fatalf("recovery %+v", rec)
		}
		if _, err := os.Stat(filepath.Join(e.s.Root(), filepath.FromSlash(rec.MovedTo))); err != nil {
			t.Fatalf("damaged copy not kept: %v", err)
		}
		if got := e.get(d.keep.ID); got.Slug != "kept-memory" || !hasSlug(e.search("quokka", Filter{}), "kept-memory") {
			t.Fatalf("memory not rebuilt from its file: %+v", got)
		}
		if st := d.table(t, rec, "settings"); st.Salvaged != 0 || st.Lost != -1 {
			t.Fatalf("unreadable settings reported as %+v", st)
		}
		rep, err := e.s.Doctor(e.ctx)
		if err != nil || !rep.OK || rep.Recovery == nil || rep.Recovery.MovedTo != rec.MovedTo {
			t.Fatalf("doctor after repair: %v %+v", err, rep)
		}
		// A later process still learns of the repair.
		e.reopen()
		if r := e.s.Recovery(e.ctx); r == nil || r.MovedTo != rec.MovedTo {
			t.Fatalf("repair not remembered: %+v", r)
		}
	})
	t.Run("ruined header", func(t *testing.T) {
		d := newDamagedHome(t)
		path := filepath.Join(d.e.home, "memory", indexName)
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteAt([]byte("garbage garbage garbage garbage garbage"), 0)
		f.Close()
		e := d.e
		e.s = e.open()
		rec := e.s.Recovery(e.ctx)
		if rec == nil || !strings.Contains(rec.Cause, "not a database") {
			t.Fatalf("recovery %+v", rec)
		}
		for _, name := range []string{"settings", "memory_rejections", "memory_audit_log", "memory_access"} {
			if st := d.table(t, rec, name); st.Lost != 0 || st.Salvaged == 0 {
				t.Fatalf("%s behind a ruined header: %+v", name, st)
			}
		}
		e.wantCode(wr(d.rejected, "Again", "written again"), CodeRejectedSlug)
	})
	t.Run("malformed memory table", func(t *testing.T) {
		d := newDamagedHome(t)
		d.smash(t, d.pages["memory_meta"])
		e := d.e
		e.s = e.open()
		rec := e.s.Recovery(e.ctx)
		if rec == nil || !strings.Contains(rec.Cause, "malformed") {
			t.Fatalf("recovery %+v", rec)
		}
		for _, name := range []string{"settings", "memory_rejections", "memory_audit_log", "memory_access", "projects"} {
			if st := d.table(t, rec, name); st.Lost != 0 {
				t.Fatalf("%s: %+v", name, st)
			}
		}
		if st := d.table(t, rec, "memory_rejections"); st.Salvaged != 1 {
			t.Fatalf("rejections %+v", st)
		}
		for _, name := range []string{"memory_meta", "memory_fts", "memory_vec", "schema_migrations"} {
			for _, st := range rec.Tables {
				if st.Table == name {
					t.Fatalf("derived table %s salvaged", name)
				}
			}
		}
		var theme string
		if err := e.s.db.QueryRow(`SELECT value FROM settings WHERE key = 'ui.theme'`).Scan(&theme); err != nil || theme != `"dark"` {
			t.Fatalf("setting lost: %v %q", err, theme)
		}
		e.wantCode(wr(d.rejected, "Again", "written again"), CodeRejectedSlug)
		if n := e.count(`SELECT COUNT(*) FROM memory_audit_log WHERE op = 'reject'`); n != 1 {
			t.Fatalf("audit history lost: %d reject rows", n)
		}
		if n := e.count(`SELECT access_count FROM memory_access WHERE id = ?`, d.keep.ID); n != 1 {
			t.Fatalf("access count %d", n)
		}
		if e.get(d.keep.ID).Body == "" {
			t.Fatal("memory not rebuilt")
		}
	})
}

// Damage that opening does not touch is found by doctor's quick_check, and reindex repairs a
// damaged index too: the person's two ways out both work.
func TestDoctorAndReindexRepairDamage(t *testing.T) {
	d := newDamagedHome(t)
	d.smash(t, d.pages["memory_meta_updated"])
	e := d.e
	e.s = e.open()
	if e.s.Recovery(e.ctx) != nil {
		t.Skip("opening already met the damage; doctor's path is not reached")
	}
	rep, err := e.s.Doctor(e.ctx)
	if err != nil {
		t.Fatalf("doctor on a damaged index: %v", err)
	}
	if rep.Recovery == nil || rep.Integrity != "ok" || !rep.OK || rep.Memories != 1 {
		t.Fatalf("doctor did not repair: %+v", rep)
	}

	d2 := newDamagedHome(t)
	d2.smash(t, d2.pages["memory_meta_updated"])
	e2 := d2.e
	e2.s = e2.open()
	if _, err := e2.s.Reindex(e2.ctx); err != nil {
		// reindex wipes memory_meta, which writes the damaged index b-tree.
		t.Fatalf("reindex on a damaged index: %v", err)
	}
	if rep, err := e2.s.Doctor(e2.ctx); err != nil || !rep.OK {
		t.Fatalf("doctor after reindex: %v %+v", err, rep)
	}
}

// TestHoldIndexChild is a helper process, not a test: with ENGRAM_TEST_HOLD_INDEX set it opens
// that index the way another Engram process would and keeps it open until its stdin closes.
func TestHoldIndexChild(t *testing.T) {
	path := os.Getenv("ENGRAM_TEST_HOLD_INDEX")
	if path == "" {
		t.Skip("helper process")
	}
	db, err := sql.Open("sqlite", sqliteURI(path)+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM settings`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	fmt.Println("HOLDING")
	io.Copy(io.Discard, os.Stdin)
}

// A damaged index another process still has open is not moved from under it (its last close
// would delete the new index's -wal by name): open refuses with index_corrupt, and repairs
// once that process is gone.
func TestDamagedIndexHeldElsewhereIsLeftAlone(t *testing.T) {
	d := newDamagedHome(t)
	d.smash(t, d.pages["memory_meta"])
	idx := filepath.Join(d.e.home, "memory", indexName)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldIndexChild$")
	cmd.Env = append(os.Environ(), "ENGRAM_TEST_HOLD_INDEX="+idx)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if !strings.Contains(line, "HOLDING") {
		stdin.Close()
		cmd.Wait()
		t.Fatalf("helper did not open the index: %q", line)
	}
	_, err := Open(d.e.ctx, d.e.home, d.e.opts)
	if CodeOf(err) != CodeIndexCorrupt {
		t.Errorf("open while another process holds the damaged index: %v", err)
	}
	if entries, _ := filepath.Glob(idx + ".corrupt-*"); len(entries) != 0 {
		t.Errorf("moved from under the other process: %v", entries)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	d.e.s = d.e.open()
	if d.e.s.Recovery(d.e.ctx) == nil {
		t.Fatal("not repaired once the other process was gone")
	}
}

// A folder where the index file belongs (a sync tool's conflict, a mistaken mkdir) opened the
// home read-only, and every change was refused with "give the index file back to yourself",
// which nothing could do. It is moved aside like a damaged file and the index rebuilt.
func TestFolderInPlaceOfTheIndexIsMovedAside(t *testing.T) {
	e := newEnv(t)
	keep := e.ok(wr("kept-memory", "Kept", "the files keep this: quokka"))
	e.s.Close()
	idx := filepath.Join(e.home, "memory", indexName)
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(idx + suffix)
	}
	if err := os.MkdirAll(filepath.Join(idx, "inside"), 0o700); err != nil {
		t.Fatal(err)
	}
	e.s = e.open()
	if e.s.ReadOnly() {
		t.Fatal("the home opened read-only")
	}
	rec := e.s.Recovery(e.ctx)
	if rec == nil || rec.Code != CodeIndexRecovered {
		t.Fatalf("recovery %+v", rec)
	}
	if fi, err := os.Stat(filepath.Join(e.s.Root(), filepath.FromSlash(rec.MovedTo), "inside")); err != nil || !fi.IsDir() {
		t.Fatalf("the folder was not kept aside: %v", err)
	}
	if got := e.get(keep.ID); got.Slug != "kept-memory" {
		t.Fatalf("memory not rebuilt: %+v", got)
	}
	e.ok(wr("written-after", "After", "a change is taken again"))
}
