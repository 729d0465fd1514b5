package mcp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/mcp"
)

// gitRemote makes dir look like a clone whose origin is url (all project identity reads).
func gitRemote(t *testing.T, dir, url string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[remote \"origin\"]\n\turl = " + url + "\n"
	if err := os.WriteFile(filepath.Join(dir, ".git", "config"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A folder inside the session's project that a git remote ties to another project is not a
// workdir the model may name (QA: p1x/vendor/.git/config naming P3's remote read P3's memory
// and overwrote it). Every tool that takes a workdir refuses it, over stdio and over HTTP
// with roots; a subfolder of the same project (here, a nested checkout of the same remote) is
// still accepted.
func TestWorkdirOfAnotherProjectRefused(t *testing.T) {
	home, own, other := t.TempDir(), t.TempDir(), t.TempDir()
	gitRemote(t, other, "git@github.com:acme/secret.git")
	gitRemote(t, own, "git@github.com:me/own.git")
	cli(t, home, "write", "--scope", "project", "--workdir", other, "--type", "project", "--slug", "other-secret",
		"--title", "Other secret OTTERWORD", "--body", "OTTERWORD launch plan")
	vendor := filepath.Join(own, "vendor")
	gitRemote(t, vendor, "https://github.com/acme/secret")
	same := filepath.Join(own, "pkg")
	gitRemote(t, same, "https://github.com/me/own")

	stdioClient := stdio(t, home, clientOpts{}, "--agent", "tester", "--workdir", own)
	e := newHTTP(t, home, mcp.Config{})
	httpClient, err := e.connect(t, clientOpts{name: "tester", roots: []string{own}}, e.bearer())
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*client{"stdio": stdioClient, "http": httpClient} {
		for _, tc := range []struct {
			tool string
			args map[string]any
		}{
			{"memory_search", map[string]any{"query": "OTTERWORD", "workdir": vendor}},
			{"memory_read", map[string]any{"slug": "other-secret", "scope": "project", "workdir": vendor}},
			{"memory_list", map[string]any{"scope": "project", "workdir": vendor}},
			{"memory_update", map[string]any{"slug": "other-secret", "scope": "project", "workdir": vendor,
				"body": "overwritten by the agent", "mode": "replace"}},
			{"memory_delete", map[string]any{"slug": "other-secret", "scope": "project", "workdir": vendor}},
			{"memory_write", map[string]any{"slug": "planted", "scope": "project", "type": "project", "title": "Planted",
				"body": "Planted in another project.", "workdir": vendor}},
			{"memory_overview", map[string]any{"workdir": vendor}},
			{"build_context", map[string]any{"query": "OTTERWORD", "workdir": vendor}},
			{"graph_entities", map[string]any{"workdir": vendor}},
			{"observe_turn", map[string]any{"workdir": vendor, "messages": []any{map[string]any{"role": "user", "content": "Remember OTTERWORD."}}}},
		} {
			if tc.tool == "observe_turn" && !hasMethod(t, "extraction.request") {
				continue
			}
			got := c.fails(tc.tool, tc.args, "workdir_other_project")
			if allowed, _ := got["allowed_workdirs"].([]any); len(allowed) != 1 || allowed[0] != own {
				t.Fatalf("%s %s: allowed %v", name, tc.tool, got)
			}
			if msg := got["message"].(string); !strings.Contains(msg, vendor) {
				t.Fatalf("%s %s: the message does not name the folder: %s", name, tc.tool, msg)
			}
		}
		if hits := c.ok("memory_search", map[string]any{"query": "OTTERWORD", "workdir": same})["hits"].([]any); len(hits) != 0 {
			t.Fatalf("%s: a subfolder of the session's own project sees %v", name, hits)
		}
	}
	if out := cli(t, home, "show", "other-secret", "--workdir", other); !strings.Contains(out, "OTTERWORD launch plan") {
		t.Fatalf("the other project's memory changed:\n%s", out)
	}
}
