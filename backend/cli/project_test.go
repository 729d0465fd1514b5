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
	if code, _, _ := h.run("", "project", filepath.Join(base, "missing")); code == 0 {
		t.Fatal("a missing folder resolved")
	}
}
