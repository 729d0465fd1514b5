package memory

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readOnlyHome fills a home, closes it and returns options that see it as read-only. Root
// writes through mode bits, so the seam stands in for the permission check; when not root the
// modes are really taken away too.
func readOnlyHome(t *testing.T, dropIndex bool) (*env, ItemResult) {
	e := newEnv(t)
	r := e.ok(wr("readable", "Readable", "still readable: pangolin"))
	e.ok(Item{Op: OpAppendDaily, Text: "a day"})
	if err := e.s.Close(); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(e.home, "memory")
	if dropIndex {
		for _, s := range []string{"", "-wal", "-shm"} {
			os.Remove(filepath.Join(root, indexName+s))
		}
	}
	e.opts.writable = func(string) bool { return false }
	if os.Geteuid() != 0 {
		chmodTree(t, root, 0o555, 0o444)
		t.Cleanup(func() { chmodTree(t, root, 0o755, 0o644) })
	}
	return e, r
}

func chmodTree(t *testing.T, root string, dirMode, fileMode os.FileMode) {
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		if info.IsDir() {
			os.Chmod(p, dirMode)
		} else {
			os.Chmod(p, fileMode)
		}
		return nil
	})
}

func snapshotTree(t *testing.T, root string) map[string]string {
	out := map[string]string{}
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			data, _ := os.ReadFile(p)
			out[p] = string(data)
		}
		return nil
	})
	return out
}

// Issue 8 item 18: a read-only home is read (list, read, search, quota, doctor) and every
// write is refused with home_read_only, leaving the home exactly as it was.
func TestReadOnlyHome(t *testing.T) {
	for _, dropIndex := range []bool{false, true} {
		name := "with its index"
		if dropIndex {
			name = "without an index"
		}
		t.Run(name, func(t *testing.T) {
			e, r := readOnlyHome(t, dropIndex)
			root := filepath.Join(e.home, "memory")
			before := snapshotTree(t, root)
			e.s = e.open()
			if !e.s.ReadOnly() {
				t.Fatal("not opened read-only")
			}
			if got := e.get(r.ID); got.Body != "still readable: pangolin" {
				t.Fatalf("read %+v", got)
			}
			if list, n, err := e.s.List(e.ctx, Filter{}); err != nil || n < 2 || len(list) < 2 {
				t.Fatalf("list: %v %d", err, n)
			}
			if !hasSlug(e.search("pangolin", Filter{}), "readable") {
				t.Fatal("search found nothing")
			}
			if err := e.s.TouchAccess(e.ctx, []string{r.ID}, baseTime); err != nil {
				t.Fatalf("a search's access count failed the read: %v", err)
			}
			if q, err := e.s.Quota(e.ctx); err != nil || len(q.Scopes) == 0 {
				t.Fatalf("quota: %v %+v", err, q)
			}
			rep, err := e.s.Doctor(e.ctx)
			if err != nil || !rep.ReadOnly || rep.Integrity != "ok" || rep.Memories != 1 || rep.JournalDays != 1 {
				t.Fatalf("doctor: %v %+v", err, rep)
			}
			_, err = e.s.ApplyBatch(e.ctx, Batch{Items: []Item{wr("new-one", "New", "refused")}})
			if CodeOf(err) != CodeHomeReadOnly {
				t.Fatalf("write: %v", err)
			}
			if _, err := e.s.Reindex(e.ctx); CodeOf(err) != CodeHomeReadOnly {
				t.Fatalf("reindex: %v", err)
			}
			if _, err := e.s.Reconcile(e.ctx); CodeOf(err) != CodeHomeReadOnly {
				t.Fatalf("reconcile: %v", err)
			}
			e.s.Close()
			after := snapshotTree(t, root)
			if len(after) != len(before) {
				t.Fatalf("files changed: %d before, %d after", len(before), len(after))
			}
			for p, data := range before {
				if after[p] != data {
					t.Fatalf("%s changed", p)
				}
			}
			e.s = e.open() // Cleanup closes e.s again
		})
	}
}

// The real probe: a writable folder passes and keeps no trace; mode bits stop it when not root.
func TestHomeWritableProbe(t *testing.T) {
	dir := t.TempDir()
	if !homeWritable(dir) {
		t.Fatal("a fresh temp folder reported read-only")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("the probe left %v", entries)
	}
	if os.Geteuid() == 0 {
		t.Skip("root writes through mode bits; TestReadOnlyHome covers read-only homes through the seam")
	}
	os.WriteFile(filepath.Join(dir, indexName), nil, 0o444)
	if homeWritable(dir) {
		t.Fatal("a read-only index file was not noticed")
	}
	os.Chmod(filepath.Join(dir, indexName), 0o644)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	if homeWritable(dir) {
		t.Fatal("a read-only folder was not noticed")
	}
}

// A read-only home whose files changed after its index was written (edited in place with size
// and mtime put back, added, removed — a sync into a copy this process may only read) is read
// as the files are: the index, read as it was, showed the old text, missed the new note and
// listed the removed one. What the files cannot rebuild (a setting) is still there, and
// nothing in the home is written.
func TestReadOnlyHomeSeesChangedFiles(t *testing.T) {
	e := newEnv(t)
	kept := e.ok(wr("kept-note", "Kept", "the old word: wombat"))
	gone := e.ok(wr("gone-note", "Gone", "about to go"))
	if err := e.s.PutSetting(e.ctx, "ui.language", "zh-CN"); err != nil {
		t.Fatal(err)
	}
	if err := e.s.Close(); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(e.home, "memory")
	keptPath := filepath.Join(root, kept.Path)
	info, err := os.Stat(keptPath)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(keptPath)
	f, err := os.OpenFile(keptPath, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("numbat"), int64(strings.Index(string(data), "wombat"))); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(keptPath, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, gone.Path)); err != nil {
		t.Fatal(err)
	}
	e.put("global/user/hand-added.md", []byte("---\ntitle: Hand added\n---\nwritten by hand: quokka\n"))
	e.opts.writable = func(string) bool { return false }
	if os.Geteuid() != 0 {
		chmodTree(t, root, 0o555, 0o444)
		t.Cleanup(func() { chmodTree(t, root, 0o755, 0o644) })
	}
	before := snapshotTree(t, root)
	e.s = e.open()
	if !e.s.ReadOnly() {
		t.Fatal("not opened read-only")
	}
	if got := e.get(kept.ID); !strings.Contains(got.Body, "numbat") {
		t.Fatalf("the edit in place is not seen: %q", got.Body)
	}
	if !hasSlug(e.search("numbat", Filter{}), "kept-note") || !hasSlug(e.search("quokka", Filter{}), "hand-added") {
		t.Fatal("a search missed the changed files")
	}
	if _, err := e.s.Get(e.ctx, gone.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the removed file is still read: %v", err)
	}
	if v, ok, err := e.s.Setting(e.ctx, "ui.language"); err != nil || !ok || v != "zh-CN" {
		t.Fatalf("the setting was lost: %q %v %v", v, ok, err)
	}
	tmp := e.s.tmpIndex
	e.s.Close()
	if tmp != "" {
		if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the temporary index %s was left behind", tmp)
		}
	}
	after := snapshotTree(t, root)
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatal("the read-only home was written")
	}
	e.s = e.open() // Cleanup closes e.s again
}

// An index file this process cannot write in a folder it can (a `sudo engram` left it root's)
// opens read-only as before, but says the index is the cause, naming it: "the home is
// read-only" sent the person to a folder that already took writes. The doctor report says
// it too; a home whose folder cannot be written still says home_read_only.
func TestReadOnlyIndexFileIsNamed(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("readable", "Readable", "still readable: pangolin"))
	if err := e.s.Close(); err != nil {
		t.Fatal(err)
	}
	e.opts.indexWritable = func(string) bool { return false }
	e.s = e.open()
	if !e.s.ReadOnly() {
		t.Fatal("not opened read-only")
	}
	index := filepath.Join(e.home, "memory", indexName)
	_, err := e.s.ApplyBatch(e.ctx, Batch{Items: []Item{wr("new-one", "New", "refused")}})
	var ce *Error
	if CodeOf(err) != CodeIndexReadOnly || !errors.As(err, &ce) || ce.Args["Index"] != index {
		t.Fatalf("write: %v", err)
	}
	if rep, err := e.s.Doctor(e.ctx); err != nil || !rep.ReadOnly || rep.ReadOnlyIndex != index {
		t.Fatalf("doctor: %v %+v", err, rep)
	}
	e.s.Close()
	e.opts.indexWritable = nil
	e.opts.writable = func(string) bool { return false }
	e.s = e.open()
	if _, err := e.s.Reindex(e.ctx); CodeOf(err) != CodeHomeReadOnly {
		t.Fatalf("a home that is read-only whole: %v", err)
	}
	if rep, err := e.s.Doctor(e.ctx); err != nil || rep.ReadOnlyIndex != "" {
		t.Fatalf("doctor: %v %+v", err, rep)
	}
}
