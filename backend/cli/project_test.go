package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/api"
)

// TestProjectVerb shows a folder's identity and key, and that a memory written from one clone
// is counted for another clone of the same repository.
func TestProjectVerb(t *testing.T) {
	h := newHome(t)
	base := t.TempDir()
	clone := func(url string, parts ...string) string {
		dir := filepath.Join(append([]string{base}, parts...)...)
		if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[remote \"origin\"]\n\turl = "+url+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		real, _ := filepath.EvalSymlinks(dir)
		return real
	}
	a := clone("git@github.com:acme/widget.git", "a", "proj")
	b := clone("https://github.com/acme/widget/", "b", "widget")
	h.ok("write", "--scope", "project", "--workdir", a, "--type", "project", "--slug", "uses-postgres", "--title", "Postgres",
		"--body", "The service uses Postgres 16.", "--quote", "Postgres 16", "--confidence", "medium")

	var info api.ProjectInfo
	if err := json.Unmarshal([]byte(h.ok("project", b, "--json")), &info); err != nil {
		t.Fatal(err)
	}
	if info.Kind != api.ProjectByRemote || info.Identity != "github.com/acme/widget" || info.Memories != 1 || info.Workdir != b {
		t.Fatalf("project b: %+v", info)
	}
	out := h.ok("project", b)
	for _, want := range []string{"Project folder: " + b, "identity: github.com/acme/widget (from the git remote origin)",
		"key: " + info.Key + ": 1 memory in projects/" + info.Key + "/"} {
		if !strings.Contains(out, want) {
			t.Fatalf("human output lacks %q:\n%s", want, out)
		}
	}
	plain := filepath.Join(base, "plain")
	_ = os.MkdirAll(plain, 0o755)
	if err := os.WriteFile(filepath.Join(plain, ".engram-project"), []byte("../escape\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out = h.ok("project", plain)
	if !strings.Contains(out, "from the folder path") || !strings.Contains(out, "passed over: .engram-project") {
		t.Fatalf("plain folder with a bad id:\n%s", out)
	}
	// A missing folder, or a file, is refused in the person's words (it printed Go's "stat …:
	// no such file or directory").
	for _, p := range []string{filepath.Join(base, "missing"), filepath.Join(plain, ".engram-project")} {
		code, _, errs := h.run("", "project", p)
		if code != 2 || strings.TrimSpace(errs) != p+" is not a folder on this computer." {
			t.Fatalf("project %s: exit %d, %q", p, code, errs)
		}
	}
}

// TestProjectTrust: a second folder whose id file names a project another folder uses is kept
// apart and told how to join; --trust joins it, --untrust keeps it apart again, and a folder
// without an id file has nothing to trust.
func TestProjectTrust(t *testing.T) {
	h := newHome(t)
	base := t.TempDir()
	mk := func(name, id string) string {
		dir := filepath.Join(base, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if id != "" {
			if err := os.WriteFile(filepath.Join(dir, ".engram-project"), []byte(id+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		real, _ := filepath.EvalSymlinks(dir)
		return real
	}
	own, other := mk("own", "acme-app"), mk("other", "acme-app")
	h.ok("write", "--scope", "project", "--workdir", own, "--type", "project", "--slug", "uses-postgres", "--title", "Postgres",
		"--body", "The service uses Postgres 16.", "--quote", "Postgres 16", "--confidence", "medium")
	look := func(args ...string) api.ProjectInfo {
		t.Helper()
		var info api.ProjectInfo
		if err := json.Unmarshal([]byte(h.ok(append([]string{"project", other, "--json"}, args...)...)), &info); err != nil {
			t.Fatal(err)
		}
		return info
	}
	if info := look(); info.Kind != api.ProjectByPath || info.UntrustedID != "acme-app" || info.Memories != 0 {
		t.Fatalf("untrusted folder: %+v", info)
	}
	out := h.ok("project", other)
	if !strings.Contains(out, "not trusted: its .engram-project names the project “acme-app”") ||
		!strings.Contains(out, "engram project --trust "+other) || !strings.Contains(out, "held by "+own+":") {
		t.Fatalf("untrusted folder, human output:\n%s", out)
	}
	if info := look("--trust"); info.Kind != api.ProjectByID || info.Identity != "acme-app" || info.Memories != 1 {
		t.Fatalf("trusted folder: %+v", info)
	}
	if got := h.ok("list", "--scope", "project", "--workdir", other); !strings.Contains(got, "uses-postgres") {
		t.Fatalf("the trusted folder does not list the project's memory:\n%s", got)
	}
	if info := look("--untrust"); info.Kind != api.ProjectByPath || info.UntrustedID != "acme-app" {
		t.Fatalf("untrusted again: %+v", info)
	}
	if got := h.ok("list", "--scope", "project", "--workdir", other); strings.Contains(got, "uses-postgres") {
		t.Fatalf("the untrusted folder lists the project's memory:\n%s", got)
	}
	code, _, errs := h.run("", "project", mk("plain", ""), "--trust")
	if code == 0 || !strings.Contains(errs, "has no .engram-project file, so there is nothing to trust") {
		t.Fatalf("trusting a folder without an id file: %d %s", code, errs)
	}
	// An id file that is there but passed over is named as such, not as missing.
	code, _, errs = h.run("", "project", mk("bad-id", "../escape"), "--trust")
	if code == 0 || !strings.Contains(errs, "its .engram-project is passed over (") || strings.Contains(errs, "has no .engram-project file") {
		t.Fatalf("trusting a folder whose id file is invalid: %d %s", code, errs)
	}
	code, _, errs = h.run("", "project", other, "--trust", "--untrust")
	if code == 0 || !strings.Contains(errs, "is not a trust choice") {
		t.Fatalf("--trust and --untrust together: %d %s", code, errs)
	}
}
