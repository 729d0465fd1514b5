package backup

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"engram/backend/memory"
)

// openHome opens a store on a fresh home, logging nowhere.
func openHome(t *testing.T, home string) *memory.Store {
	t.Helper()
	st, err := memory.Open(context.Background(), home, memory.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// apply runs items through apply_batch as the person and fails on any item that fails.
func apply(t *testing.T, st *memory.Store, items ...memory.Item) {
	t.Helper()
	res, err := st.ApplyBatch(context.Background(), memory.Batch{Items: items})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		if !r.OK {
			t.Fatalf("item %d: %+v", r.Index, r)
		}
	}
}

func write(slug string, scope memory.Scope, agent string) memory.Item {
	title, body := slug, "what "+slug+" says"
	return memory.Item{Op: memory.OpWrite, Scope: scope, Agent: agent, Type: memory.TypeUser, Slug: slug,
		Title: &title, Body: &body, Confidence: memory.ConfidenceLow}
}

// place writes a file of the person's under the memory folder.
func place(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// entries lists the names in the archive at path.
func entries(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			t.Fatalf("archive entry %s has type %c", h.Name, h.Typeflag)
		}
		out = append(out, h.Name)
	}
}

// A backup's figures are the store's: a note, a file with a broken header or in no memory
// location is kept in the archive but counted as another file, never as a memory (the summary
// said "5 memories" where engram quota said 2); journal days, the archive, the trash and the
// snapshots are counted apart, and the folder's own records (git history) in none of them.
func TestManifestCountsWhatTheStoreCounts(t *testing.T) {
	ctx := context.Background()
	st := openHome(t, t.TempDir())
	apply(t, st, write("name-is-ada", memory.ScopeGlobal, ""), write("likes-tea", memory.ScopeGlobal, ""),
		write("uses-go", memory.ScopeGlobal, ""), write("short-answers", memory.ScopeAgent, "bot"),
		memory.Item{Op: memory.OpAppendDaily, Text: "backed up today"})
	apply(t, st, memory.Item{Op: memory.OpDelete, Scope: memory.ScopeGlobal, Slug: "likes-tea"},
		memory.Item{Op: memory.OpArchive, Scope: memory.ScopeGlobal, Slug: "uses-go"})
	if _, err := st.KVSet(ctx, memory.KVChange{Agent: "bot", Key: "editor", Value: json.RawMessage(`"helix"`), Actor: memory.ActorUser}); err != nil {
		t.Fatal(err)
	}
	root := st.Root()
	for _, c := range []struct {
		rel, body string
		want      string // the manifest figure the file adds to, "" for none
	}{
		{"README.md", "# my notes\n", "other"},
		{"global/notes.md", "# a note\n", "other"},
		{"global/user/Bad_Name.md", "---\ntitle: x\n---\nbody\n", "other"},
		{"global/user/broken-yaml.md", "---\nid: [unclosed\n---\nbody\n", "other"},
		{"daily/notes.md", "not a day\n", "other"},
		{"global/user/.hidden.md", "hidden\n", "other"},
		{"global/user/picture.png", "png", "other"},
		{".snapshots/20261201/global/user/old.md", "---\nid: x\n---\n", "snapshots"},
		{".git/HEAD", "ref: refs/heads/main\n", ""},
	} {
		place(t, root, c.rel, c.body)
	}
	if _, err := st.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	used, archived := quotaTotals(t, ctx, st)
	res, err := Create(ctx, st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Manifest
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"memories (engram quota's used)", m.Memories, used},
		{"memories", m.Memories, 2},
		{"archived (engram quota's archived)", m.Archived, archived},
		{"archived", m.Archived, 1},
		{"journal days", m.Daily, 1},
		{"trash", m.Trash, 1},
		{"snapshots", m.Snapshots, 1},
		{"agent key files", m.KVFiles, 1},
		{"other files", m.Other, 7},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
	// Every file is still archived: the figures count, they never leave out.
	names := entries(t, res.Path)
	for _, rel := range []string{"README.md", "global/user/broken-yaml.md", ".git/HEAD", "global/user/picture.png"} {
		if !contains(names, MemoryDir+"/"+rel) {
			t.Errorf("%s is not in the archive %q", rel, names)
		}
	}
	// And a preview reads the same figures back.
	pm, err := Preview(ctx, res.Path, t.TempDir(), nil)
	if err != nil || pm.Memories != m.Memories || pm.Other != m.Other || pm.Daily != m.Daily {
		t.Fatalf("preview %+v (%v), backup %+v", pm, err, m)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A link in the memory folder is never followed (the store never indexes what one points to
// either) and never dropped without a word: the backup names it, with its target and the
// reason, and the archive stays one a restore accepts. Before, it was left out silently.
func TestLinksAreLeftOutAndNamed(t *testing.T) {
	outside := t.TempDir()
	place(t, outside, "secret.md", "---\nid: 01J0000000000000000000000\n---\noutside the home\n")
	place(t, outside, "vault/note.md", "outside the home too\n")
	for _, c := range []struct {
		name, link, target, key string
	}{
		{"note linked from outside", "global/user/x.md", filepath.Join(outside, "secret.md"), "detail.backup_link"},
		{"folder linked from outside", "global/reference", filepath.Join(outside, "vault"), "detail.backup_link_folder"},
		{"link to a memory of the home", "global/user/alias.md", "name-is-ada.md", "detail.backup_link"},
		{"dangling link", "agents/bot/kv.json", filepath.Join(outside, "gone.json"), "detail.backup_link"},
		{"linked trash", ".trash/old.md", filepath.Join(outside, "secret.md"), "detail.backup_link"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			st := openHome(t, t.TempDir())
			apply(t, st, write("name-is-ada", memory.ScopeGlobal, ""))
			p := filepath.Join(st.Root(), filepath.FromSlash(c.link))
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(c.target, p); err != nil {
				t.Fatal(err)
			}
			res, err := Create(ctx, st, Options{})
			if err != nil {
				t.Fatal(err)
			}
			m := res.Manifest
			want := LeftOut{Path: c.link, Code: LeftLink, Target: c.target, DetailKey: c.key}
			if m.LeftOutCount != 1 || len(m.LeftOut) != 1 {
				t.Fatalf("left out %d %+v, want %+v", m.LeftOutCount, m.LeftOut, want)
			}
			got := m.LeftOut[0]
			if got.Path != want.Path || got.Code != want.Code || got.Target != want.Target || got.DetailKey != want.DetailKey ||
				got.DetailArgs["Target"] != c.target || !strings.Contains(got.Detail, c.target) {
				t.Fatalf("left out %+v, want %+v", got, want)
			}
			for _, name := range entries(t, res.Path) {
				if strings.HasPrefix(name, MemoryDir+"/"+c.link) {
					t.Fatalf("the archive holds %s", name)
				}
			}
			if m.Memories != 1 {
				t.Fatalf("memories %d, want 1", m.Memories)
			}
			pm, err := Preview(ctx, res.Path, t.TempDir(), nil)
			if err != nil || pm.LeftOutCount != 1 || len(pm.LeftOut) != 1 || pm.LeftOut[0].Path != c.link {
				t.Fatalf("preview %+v (%v)", pm.LeftOut, err)
			}
		})
	}
}

// A pipe is not data: left out, and said so; so many links that listing them all would bloat
// every result are all counted, the first MaxLeftOutListed listed.
func TestLeftOutSpecialFilesAndBound(t *testing.T) {
	ctx := context.Background()
	st := openHome(t, t.TempDir())
	root := st.Root()
	if err := syscall.Mkfifo(filepath.Join(root, "global", "pipe.md"), 0o600); err != nil {
		t.Skip("no fifo here:", err)
	}
	if err := os.MkdirAll(filepath.Join(root, "links"), 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range MaxLeftOutListed + 5 {
		if err := os.Symlink("/nowhere", filepath.Join(root, "links", strings.Repeat("l", 1+i%50)+string(rune('a'+i/50)))); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Create(ctx, st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Manifest
	if m.LeftOutCount != MaxLeftOutListed+6 || len(m.LeftOut) != MaxLeftOutListed {
		t.Fatalf("left out %d, listed %d", m.LeftOutCount, len(m.LeftOut))
	}
	if m.LeftOut[0].Path != "global/pipe.md" || m.LeftOut[0].Code != LeftSpecial || m.LeftOut[0].DetailKey != "detail.backup_special" {
		t.Fatalf("first left out %+v, want the pipe", m.LeftOut[0])
	}
}

// A memory folder that is itself a link (moved to another disk) is the home's business: the
// store reads through it, and so does the backup. Before, the walk stopped at the link and the
// archive held the index and no file at all, without a word.
func TestLinkedMemoryFolderIsBackedUp(t *testing.T) {
	ctx := context.Background()
	home, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(home, MemoryDir)); err != nil {
		t.Fatal(err)
	}
	st := openHome(t, home)
	apply(t, st, write("name-is-ada", memory.ScopeGlobal, ""), memory.Item{Op: memory.OpAppendDaily, Text: "moved the folder"})
	res, err := Create(ctx, st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := res.Manifest; m.Memories != 1 || m.Daily != 1 || m.LeftOutCount != 0 {
		t.Fatalf("manifest %+v", m)
	}
	if names := entries(t, res.Path); !contains(names, MemoryDir+"/global/user/name-is-ada.md") {
		t.Fatalf("archive %q lacks the memory", names)
	}
	// Where the link leads is the memory folder too: no archive may be written there.
	if _, err := Create(ctx, st, Options{Dest: filepath.Join(elsewhere, "b"+Ext)}); !isCode(err, CodeDestInsideMemory) {
		t.Fatalf("a backup inside the linked memory folder: %v", err)
	}
}

func isCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// An in-place restore replaces every entry of the memory folder, links included, and its
// pre-restore backup cannot hold them: the result names each one so the person can put it
// back, and what a link pointed to is never touched.
func TestRestoreInPlaceNamesTheLinksItReplaced(t *testing.T) {
	ctx := context.Background()
	st := openHome(t, t.TempDir())
	apply(t, st, write("name-is-ada", memory.ScopeGlobal, ""))
	first, err := Create(ctx, st, Options{Dest: filepath.Join(t.TempDir(), "first"+Ext)})
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	place(t, outside, "refs/paper.md", "kept outside\n")
	link := filepath.Join(st.Root(), "global", "reference")
	if err := os.Symlink(filepath.Join(outside, "refs"), link); err != nil {
		t.Fatal(err)
	}
	apply(t, st, write("likes-tea", memory.ScopeGlobal, ""))
	rr, err := RestoreInPlace(ctx, st, first.Path, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if rr.PreLeftOutCount != 1 || len(rr.PreLeftOut) != 1 || rr.PreLeftOut[0].Path != "global/reference" ||
		rr.PreLeftOut[0].Target != filepath.Join(outside, "refs") {
		t.Fatalf("restore result %+v", rr)
	}
	if data, err := os.ReadFile(filepath.Join(outside, "refs", "paper.md")); err != nil || string(data) != "kept outside\n" {
		t.Fatalf("the link's target was touched: %q %v", data, err)
	}
	pre, err := Preview(ctx, rr.PreBackup, t.TempDir(), nil)
	if err != nil || pre.Memories != 2 || pre.LeftOutCount != 1 {
		t.Fatalf("pre-restore backup %+v (%v)", pre, err)
	}
	var slugs []string
	ms, _, err := st.List(ctx, memory.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		slugs = append(slugs, m.Slug)
	}
	sort.Strings(slugs)
	if strings.Join(slugs, ",") != "name-is-ada" {
		t.Fatalf("restored memories %q", slugs)
	}
}

// A read manifest's left-out list is cut to what a backup writes and names only the backup's
// own reasons: no checksum covers the manifest, and the UI translates DetailKey.
func TestKnownLeftOut(t *testing.T) {
	for _, c := range []struct {
		key, want string
	}{
		{"detail.backup_link", "detail.backup_link"},
		{"detail.backup_link_folder", "detail.backup_link_folder"},
		{"detail.backup_special", "detail.backup_special"},
		{"error.backup_checksum_mismatch", ""},
		{"", ""},
	} {
		got := knownLeftOut([]LeftOut{{Path: "a", DetailKey: c.key, DetailArgs: map[string]any{"Target": "x"}}})
		if got[0].DetailKey != c.want || (c.want == "" && got[0].DetailArgs != nil) {
			t.Errorf("%q read as %+v, want key %q", c.key, got[0], c.want)
		}
	}
	if n := len(knownLeftOut(make([]LeftOut, MaxLeftOutListed+3))); n != MaxLeftOutListed {
		t.Errorf("kept %d entries, want %d", n, MaxLeftOutListed)
	}
}

// quotaTotals is what `engram quota` counts over every scope: entries used and archived.
func quotaTotals(t *testing.T, ctx context.Context, st *memory.Store) (used, archived int) {
	t.Helper()
	q, err := st.Quota(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range q.Scopes {
		used, archived = used+s.Used, archived+s.Archived
	}
	return used, archived
}
