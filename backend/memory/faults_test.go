package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
)

// Issue 8 item 10: umask 0 must not widen the index, its -wal/-shm, the folders or the files.
// Not parallel: the umask is process-wide.
func TestPrivateModesWhateverUmask(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	e := newEnv(t)
	r := e.ok(wr("private-one", "Private", "Only mine."))
	root := e.s.Root()
	want := map[string]os.FileMode{
		root: 0o700, filepath.Join(root, ".trash"): 0o700, filepath.Join(root, ".archive"): 0o700,
		filepath.Join(root, ".snapshots"): 0o700, filepath.Join(root, "global"): 0o700,
		filepath.Join(root, "global", "user"):           0o700,
		filepath.Join(root, filepath.FromSlash(r.Path)): 0o600,
		filepath.Join(root, indexName):                  0o600,
		filepath.Join(root, indexName+"-wal"):           0o600,
		filepath.Join(root, indexName+"-shm"):           0o600,
	}
	for p, mode := range want {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatalf("stat %s: %v", p, err)
		}
		if got := info.Mode().Perm(); got != mode {
			t.Errorf("%s: mode %o, want %o", p, got, mode)
		}
	}
	// An index left world-readable by an older build is tightened on open.
	e.s.Close()
	if err := os.Chmod(filepath.Join(root, indexName), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	e.s = e.open()
	if info, _ := os.Stat(filepath.Join(root, indexName)); info.Mode().Perm() != 0o600 {
		t.Fatalf("reopened index mode %o", info.Mode().Perm())
	}
	if info, _ := os.Stat(root); info.Mode().Perm() != 0o700 {
		t.Fatalf("reopened memory folder mode %o", info.Mode().Perm())
	}
}

// Issue 8 item 15: "#", "?" and "%" in the home path must neither move the index nor fail.
func TestHomePathWithURICharacters(t *testing.T) {
	for _, name := range []string{"a#b?c%20d", "x?mode=ro", "100%", "q#frag", "sp ace&amp=1"} {
		t.Run(name, func(t *testing.T) {
			parent := t.TempDir()
			home := filepath.Join(parent, name)
			s, err := Open(context.Background(), home, Options{Logger: quietLogger})
			if err != nil {
				t.Fatalf("Open(%q): %v", home, err)
			}
			defer s.Close()
			res, err := s.ApplyBatch(context.Background(), Batch{Items: []Item{wr("in-odd-home", "Odd", "Where is it?")}})
			if err != nil || !res.Results[0].OK {
				t.Fatalf("write: %v %+v", err, res)
			}
			if _, err := os.Stat(filepath.Join(home, "memory", indexName)); err != nil {
				t.Fatalf("index not inside the home: %v", err)
			}
			entries, _ := os.ReadDir(parent)
			if len(entries) != 1 || entries[0].Name() != name {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Fatalf("files outside the home: %q", names)
			}
		})
	}
}

// Issue 8 item 14: an uncoded failure keeps its detail; a slug held by a broken file says so.
func TestItemErrorsCarryTheirDetail(t *testing.T) {
	e := newEnv(t)
	// The folder vanishing between the write's check and its rename (another program cleaning
	// up, a disk going away) fails the write below the codes.
	e.s.beforeRename = func(path string) { _ = os.RemoveAll(filepath.Dir(path)) }
	it := wr("cannot-land", "Cannot land", "Blocked by a file.")
	it.Type = TypeFeedback
	r := e.wantCode(it, CodeInternal)
	if d, _ := r.Args["Detail"].(string); !strings.Contains(d, "global") {
		t.Fatalf("internal error without detail: %+v", r.Args)
	}
	e.s.beforeRename = nil

	for _, reconciled := range []bool{true, false} {
		slug := "held-by-broken"
		if !reconciled {
			slug = "held-not-yet-seen"
		}
		rel := "global/user/" + slug + ".md"
		e.put(rel, []byte("---\nid: [unclosed\n---\nbroken header\n"))
		if reconciled {
			e.reconcile()
		}
		r := e.wantCode(wr(slug, "Held", "Someone else's file."), CodeSlugHeldByUnparsable)
		if r.Args["Path"] != rel || r.Args["Detail"] == "" {
			t.Fatalf("reconciled=%v: args %+v", reconciled, r.Args)
		}
		if string(e.file(rel)) != "---\nid: [unclosed\n---\nbroken header\n" {
			t.Fatal("the broken file was touched")
		}
	}
}

// Issue 8 item 12: a hand edit landing between the version check and the rename is reported
// as a conflict and kept, never overwritten.
func TestHandEditBeforeRenameIsNotOverwritten(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("raced", "Raced", "the original text"))
	hand := []byte("---\nid: " + r.ID + "\ntitle: Raced\n---\nthe person's own edit\n")
	var fired atomic.Int32
	e.s.beforeRename = func(path string) {
		if strings.HasSuffix(path, "raced.md") && fired.Add(1) == 1 {
			if err := os.WriteFile(path, hand, 0o600); err != nil {
				t.Error(err)
			}
		}
	}
	for _, it := range []Item{
		{Op: OpUpdate, ID: r.ID, Body: sp("the tool's text"), Mode: "replace"},
		{Op: OpAccept, ID: r.ID},
	} {
		fired.Store(0)
		if it.Op == OpAccept { // accept writes only an unreviewed memory
			e.s.beforeRename = nil
			e.batch(ActorUser, Item{Op: OpUpdate, ID: r.ID, Reviewed: bp(false)})
			e.reconcile()
			cur := e.file(r.Path)
			hand = append([]byte{}, cur...)
			hand = []byte(strings.Replace(string(hand), "the person's own edit", "edited again by hand", 1))
			e.s.beforeRename = func(path string) {
				if strings.HasSuffix(path, "raced.md") && fired.Add(1) == 1 {
					_ = os.WriteFile(path, hand, 0o600)
				}
			}
		}
		e.wantCode(it, CodeVersionConflict)
		if got := e.file(r.Path); string(got) != string(hand) {
			t.Fatalf("%s overwrote the hand edit:\n%s", it.Op, got)
		}
		if fired.Load() == 0 {
			t.Fatal("the seam never ran")
		}
	}
	// A file placed by hand where a new memory is about to land is not replaced either.
	e.s.beforeRename = func(path string) {
		if strings.HasSuffix(path, "fresh-one.md") && fired.Add(1) == 1 {
			_ = os.WriteFile(path, []byte("---\nid: "+ulid.Make().String()+"\ntitle: Mine\n---\nplaced by hand\n"), 0o600)
		}
	}
	fired.Store(0)
	e.wantCode(wr("fresh-one", "Fresh", "the tool's new memory"), CodeAlreadyExists)
	if got := string(e.file("global/user/fresh-one.md")); !strings.Contains(got, "placed by hand") {
		t.Fatalf("hand-placed file replaced: %s", got)
	}
	// An update that moves the file (a new type): the old file, removed afterwards, is re-checked
	// too, so a hand edit of it is not deleted.
	m := e.ok(wr("moving", "Moving", "the original text"))
	var moved []byte
	e.s.beforeRename = func(string) {
		if fired.Add(1) == 1 {
			cur := e.file(m.Path)
			moved = []byte(strings.Replace(string(cur), "the original text", "edited by hand meanwhile", 1))
			_ = os.WriteFile(e.s.abs(m.Path), moved, 0o600)
		}
	}
	fired.Store(0)
	e.wantCode(Item{Op: OpUpdate, ID: m.ID, Type: TypeFeedback, Mode: "merge"}, CodeVersionConflict)
	if got := e.file(m.Path); string(got) != string(moved) {
		t.Fatalf("the moved memory's hand edit was lost:\n%s", got)
	}
}

// Issue 8 item 13: a reconcile that fails (the index locked elsewhere) keeps its pending
// paths and retries, so the edit becomes searchable once the obstacle goes.
func TestWatcherRetriesFailedReconcile(t *testing.T) {
	e := newEnv(t)
	var failing atomic.Bool
	failing.Store(true)
	failed := make(chan struct{}, 1)
	e.s.reconcileFault = func() error {
		if failing.Load() {
			select {
			case failed <- struct{}{}:
			default:
			}
			return errors.New("database is locked")
		}
		return nil
	}
	changed := make(chan []string, 16)
	cancelSub := e.s.Subscribe(func(ev Event) {
		if ev.Kind == "memory.changed" {
			changed <- ev.IDs
		}
	})
	defer cancelSub()
	ctx, cancel := context.WithCancel(e.ctx)
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- e.s.Watch(ctx, ready) }()
	defer func() { cancel(); <-done }()
	<-ready

	id := ulid.Make().String()
	e.put("global/user/typed-by-hand.md", []byte("---\nid: "+id+"\ntitle: Typed\n---\nwombat burrows\n"))
	select {
	case <-failed:
	case <-time.After(30 * time.Second):
		t.Fatal("the watcher never tried to reconcile")
	}
	failing.Store(false)
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ids := <-changed:
			for _, got := range ids {
				if got == id {
					if !hasSlug(e.search("wombat", Filter{}), "typed-by-hand") {
						t.Fatal("announced but not searchable")
					}
					return
				}
			}
		case <-deadline:
			t.Fatal("the edit was dropped after the failed reconcile")
		}
	}
}
