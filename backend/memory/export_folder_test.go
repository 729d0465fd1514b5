package memory

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// A Markdown folder export: every live memory and journal day, byte for byte, in a layout a
// person reads (project folders by name, two projects with one name told apart), links and
// relation lines as written; archived memories stay out; a folder that holds anything, one
// inside the home and a relative path are refused without writing.
func TestExportFolder(t *testing.T) {
	e := newEnv(t)
	a := filepath.Join(t.TempDir(), "a", "shop")
	b := filepath.Join(t.TempDir(), "b", "shop")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	body := "Works at [[Acme Corp]] with [[bob-notes]].\n\n- uses [[Postgres]]\n"
	items := []Item{
		{Op: OpWrite, Scope: ScopeGlobal, Type: TypeUser, Slug: "name", Title: sp("Name is Ada"), Body: sp(body), Confidence: ConfidenceMedium, SourceQuote: sp("I am Ada")},
		{Op: OpWrite, Scope: ScopeProject, Workdir: a, Type: TypeProject, Slug: "database", Title: sp("DB"), Body: sp("Postgres 16"), Confidence: ConfidenceLow},
		{Op: OpWrite, Scope: ScopeProject, Workdir: b, Type: TypeProject, Slug: "database", Title: sp("DB"), Body: sp("MySQL 8"), Confidence: ConfidenceLow},
		{Op: OpWrite, Scope: ScopeAgent, Agent: "claude", Type: TypeFeedback, Slug: "terse", Title: sp("Terse"), Body: sp("Be terse."), Confidence: ConfidenceLow},
		{Op: OpWrite, Scope: ScopeGlobal, Type: TypeReference, Slug: "old-note", Title: sp("Old"), Body: sp("archived soon"), Confidence: ConfidenceLow},
		{Op: OpAppendDaily, Text: "shipped the export"},
	}
	for _, it := range items {
		e.ok(it)
	}
	e.ok(Item{Op: OpArchive, Scope: ScopeGlobal, Slug: "old-note"})

	dir := filepath.Join(t.TempDir(), "vault")
	rep, err := e.s.ExportFolder(e.ctx, dir, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Memories != 4 || rep.Daily != 1 || rep.Gone != 0 {
		t.Fatalf("report %+v", rep)
	}
	var got []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(got)
	day := e.clock.Now().Format("2006-01-02")
	keyA, keyB := ProjectKey(mustCanon(t, a)), ProjectKey(mustCanon(t, b))
	want := []string{
		"agents/claude/feedback/terse.md", "global/user/name.md", "journal/" + day + ".md",
		"projects/shop-" + keyA + "/project/database.md", "projects/shop-" + keyB + "/project/database.md",
	}
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	copied, _ := os.ReadFile(filepath.Join(dir, "global", "user", "name.md"))
	if !bytes.Equal(copied, e.file("global/user/name.md")) || !bytes.Contains(copied, []byte("- uses [[Postgres]]")) {
		t.Fatalf("not the memory's own bytes:\n%s", copied)
	}

	// Refusals write nothing.
	if _, err := e.s.ExportFolder(e.ctx, dir, Filter{}); CodeOf(err) != CodeExportDirNotEmpty {
		t.Fatalf("non-empty folder: %v", err)
	}
	inHome := filepath.Join(e.home, "export")
	if _, err := e.s.ExportFolder(e.ctx, inHome, Filter{}); CodeOf(err) != CodeExportDirInHome {
		t.Fatalf("folder in the home: %v", err)
	}
	if _, err := os.Stat(inHome); !os.IsNotExist(err) {
		t.Fatalf("a refused export made %s", inHome)
	}
	if _, err := e.s.ExportFolder(e.ctx, "relative/dir", Filter{}); CodeOf(err) != CodeInvalidWorkdir {
		t.Fatalf("relative folder: %v", err)
	}
	// A folder that cannot be made fails in words before any copy (under a file here; /proc
	// in the report that found it), and the folders an export makes are private.
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = e.s.ExportFolder(e.ctx, filepath.Join(blocker, "vault"), Filter{})
	var me *Error
	if CodeOf(err) != CodeExportWriteFailed || !errors.As(err, &me) || me.Args["DetailKey"] != "detail.not_a_folder" {
		t.Fatalf("a folder under a file: %v", err)
	}
	for _, d := range []string{dir, filepath.Join(dir, "global"), filepath.Join(dir, "global", "user")} {
		if info, err := os.Stat(d); err != nil || info.Mode().Perm() != 0o700 {
			t.Fatalf("%s: %v %v, want 0700", d, info.Mode(), err)
		}
	}
	// An export of nothing still makes the folder it reports.
	empty := filepath.Join(t.TempDir(), "nested", "empty")
	if rep, err := e.s.ExportFolder(e.ctx, empty, Filter{Scope: ScopeAgent, Agent: "nobody"}); err != nil || rep.Memories != 0 {
		t.Fatalf("an empty export: %+v %v", rep, err)
	}
	if info, err := os.Stat(empty); err != nil || !info.IsDir() {
		t.Fatalf("the empty export made no folder: %v", err)
	}

	// A filter narrows it: one project only, named by its folder alone.
	one := filepath.Join(t.TempDir(), "one")
	if rep, err := e.s.ExportFolder(e.ctx, one, Filter{Scope: ScopeProject, Workdir: a}); err != nil || rep.Memories != 1 || rep.Daily != 0 {
		t.Fatalf("one project: %+v %v", rep, err)
	}
	if data, err := os.ReadFile(filepath.Join(one, "projects", "shop", "project", "database.md")); err != nil || !bytes.Contains(data, []byte("Postgres 16")) {
		t.Fatalf("one project's file: %v", err)
	}
}

// A folder reached through a symbolic link into the home is the home's folder: an export there
// is refused like one named inside the home, and nothing is written under the memory folder.
func TestExportFolderThroughALinkIntoTheHome(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("tea", "Tea", "Likes tea."))
	inHome := filepath.Join(e.s.Root(), "global", "empty")
	if err := os.MkdirAll(inHome, 0o700); err != nil {
		t.Fatal(err)
	}
	links := t.TempDir()
	for name, target := range map[string]string{"folder": inHome, "home": e.s.home} {
		if err := os.Symlink(target, filepath.Join(links, name)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	for _, dir := range []string{filepath.Join(links, "folder"), filepath.Join(links, "home", "vault"), filepath.Join(links, "home", "a", "b")} {
		if _, err := e.s.ExportFolder(e.ctx, dir, Filter{}); CodeOf(err) != CodeExportDirInHome {
			t.Errorf("export into %s: %v, want %s", dir, err, CodeExportDirInHome)
		}
	}
	if entries, _ := os.ReadDir(inHome); len(entries) != 0 {
		t.Fatalf("the export wrote into the home: %v", entries)
	}
	for _, p := range []string{filepath.Join(e.s.home, "vault"), filepath.Join(e.s.home, "a")} {
		if _, err := os.Lstat(p); err == nil {
			t.Fatalf("the export made %s", p)
		}
	}
}

// Two projects whose folder names differ only by case or Unicode normalisation get two
// export folders that stay two on a case-insensitive file system; a name alone stays plain.
func TestExportProjectFolderNamesFoldCase(t *testing.T) {
	got := projectFolderNames(func(yield func(key, workdir string)) {
		yield("k1", "/a/Shop")
		yield("k2", "/b/shop")
		yield("k3", "/c/Cafe\u0301")
		yield("k4", "/d/café")
		yield("k5", "/e/notes")
	})
	seen := map[string]string{}
	for key, name := range got {
		f := strings.ToLower(norm.NFC.String(name))
		if other, dup := seen[f]; dup {
			t.Fatalf("%s and %s share the folder %q on a case-insensitive disk: %v", key, other, name, got)
		}
		seen[f] = key
	}
	if got["k5"] != "notes" || got["k1"] != "Shop-k1" || got["k2"] != "shop-k2" {
		t.Fatalf("names %v", got)
	}
}
