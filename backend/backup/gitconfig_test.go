package backup

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSanitizeGitConfig(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		dropped      []string
		keeps        []string
	}{
		{"what Engram writes stays untouched", "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = https://example.org/m.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n", nil,
			[]string{"url = https://example.org/m.git", "merge = refs/heads/main"}},
		{"programs git would run", "[core]\n\tbare = false\n\tfsMonitor = x\n\tpager = less\n[diff \"pdf\"]\n\ttextconv = pdftotext\n[credential]\n\thelper = !x\n[includeIf \"gitdir:/\"]\n\tpath = /e\n",
			[]string{"core.fsmonitor", "core.pager", "credential.helper", "diff.pdf.textconv", "includeif.gitdir:/.path"}, []string{"bare = false"}},
		{"a remote that runs a command, and an option outside a remote", "[remote \"a\"]\n\turl = ext::sh -c id\n[remote]\n\turl = x\n[remote \"b\"]\n\turl = --upload-pack=id\n\tpushurl = /p\n",
			[]string{"remote.a.url", "remote.b.pushurl", "remote.b.url", "remote.url"}, nil},
		{"a file git's format cannot read", "[core\n\tfsmonitor = x", []string{"config"}, []string{"bare = false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, ".git", "config")
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(tc.config), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := sanitizeGitConfig(root)
			if err != nil || !slices.Equal(got, tc.dropped) {
				t.Fatalf("dropped %q %v, want %q", got, err, tc.dropped)
			}
			data, _ := os.ReadFile(p)
			if tc.dropped == nil && string(data) != tc.config {
				t.Fatalf("a clean config was rewritten:\n%s", data)
			}
			for _, k := range tc.keeps {
				if !strings.Contains(string(data), k) {
					t.Fatalf("lost %q:\n%s", k, data)
				}
			}
			for _, d := range tc.dropped {
				if d != "config" && strings.Contains(strings.ToLower(string(data)), d[strings.LastIndex(d, ".")+1:]+" =") {
					t.Fatalf("%s still there:\n%s", d, data)
				}
			}
		})
	}
	if got, err := sanitizeGitConfig(t.TempDir()); got != nil || err != nil {
		t.Fatalf("no .git: %v %v", got, err)
	}
}
