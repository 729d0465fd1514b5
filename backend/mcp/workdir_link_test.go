package mcp_test

import (
	"os"
	"path/filepath"
	"testing"
)

// A session's own folder named by another spelling of it — its real path when the session
// was given a link (macOS's /tmp is /private/tmp; `pwd -P` and many tools report the real
// path), or a link to it from outside — was refused as "outside the folders this session may
// use", naming that very folder: the folders were compared as written before symlinks were
// looked at. A folder is now inside the session's folders when it is, links resolved; a link
// from inside them to elsewhere is still refused.
func TestWorkdirSpelledThroughALink(t *testing.T) {
	home, base := t.TempDir(), t.TempDir()
	own, other := filepath.Join(base, "own"), filepath.Join(base, "other")
	for _, d := range []string{own, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	viaLink, escape := filepath.Join(base, "own-link"), filepath.Join(own, "escape")
	if err := os.Symlink(own, viaLink); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, escape); err != nil {
		t.Fatal(err)
	}
	cli(t, home, "write", "--scope", "project", "--workdir", own, "--type", "project", "--slug", "own-note",
		"--title", "Own note", "--body", "Builds with make.")
	cli(t, home, "write", "--scope", "project", "--workdir", other, "--type", "project", "--slug", "other-note",
		"--title", "Other note", "--body", "Not for this session.")
	for _, tc := range []struct{ given, named string }{{viaLink, own}, {own, viaLink}} {
		c := stdio(t, home, clientOpts{}, "--agent", "tester", "--workdir", tc.given)
		items := c.ok("memory_list", map[string]any{"scope": "project", "workdir": tc.named})["items"].([]any)
		if len(items) != 1 || items[0].(map[string]any)["slug"] != "own-note" {
			t.Fatalf("--workdir %s, workdir %s: %v", tc.given, tc.named, items)
		}
		c.fails("memory_list", map[string]any{"scope": "project", "workdir": escape}, "workdir_not_allowed")
		c.fails("memory_list", map[string]any{"scope": "project", "workdir": other}, "workdir_not_allowed")
	}
}
