package memory

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/fsnotify/fsnotify"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
)

// change is one kind of hand change made to a home; check says whether a store sees it.
type change struct {
	name  string
	apply func(t *testing.T, root string)
	check func(s *Store) error
}

// handChanges makes, on a home holding "kept-*" files written by seedHand, one change of each
// kind the issue lists: a file created, one deleted, one renamed, and one edited in place with
// its size and mtime put back (only ctime and the content tell).
func handChanges(t *testing.T, root string, tag string) []change {
	t.Helper()
	newID := ulid.Make().String()
	rel := func(slug string) string { return filepath.Join(root, "global", "reference", slug+".md") }
	return []change{
		{"create", func(t *testing.T, root string) {
			writeFile(t, rel("new-"+tag), handFile(newID, "Created "+tag, "a new note about quokkas"))
		}, func(s *Store) error {
			_, err := s.Get(context.Background(), newID)
			return err
		}},
		{"delete", func(t *testing.T, root string) {
			if err := os.Remove(rel("kept-del-" + tag)); err != nil {
				t.Fatal(err)
			}
		}, func(s *Store) error {
			if n := countPath(s, "global/reference/kept-del-"+tag+".md"); n != 0 {
				return fmt.Errorf("deleted file still indexed (%d rows)", n)
			}
			return nil
		}},
		{"rename", func(t *testing.T, root string) {
			if err := os.Rename(rel("kept-ren-"+tag), rel("renamed-"+tag)); err != nil {
				t.Fatal(err)
			}
		}, func(s *Store) error {
			if countPath(s, "global/reference/kept-ren-"+tag+".md") != 0 || countPath(s, "global/reference/renamed-"+tag+".md") != 1 {
				return errors.New("rename not seen")
			}
			return nil
		}},
		{"in-place edit keeping size and mtime", func(t *testing.T, root string) {
			p := rel("kept-edit-" + tag)
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(p)
			edited := strings.Replace(string(data), "original words", "EDITED!! words", 1)
			if len(edited) != len(data) || edited == string(data) {
				t.Fatal("edit must keep the size")
			}
			f, err := os.OpenFile(p, os.O_WRONLY, 0) // in place: same inode, no rename
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteAt([]byte(edited), 0); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			if fi2, _ := os.Stat(p); fi2.Size() != fi.Size() || !fi2.ModTime().Equal(fi.ModTime()) {
				t.Fatal("size or mtime moved")
			}
		}, func(s *Store) error {
			var body string
			if err := s.db.QueryRow(`SELECT body FROM memory_meta WHERE path = ?`, "global/reference/kept-edit-"+tag+".md").Scan(&body); err != nil {
				return err
			}
			if !strings.Contains(body, "EDITED!!") {
				return fmt.Errorf("in-place edit not seen: %q", body)
			}
			return nil
		}},
	}
}

// seedHand writes the files handChanges works on.
func seedHand(t *testing.T, root, tag string) {
	t.Helper()
	for _, slug := range []string{"kept-del-", "kept-ren-", "kept-edit-"} {
		writeFile(t, filepath.Join(root, "global", "reference", slug+tag+".md"),
			handFile(ulid.Make().String(), "Seed "+slug+tag, "original words of "+slug+tag))
	}
}

func writeFile(t *testing.T, p string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func countPath(s *Store, rel string) int {
	var n int
	_ = s.db.QueryRow(`SELECT COUNT(*) FROM memory_meta WHERE path = ?`, rel).Scan(&n)
	return n
}

// With no Engram process running, each kind of change is found by the scan at the next open.
func TestOpenScansChangesMadeWhileNothingRan(t *testing.T) {
	e := newEnv(t)
	seedHand(t, e.s.Root(), "a")
	e.reconcile()
	root := e.s.Root()
	if err := e.s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range handChanges(t, root, "a") {
		c.apply(t, root)
		s := e.open()
		if s.Settled() != SettledScan {
			t.Fatalf("%s: settled by %q, want a scan", c.name, s.Settled())
		}
		if err := c.check(s); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		s.Close()
	}
}

// A live watcher answers for the index: an open right after a hand change (inside the
// watcher's debounce) skips the scan and still sees the change.
func TestOpenTrustsALiveWatcher(t *testing.T) {
	e := newEnv(t)
	seedHand(t, e.s.Root(), "b")
	e.reconcile()
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan error, 1)
	ready := make(chan struct{})
	go func() { done <- e.s.Watch(ctx, ready) }()
	<-ready
	for _, c := range handChanges(t, e.s.Root(), "b") {
		c.apply(t, e.s.Root())
		s := e.open()
		if s.Settled() != SettledWatcher {
			t.Fatalf("%s: settled by %q, want the watcher's answer", c.name, s.Settled())
		}
		if err := c.check(s); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		s.Close()
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// A clean stop is recorded, and its socket is gone: the next open scans.
	rec, err := e.s.Watcher(e.ctx)
	if err != nil || rec.State != "stopped" || rec.PID != os.Getpid() {
		t.Fatalf("watcher record %+v %v", rec, err)
	}
	if _, err := os.Lstat(filepath.Join(e.s.Root(), watchSockName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("socket left after a clean stop: %v", err)
	}
	if s := e.open(); s.Settled() != SettledScan {
		t.Fatalf("after the watcher stopped: settled by %q", s.Settled())
	}
}

// When the owning watcher stops, a second watching process takes over the answer.
func TestSecondWatcherTakesOver(t *testing.T) {
	e := newEnv(t)
	other := e.open()
	ctx1, cancel1 := context.WithCancel(e.ctx)
	ctx2, cancel2 := context.WithCancel(e.ctx)
	defer cancel2()
	r1, r2 := make(chan struct{}), make(chan struct{})
	d1, d2 := make(chan error, 1), make(chan error, 1)
	go func() { d1 <- e.s.Watch(ctx1, r1) }()
	<-r1
	go func() { d2 <- other.Watch(ctx2, r2) }()
	<-r2
	cancel1()
	<-d1
	deadline := time.Now().Add(3 * watchElectTick)
	for {
		s := e.open()
		got := s.Settled()
		s.Close()
		if got == SettledWatcher {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second watcher never took over")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel2()
	<-d2
}

// The watching process is killed (SIGKILL: no clean stop, its socket file stays); files are
// then edited with no Engram process running. The next open scans and sees every change.
func TestWatcherKilledThenFilesEdited(t *testing.T) {
	e := newEnv(t)
	seedHand(t, e.s.Root(), "c")
	e.reconcile()
	root := e.s.Root()
	e.s.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ENGRAM_TEST_CHILD=watcher", "ENGRAM_TEST_HOME="+e.home)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "ready" {
		cmd.Process.Kill()
		t.Fatalf("watcher child: %q %v", line, err)
	}
	s := e.open() // the child answers: proof the kill below takes down a vouching watcher
	if s.Settled() != SettledWatcher {
		cmd.Process.Kill()
		t.Fatalf("with the child watching: settled by %q", s.Settled())
	}
	s.Close()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if _, err := os.Lstat(filepath.Join(root, watchSockName)); err != nil {
		t.Fatalf("a killed watcher leaves its socket file: %v", err)
	}
	changes := handChanges(t, root, "c")
	for _, c := range changes {
		c.apply(t, root)
	}
	s = e.open()
	if s.Settled() != SettledScan {
		t.Fatalf("after the kill: settled by %q, want a scan", s.Settled())
	}
	for _, c := range changes {
		if err := c.check(s); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	if rec, err := s.Watcher(e.ctx); err != nil || rec.State != "watching" || rec.PID != cmd.Process.Pid {
		t.Fatalf("a killed watcher's record should still say watching: %+v %v", rec, err)
	}
}

// runWatcherChild is the "watcher" child role: it opens the home, watches it and says ready
// once it answers for the index, until killed.
func runWatcherChild(home string) int {
	ctx := context.Background()
	s, err := Open(ctx, home, Options{Logger: quietLogger})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 3
	}
	ready := make(chan struct{})
	go func() { _ = s.Watch(ctx, ready) }()
	<-ready
	fmt.Println("ready")
	select {}
}

// The scan lists exactly what the walk lists: links reported, dot folders skipped but for
// .archive, temp files found, other files ignored.
func TestScanListsWhatWalkLists(t *testing.T) {
	e := newEnv(t)
	root := e.s.Root()
	for _, rel := range []string{"global/user/a.md", "global/user/b.md", ".archive/2024/global/user/c.md",
		".trash/gone.md", "global/.hidden/d.md", "global/user/notes.txt", "global/user/.dot.md",
		"agents/x1/feedback/e.md", "projects/0123456789abcdef/project/f.md", ".snapshots/s/g.md"} {
		writeFile(t, filepath.Join(root, filepath.FromSlash(rel)), []byte("x"))
	}
	writeFile(t, filepath.Join(root, "global", "user", ".tmp-123"), []byte("partial"))
	if err := os.Symlink("/etc/passwd", filepath.Join(root, "global", "user", "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(root, "global", "linked")); err != nil {
		t.Fatal(err)
	}
	wf, wt, err := e.s.walk()
	if err != nil {
		t.Fatal(err)
	}
	sf, st, err := e.s.scan()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(wf, sf) {
		t.Fatalf("scan %+v\nwalk %+v", sf, wf)
	}
	if !reflect.DeepEqual(wt, st) || len(st) != 1 {
		t.Fatalf("temps: scan %v walk %v", st, wt)
	}
	if len(sf) != 7 {
		t.Fatalf("want 7 entries (5 files, 2 links), got %+v", sf)
	}
}

// Only the owner's own touch answers a question. The sync file's creation at claim (still
// queued when a first question came, under load) once answered early and hid a file created
// just before the question.
func TestSyncAnswerIsTheOwnersTouch(t *testing.T) {
	own := watchSyncName + "-0123456789abcdef"
	cases := []struct {
		name string
		op   fsnotify.Op
		rel  string
		want bool
	}{
		{"the touch", fsnotify.Chmod, own, true},
		{"its creation", fsnotify.Create, own, false},
		{"a write to it", fsnotify.Write, own, false},
		{"its removal", fsnotify.Remove, own, false},
		{"an earlier owner's touch", fsnotify.Chmod, watchSyncName + "-fedcba9876543210", false},
		{"the old shared name", fsnotify.Chmod, watchSyncName, false},
		{"a memory's chmod", fsnotify.Chmod, "global/user/a.md", false},
	}
	for _, c := range cases {
		if got := isSyncAnswer(fsnotify.Event{Name: c.rel, Op: c.op}, c.rel, own); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
	if isSyncAnswer(fsnotify.Event{Op: fsnotify.Chmod}, own, "") {
		t.Error("a process that owns nothing answered")
	}
}
