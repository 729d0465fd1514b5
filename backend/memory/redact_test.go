package memory

import "testing"

func TestRedactKeyLike(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"user-note-production-token-akiaz7q3xk4m2plr9wtb-prefer-emacs", "user-note-production-token-redacted-prefer-emacs"},
		{"AWS creds AKIAZ7Q3XK4M2PLR9WTB here", "AWS creds redacted here"},
		{"deploy key ghp_0123456789abcdefghijABCDEFGHIJ012345", "deploy key redacted"},
		{"prefers-tea", "prefers-tea"},
		{"sha256-checksum ipv6 2026-12-06", "sha256-checksum ipv6 2026-12-06"},
		{"喜欢川菜 (Sichuan)", "喜欢川菜 (Sichuan)"},
		{"internationalization", "internationalization"},
		{"", ""},
	} {
		if got := RedactKeyLike(c.in); got != c.want {
			t.Errorf("RedactKeyLike(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
