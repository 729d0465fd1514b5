package memory

import (
	"strings"
	"testing"
)

// FuzzProjectIdentity: a project folder's git config and origin URL are outside input (a
// cloned repository's owner chose the URL). Reading them never panics; a normalised remote is
// one line, non-empty, free of ".." segments and of the user part, and stable when the same
// URL is read again; an accepted id is one the rule admits.
func FuzzProjectIdentity(f *testing.F) {
	for _, s := range []string{
		"[remote \"origin\"]\n\turl = git@github.com:acme/widget.git\n",
		"[remote \"origin\"]\n\turl = \"https://user:pw@Example.com:8443//a/b.git/\" ; c\n",
		"[remote.origin]\nurl=ssh://git@host/~me/repo\n",
		"[remote \"origin\"\nurl = broken\n",
		"[remote \"origin\"]\nurl = \\\"esc\\\\aped\n",
		"[remote \"origin\"]\nurl = ../sibling.git\n",
		"[remote \"origin\"]\nurl = file:///srv/../etc/repo.git\n",
		"[remote \"origin\"]\nurl = C:\\repos\\x\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cfg string) {
		raw := configValue([]byte(cfg), "remote", "origin", "url")
		for _, in := range []string{raw, cfg} {
			got, ok := NormalizeRemote(in, "/home/p/proj")
			if !ok {
				continue
			}
			if got == "" || strings.ContainsAny(got, "\n\r\x00") || strings.Contains(got, "/../") || strings.HasSuffix(got, "/..") {
				t.Fatalf("NormalizeRemote(%q) = %q", in, got)
			}
			if !strings.HasPrefix(got, "file:") && strings.Contains(got, "@") && strings.Contains(strings.SplitN(got, "/", 2)[0], "@") {
				t.Fatalf("NormalizeRemote(%q) kept a user: %q", in, got)
			}
			if again, ok2 := NormalizeRemote(in, "/home/p/proj"); again != got || !ok2 {
				t.Fatalf("NormalizeRemote(%q) unstable: %q then %q", in, got, again)
			}
		}
		for _, line := range strings.Split(cfg, "\n") {
			if id := strings.TrimSpace(line); ValidProjectID(id) && (strings.Contains(id, "..") || len(id) > maxProjectIDChars || strings.ContainsAny(id, " \t")) {
				t.Fatalf("ValidProjectID admitted %q", id)
			}
		}
	})
}
