package memory

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestNormalizeRemote(t *testing.T) {
	const want = "github.com/acme/widget"
	for _, tc := range []struct {
		raw, want string
		ok        bool
	}{
		{"git@github.com:acme/widget.git", want, true},
		{"git@GitHub.com:acme/widget", want, true},
		{"github.com:acme/widget.git", want, true},
		{"ssh://git@github.com/acme/widget.git", want, true},
		{"ssh://git@github.com:22/acme/widget/", want, true},
		{"https://github.com/acme/widget", want, true},
		{"https://user:secret@GITHUB.COM/acme/widget.git/", want, true},
		{"https://github.com:443//acme//widget.git", want, true},
		{"git://github.com/acme/widget", want, true},
		{"https://github.com/acme/Widget", "github.com/acme/Widget", true}, // the path keeps its case
		{"https://gitlab.example.org/group/sub/widget.git", "gitlab.example.org/group/sub/widget", true},
		{"/srv/git/widget.git", "file:/srv/git/widget", true},
		{"file:///srv/git/widget.git", "file:/srv/git/widget", true},
		{"../widget.git", "file:/home/p/widget", true},
		{"", "", false},
		{"https://github.com/", "", false},
		{"git@github.com:", "", false},
		{"https://exa mple.com/a", "", false},
	} {
		got, ok := NormalizeRemote(tc.raw, "/home/p/proj")
		if got != tc.want || ok != tc.ok {
			t.Errorf("NormalizeRemote(%q) = %q, %v; want %q, %v", tc.raw, got, ok, tc.want, tc.ok)
		}
	}
}

func TestConfigValue(t *testing.T) {
	cfg := `[core]
	bare = false
# url = https://wrong/comment
[remote "upstream"]
	url = https://example.com/up/stream
[Remote "origin"]
	fetch = +refs/heads/*:refs/remotes/origin/*
	URL = "git@example.com:team/repo.git" ; a comment
	url = https://example.com/second
[branch "main"]
	remote = origin
`
	if got := configValue([]byte(cfg), "remote", "origin", "url"); got != "git@example.com:team/repo.git" {
		t.Fatalf("origin url = %q", got)
	}
	if got := configValue([]byte("[remote.origin]\nurl=https://h/o/r\n"), "remote", "origin", "url"); got != "https://h/o/r" {
		t.Fatalf("old-style section: %q", got)
	}
	if got := configValue([]byte("[remote \"Origin\"]\nurl=https://h/o/r\n"), "remote", "origin", "url"); got != "" {
		t.Fatalf("the subsection is case-sensitive: %q", got)
	}
}

// gitClone makes dir look like a clone whose origin is url (only what the resolver reads).
func gitClone(t *testing.T, dir, url string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[core]\n\trepositoryformatversion = 0\n[remote \"origin\"]\n\turl = " + url + "\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	if err := os.WriteFile(filepath.Join(dir, ".git", "config"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, parts ...string) string {
	t.Helper()
	dir := filepath.Join(parts...)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	canon, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return canon
}

func resolve(t *testing.T, wd string) Project {
	t.Helper()
	p, err := ResolveProject(wd)
	if err != nil {
		t.Fatalf("ResolveProject(%s): %v", wd, err)
	}
	return p
}

func TestResolveProject(t *testing.T) {
	base := t.TempDir()
	ssh := mkdir(t, base, "a", "proj")
	gitClone(t, ssh, "git@github.com:acme/widget.git")
	https := mkdir(t, base, "b", "elsewhere")
	gitClone(t, https, "https://github.com/acme/widget")
	other := mkdir(t, base, "c", "proj")
	gitClone(t, other, "git@github.com:acme/other.git")
	plain := mkdir(t, base, "plain")

	a, b := resolve(t, ssh), resolve(t, https)
	if a.Kind != ProjectByRemote || a.Identity != "github.com/acme/widget" || a.Key != b.Key {
		t.Fatalf("two clones: %+v / %+v", a, b)
	}
	if a.Key == a.PathKey || a.PathKey != ProjectKey(ssh) || !ValidProjectKey(a.Key) {
		t.Fatalf("keys: %+v", a)
	}
	if o := resolve(t, other); o.Key == a.Key {
		t.Fatal("an unrelated repository shares the key")
	}
	// A folder with neither keeps the key older builds gave it: nothing moves for it.
	if p := resolve(t, plain); p.Kind != ProjectByPath || p.Key != ProjectKey(plain) || p.Identity != plain {
		t.Fatalf("plain folder: %+v", p)
	}

	// A linked worktree: .git is a file naming the gitdir, whose commondir leads to the config.
	wt := mkdir(t, base, "wt")
	gitdir := mkdir(t, ssh, ".git", "worktrees", "wt")
	if err := os.WriteFile(filepath.Join(gitdir, "commondir"), []byte("../..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+gitdir+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if w := resolve(t, wt); w.Key != a.Key || w.Kind != ProjectByRemote {
		t.Fatalf("worktree: %+v, want key %s", w, a.Key)
	}

	// The id file wins over the remote; its key is not the key of the same text as a remote.
	if err := os.WriteFile(filepath.Join(other, ProjectIDFile), []byte("# our project\n\ngithub.com/acme/widget\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := resolve(t, other)
	if o.Kind != ProjectByID || o.Identity != "github.com/acme/widget" || o.Key == a.Key {
		t.Fatalf("id file: %+v (remote key %s)", o, a.Key)
	}
}

// A hostile id file (or a broken one) is passed over with a problem: the project keeps what
// it would be without it, and no id can name anything but a hash.
func TestResolveProjectRefusesBadIDs(t *testing.T) {
	base := t.TempDir()
	wd := mkdir(t, base, "proj")
	gitClone(t, wd, "https://example.com/team/repo.git")
	want := resolve(t, wd)
	for _, bad := range []string{"../../etc", "a/../b", "has space", "-dash", "\x00x", strings.Repeat("a", 200), "", "# only a comment"} {
		if err := os.WriteFile(filepath.Join(wd, ProjectIDFile), []byte(bad+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		p := resolve(t, wd)
		if p.Key != want.Key || p.Kind != ProjectByRemote || p.Problem == "" {
			t.Errorf("id %q: %+v", bad, p)
		}
	}
	// Not a regular file: a link to something else is not read.
	_ = os.Remove(filepath.Join(wd, ProjectIDFile))
	target := filepath.Join(base, "target")
	_ = os.WriteFile(target, []byte("stolen-id\n"), 0o644)
	if err := os.Symlink(target, filepath.Join(wd, ProjectIDFile)); err != nil {
		t.Fatal(err)
	}
	if p := resolve(t, wd); p.Kind != ProjectByRemote || p.Problem == "" {
		t.Errorf("linked id file: %+v", p)
	}
	for _, good := range []string{"acme-widget", "01HZX3V8Q2", "team:repo@v2", "a.b_c+d/e"} {
		if !ValidProjectID(good) {
			t.Errorf("ValidProjectID(%q) = false", good)
		}
	}
}

// The cache answers without reading files inside projectRecheck, and sees a changed file
// after it (a remote added, an id file committed).
func TestProjectsCache(t *testing.T) {
	base := t.TempDir()
	wd := mkdir(t, base, "proj")
	clock := newClock(baseTime)
	ps := NewProjects(clock.Now)
	first, err := ps.Resolve(wd)
	if err != nil || first.Kind != ProjectByPath {
		t.Fatalf("first: %+v %v", first, err)
	}
	gitClone(t, wd, "git@example.com:team/repo.git")
	if p, _ := ps.Resolve(wd); p.Key != first.Key {
		t.Fatalf("the cache read the files again inside %s", projectRecheck)
	}
	clock.Advance(projectRecheck + time.Millisecond)
	p, _ := ps.Resolve(wd)
	if p.Kind != ProjectByRemote || p.Identity != "example.com/team/repo" {
		t.Fatalf("after the remote was added: %+v", p)
	}
	// An unchanged folder keeps its answer across rechecks.
	clock.Advance(projectRecheck + time.Millisecond)
	if again, _ := ps.Resolve(wd); !reflect.DeepEqual(again, p) {
		t.Fatalf("recheck changed an unchanged answer: %+v", again)
	}
	if err := os.WriteFile(filepath.Join(wd, ProjectIDFile), []byte("team-repo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	clock.Advance(projectRecheck + time.Millisecond)
	if p, _ := ps.Resolve(wd); p.Kind != ProjectByID || p.Identity != "team-repo" {
		t.Fatalf("after the id file: %+v", p)
	}
	if _, err := ps.Resolve("relative/path"); err == nil {
		t.Fatal("a relative workdir resolved")
	}
}
