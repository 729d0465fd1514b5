package mcp

import (
	"strings"
	"testing"
)

func TestNormalizeAgent(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Claude Code", "claude-code"},
		{"cursor-vscode", "cursor-vscode"},
		{"  My Agent 2.0 ", "my-agent-2-0"},
		{"!!!", ""},
		{"", ""},
		{"代理", ""},
		{"a", "a"},
		{"../../etc", "etc"},
		// Device names Windows reserves (a folder agents/con cannot exist there).
		{"CON", "con-agent"},
		{"Aux", "aux-agent"},
		{"com1", "com1-agent"},
		{"Console", "console"},
		{strings.Repeat("x", 100), strings.Repeat("x", 63)},
	} {
		if got := NormalizeAgent(tc.in); got != tc.want {
			t.Errorf("NormalizeAgent(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		p, dir string
		want   bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b/c", "/a/b", true},
		{"/a/bc", "/a/b", false},
		{"/a", "/a/b", false},
		{"/x", "/", true},
	} {
		if got := within(tc.p, tc.dir); got != tc.want {
			t.Errorf("within(%q, %q) = %v", tc.p, tc.dir, got)
		}
	}
}

func TestRootPath(t *testing.T) {
	for _, tc := range []struct {
		uri, want string
		ok        bool
	}{
		{"file:///home/ada/src", "/home/ada/src", true},
		{"file://localhost/home/ada/src/", "/home/ada/src", true},
		{"file:///home/ada/../etc", "/home/etc", true},
		{"file://other-host/share", "", false},
		{"https://example.com/x", "", false},
		{"file:relative", "", false},
	} {
		got, ok := rootPath(tc.uri)
		if got != tc.want || ok != tc.ok {
			t.Errorf("rootPath(%q) = %q, %v", tc.uri, got, ok)
		}
	}
}

func TestEstimateTokens(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc", 1},
		{"abcd", 2},
		{"abcdef", 2},
		{"记忆", 2},
		{"éé", 1},
	} {
		if got := EstimateTokens(tc.s); got != tc.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
	if EstimateTokens(strings.Repeat("记", 100)) <= EstimateTokens(strings.Repeat("a", 100)) {
		t.Error("CJK must count higher than ASCII")
	}
}
