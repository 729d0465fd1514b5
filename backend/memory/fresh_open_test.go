package memory

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// packRows builds the index's side of the open's check as readStamps would from these rows.
func packRows(rows ...indexedFile) indexStamps {
	var x indexStamps
	for _, r := range rows {
		if r.problem {
			x.problems = append(x.problems, r)
			continue
		}
		x.add([]byte(r.rel + "\t" + strconv.FormatInt(r.st.mtime, 10) + "\t" + strconv.FormatInt(r.st.size, 10) +
			"\t" + strconv.FormatInt(r.st.ctime, 10) + "\t" + strconv.FormatInt(r.st.ino, 10)))
	}
	return x
}

// The check says "nothing to do" exactly when the reconcile would find nothing to do: the same
// paths (memory rows and problem rows together) with the same four numbers.
func TestIndexStampsMatch(t *testing.T) {
	st := func(n int64) fileStamp {
		return fileStamp{mtime: 1_700_000_000_000_000_000 + n, size: 100 + n, ctime: 1_700_000_000_500_000_000 + n, ino: 4000 + n}
	}
	row := func(rel string, n int64) indexedFile { return indexedFile{rel: rel, st: st(n)} }
	problem := func(rel string, n int64) indexedFile { return indexedFile{rel: rel, st: st(n), problem: true} }
	file := func(rel string, n int64) diskFile { return diskFile{rel: rel, st: st(n)} }
	disk := []diskFile{file("agents/a/user/x.md", 1), file("global/user/b.md", 2), file("global/user/c.md", 3)}
	moved := func(f func(*fileStamp)) []diskFile {
		out := append([]diskFile(nil), disk...)
		f(&out[1].st)
		return out
	}
	same := packRows(row("agents/a/user/x.md", 1), row("global/user/b.md", 2), row("global/user/c.md", 3))
	cases := []struct {
		name string
		idx  indexStamps
		disk []diskFile
		want bool
	}{
		{"nothing changed", same, disk, true},
		{"empty home", packRows(), nil, true},
		{"file created", same, append(append([]diskFile(nil), disk...), file("global/user/d.md", 4)), false},
		{"file created first", same, append([]diskFile{file("agents/0/user/a.md", 9)}, disk...), false},
		{"file deleted", same, disk[:2], false},
		{"every file deleted", same, nil, false},
		{"file renamed", same, []diskFile{disk[0], file("global/user/bb.md", 2), disk[2]}, false},
		{"mtime moved", same, moved(func(s *fileStamp) { s.mtime++ }), false},
		{"size moved", same, moved(func(s *fileStamp) { s.size-- }), false},
		{"ctime moved (in-place edit keeping size and mtime)", same, moved(func(s *fileStamp) { s.ctime++ }), false},
		{"inode moved (replaced keeping the three)", same, moved(func(s *fileStamp) { s.ino++ }), false},
		{"a problem file in its place", packRows(row("agents/a/user/x.md", 1), problem("global/user/b.md", 2), row("global/user/c.md", 3)), disk, true},
		{"problem files first and last", packRows(problem("agents/a/user/x.md", 1), row("global/user/b.md", 2), problem("global/user/c.md", 3)), disk, true},
		{"a problem file gone", packRows(problem("a.md", 0), row("agents/a/user/x.md", 1), row("global/user/b.md", 2), row("global/user/c.md", 3)), disk, false},
		{"a problem file edited", packRows(row("agents/a/user/x.md", 1), problem("global/user/b.md", 5), row("global/user/c.md", 3)), disk, false},
		{"a path both a memory and a problem", packRows(row("agents/a/user/x.md", 1), row("global/user/b.md", 2), problem("global/user/b.md", 2), row("global/user/c.md", 3)), disk, false},
		{"rows out of order", packRows(row("global/user/b.md", 2), row("agents/a/user/x.md", 1), row("global/user/c.md", 3)), disk, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.idx.matches(c.disk); got != c.want {
				t.Fatalf("matches = %v, want %v", got, c.want)
			}
		})
	}
	t.Run("rows across chunks", func(t *testing.T) {
		var rows []indexedFile
		var files []diskFile
		for i := 0; i < 3*stampChunk/40; i++ {
			rel := "agents/a/user/memory-" + strconv.Itoa(1_000_000+i) + ".md"
			rows = append(rows, row(rel, int64(i)))
			files = append(files, file(rel, int64(i)))
		}
		x := packRows(rows...)
		if len(x.chunks) < 3 || !x.matches(files) {
			t.Fatalf("%d chunks, match %v", len(x.chunks), x.matches(files))
		}
		files[len(files)-1].st.ctime++
		if x.matches(files) {
			t.Fatal("the last row's ctime not seen")
		}
	})
	t.Run("a row this build cannot read", func(t *testing.T) {
		for _, bad := range []string{"no-fields.md", "a.md\t1\t2\t3", "a.md\tx\t2\t3\t4", "a.md\t1\t2\t3\t", "a.md\t1\t2\t3\t99999999999999999999"} {
			var x indexStamps
			x.add([]byte(bad))
			if x.matches([]diskFile{{rel: "a.md", st: fileStamp{1, 2, 3, 4}}}) {
				t.Fatalf("%q read as a stamp", bad)
			}
		}
	})
}

func TestUnpackStamp(t *testing.T) {
	cases := []struct {
		in   string
		path string
		st   fileStamp
	}{
		{"global/user/a.md\t1\t2\t3\t4", "global/user/a.md", fileStamp{1, 2, 3, 4}},
		{"a\tb.md\t-5\t0\t9223372036854775807\t12", "a\tb.md", fileStamp{-5, 0, 9223372036854775807, 12}},
	}
	for _, c := range cases {
		path, st, ok := unpackStamp([]byte(c.in))
		if !ok || string(path) != c.path || st != c.st {
			t.Fatalf("%q: %q %+v %v", c.in, path, st, ok)
		}
	}
}

// The open's check reads the stamps from the covering index, not from the table that holds the
// bodies (at 100k memories the difference is most of the read).
func TestOpenCheckReadsTheCoveringIndex(t *testing.T) {
	e := newEnv(t)
	if got := e.plan(packedStampsQuery); !strings.Contains(got, "COVERING INDEX memory_meta_path") || strings.Contains(got, "TEMP B-TREE") {
		t.Fatalf("query plan %q: want the covering index, in its order", got)
	}
}

// The check against a real index: what an open writes matches what the next scan finds, files
// that do not parse included; a change of any kind does not.
func TestOpenCheckOnAHome(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 30; i++ {
		e.ok(wr("memory-"+strconv.Itoa(i), "Memory "+strconv.Itoa(i), "body "+strconv.Itoa(i)))
	}
	broken := filepath.Join(e.s.Root(), "global", "user", "broken.md")
	writeFile(t, broken, []byte("---\nid: [unclosed\n---\nnot a memory\n"))
	seedHand(t, e.s.Root(), "c")
	e.reopen()
	check := func() bool {
		t.Helper()
		disk, temps, err := e.s.scan()
		if err != nil || len(temps) != 0 {
			t.Fatal(err, temps)
		}
		x, err := e.s.readStamps(e.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(x.problems) != 1 || len(x.rows) < 30 {
			t.Fatalf("index side: %d problems, %d rows", len(x.problems), len(x.rows))
		}
		return x.matches(disk)
	}
	if !check() {
		t.Fatal("a home just opened does not match its own files")
	}
	for _, c := range handChanges(t, e.s.Root(), "c") {
		t.Run(c.name, func(t *testing.T) {
			c.apply(t, e.s.Root())
			if check() {
				t.Fatal("the check missed it")
			}
			e.reopen()
			if err := c.check(e.s); err != nil {
				t.Fatal(err)
			}
			if !check() {
				t.Fatal("no match after the reconcile")
			}
		})
	}
	if err := os.WriteFile(broken, []byte("---\nid: [still unclosed\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if check() {
		t.Fatal("an edited problem file matched")
	}
}

// The scan sorts each folder on its own and stitches the folders together: the result is the
// walk's order all the same, where a folder's name sorts against its neighbours with the "/"
// after it ("a-b/" and "a.md" before "a/", "a0" after it), and a folder too big for one
// getdents buffer is read whole.
func TestScanOrderAcrossFolders(t *testing.T) {
	e := newEnv(t)
	root := e.s.Root()
	for _, rel := range []string{"global/zz/a.md", "global/zz/a/b.md", "global/zz/a-b/c.md", "global/zz/a.b.md",
		"global/zz/a0/d.md", "global/zz/a0.md", "global/zz/a/a/a.md", "global/zz/a/a.md", "global/zz/A/e.md",
		"global/zz/\u00e9/f.md", "global/zz/e.md", "global/z/g.md", "global/zz-/h.md", "global/zz.md"} {
		writeFile(t, filepath.Join(root, filepath.FromSlash(rel)), []byte("x"))
	}
	for i := 0; i < 1500; i++ {
		writeFile(t, filepath.Join(root, "agents", "big", "user", "memory-with-a-long-name-"+strconv.Itoa(i*7919%1500)+".md"), []byte("x"))
	}
	wf, _, err := e.s.walk()
	if err != nil {
		t.Fatal(err)
	}
	// With statx, and with fstatat where the kernel refuses statx.
	for _, withStatx := range []bool{true, false} {
		sf, _, err := e.s.scanFolders(withStatx)
		if err != nil {
			t.Fatal(err)
		}
		if len(sf) != len(wf) || len(sf) < 1514 {
			t.Fatalf("statx %v: scan listed %d, walk %d", withStatx, len(sf), len(wf))
		}
		for i := range wf {
			if sf[i] != wf[i] {
				t.Fatalf("statx %v: entry %d: scan %+v, walk %+v", withStatx, i, sf[i], wf[i])
			}
		}
	}
}
