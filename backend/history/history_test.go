package history

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"engram/backend/memory"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// openHome opens a real store in a temp home with history attached and, when on, enabled.
func openHome(t *testing.T, home string, on bool) (*memory.Store, *Repo) {
	t.Helper()
	st, err := memory.Open(context.Background(), home, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := New(st.Root(), quiet)
	Attach(st, r)
	if on {
		if err := st.Locked(func() error { _, err := r.Enable(); return err }); err != nil {
			t.Fatal(err)
		}
	}
	return st, r
}

func str(s string) *string { return &s }

func write(t *testing.T, st *memory.Store, actor string, items ...memory.Item) memory.BatchResult {
	t.Helper()
	res, err := st.ApplyBatch(context.Background(), memory.Batch{Actor: actor, Items: items})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		if !r.OK {
			t.Fatalf("item failed: %+v", r)
		}
	}
	return res
}

func newMem(slug, body string) memory.Item {
	return memory.Item{Op: memory.OpWrite, Slug: slug, Scope: memory.ScopeGlobal, Type: memory.TypeUser,
		Title: str("About " + slug), Body: str(body), Confidence: memory.ConfidenceMedium, SourceQuote: str("said so")}
}

// commits lists the subjects from HEAD back, newest first.
func commits(t *testing.T, root string) []string {
	t.Helper()
	repo, err := git.PlainOpen(root)
	if err != nil {
		t.Fatal(err)
	}
	iter, err := repo.Log(&git.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	_ = iter.ForEach(func(c *object.Commit) error {
		out = append(out, strings.SplitN(c.Message, "\n", 2)[0])
		return nil
	})
	return out
}

func TestOffByDefaultWritesNoRepository(t *testing.T) {
	st, r := openHome(t, t.TempDir(), false)
	write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	if r.Exists() || r.Enabled() {
		t.Fatal("history must be off until enabled")
	}
	if _, err := os.Stat(filepath.Join(st.Root(), ".git")); err == nil {
		t.Fatal("a repository was created while history is off")
	}
}

func TestEachBatchIsOneCommitNamingActorAndOps(t *testing.T) {
	st, r := openHome(t, t.TempDir(), true)
	write(t, st, memory.ActorExtractor, newMem("tea-pref", "Likes green tea."), newMem("coffee-pref", "No coffee after noon."))
	got := commits(t, st.Root())
	if len(got) != 2 || got[1] != "user: history enabled" {
		t.Fatalf("commits = %q", got)
	}
	if got[0] != "extractor: create global/user/tea-pref, create global/user/coffee-pref" {
		t.Fatalf("subject = %q", got[0])
	}
	// The index, the lock and the trash stay out of git.
	write(t, st, memory.ActorUser, memory.Item{Op: memory.OpDelete, Slug: "coffee-pref", Scope: memory.ScopeGlobal})
	repo, _ := git.PlainOpen(st.Root())
	head, _ := repo.Head()
	c, _ := repo.CommitObject(head.Hash())
	tree, _ := c.Tree()
	var files []string
	_ = tree.Files().ForEach(func(f *object.File) error { files = append(files, f.Name); return nil })
	if strings.Join(files, ",") != ".gitignore,global/user/tea-pref.md" {
		t.Fatalf("tracked files = %v", files)
	}
	if s := commits(t, st.Root())[0]; s != "user: delete global/user/coffee-pref" {
		t.Fatalf("delete subject = %q", s)
	}
	stt, err := r.Status()
	if err != nil || !stt.Enabled || stt.Commits != 3 {
		t.Fatalf("status = %+v, %v", stt, err)
	}
	// Turned off, writes are not committed; turned on again, the gap is committed at once.
	if err := r.Disable(); err != nil {
		t.Fatal(err)
	}
	write(t, st, memory.ActorUser, newMem("juice-pref", "Orange juice."))
	if n := len(commits(t, st.Root())); n != 3 {
		t.Fatalf("commits while off = %d", n)
	}
	if err := st.Locked(func() error { _, err := r.Enable(); return err }); err != nil {
		t.Fatal(err)
	}
	if n := len(commits(t, st.Root())); n != 4 {
		t.Fatalf("commits after enable = %d", n)
	}
}

func TestHandEditIsCommittedByTheWatcher(t *testing.T) {
	st, _ := openHome(t, t.TempDir(), true)
	res := write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan struct{})
	done := make(chan struct{})
	go func() { _ = st.Watch(ctx, ready); close(done) }()
	<-ready
	p := filepath.Join(st.Root(), res.Results[0].Path)
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), "Likes green tea.", "Likes oolong tea.", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		var c []string
		_ = st.Locked(func() error { c = commits(t, st.Root()); return nil })
		if c[0] == "hand: edit global/user/tea-pref" {
			break
		}
		if i > 2000 {
			t.Fatalf("hand edit not committed: %q", commits(t, st.Root()))
		}
		waitABit()
	}
	cancel()
	<-done
}

func TestVersionsDiffAndRestore(t *testing.T) {
	ctx := context.Background()
	st, r := openHome(t, t.TempDir(), true)
	res := write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	id := res.Results[0].ID
	write(t, st, memory.ActorTool, memory.Item{Op: memory.OpUpdate, ID: id, Mode: "replace", Body: str("Likes black tea.")})
	m, _ := st.Get(ctx, id)
	vs, err := r.Versions(ctx, m.Path, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || vs[0].Actor != "tool" || vs[1].Actor != "user" {
		t.Fatalf("versions = %+v", vs)
	}
	if !strings.Contains(vs[0].Diff, "-Likes green tea.") || !strings.Contains(vs[0].Diff, "+Likes black tea.") {
		t.Fatalf("diff = %s", vs[0].Diff)
	}
	if !strings.Contains(vs[1].Diff, "+Likes green tea.") || vs[1].Removed != 0 {
		t.Fatalf("first version's diff = %s", vs[1].Diff)
	}
	out, err := r.Restore(ctx, st, id, vs[1].Short, memory.ActorUser)
	if err != nil || !out.OK {
		t.Fatalf("restore = %+v, %v", out, err)
	}
	m, _ = st.Get(ctx, id)
	if m.Body != "Likes green tea." {
		t.Fatalf("body after restore = %q", m.Body)
	}
	vs, _ = r.Versions(ctx, m.Path, 0)
	if len(vs) != 3 || vs[0].Actor != "user" {
		t.Fatalf("restore is not a new version: %+v", vs)
	}
	if _, err := r.Restore(ctx, st, id, "0000000000000000000000000000000000000000", memory.ActorUser); err != ErrNoVersion {
		t.Fatalf("unknown commit: %v", err)
	}
}
