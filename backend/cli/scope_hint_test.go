package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// A slug `engram list` shows but `engram show` (global without flags) cannot find is answered
// with where memories of that slug are and the flag that names each; list says whose each
// memory is, and list -h explains its columns and the *h/*m/*l marks. Before, show said only
// "No memory “agent-note” was found." and nothing told a list row's agent or project.
func TestShowSaysWhereASlugIs(t *testing.T) {
	h := newHome(t)
	wd := filepath.Join(t.TempDir(), "billing")
	h.ok("write", "--agent", "claude-code", "--type", "user", "--slug", "agent-note", "--title", "Agent note", "--body", "x")
	h.ok("write", "--workdir", wd, "--type", "project", "--slug", "agent-note", "--title", "Project note", "--body", "y")
	h.ok("write", "--type", "user", "--slug", "prefers-tea", "--title", "Prefers tea", "--body", "tea")
	for _, tc := range []struct {
		name      string
		args      []string
		code      int
		want, not []string
	}{
		{"show", []string{"show", "agent-note"}, 1, []string{"No memory “agent-note” was found.", "is not a global memory",
			"agent claude-code: engram show agent-note --agent claude-code",
			"project billing (" + wd + "): engram show agent-note --workdir " + wd}, nil},
		{"other verbs too", []string{"accept", "agent-note"}, 1, []string{"engram accept agent-note --agent claude-code"}, nil},
		{"with the flag", []string{"show", "agent-note", "--agent", "claude-code"}, 0, []string{"# Agent note"}, []string{"global memory"}},
		{"a slug nowhere", []string{"show", "no-such-note"}, 1, []string{"No memory “no-such-note” was found."}, []string{"global memory"}},
		{"list names owners", []string{"list"}, 0, []string{"agent    claude-code  Agent note", "project  billing      Project note", "global   -            Prefers tea"}, nil},
		{"list -h explains", []string{"list", "-h"}, 2, []string{"*h, *m or *l marks one not\n          reviewed yet", "owner   the agent of an agent memory"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := h.run("", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %q %q", code, tc.code, out, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out+errs, w) {
					t.Errorf("lacks %q:\n%s%s", w, out, errs)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out+errs, w) {
					t.Errorf("holds %q:\n%s%s", w, out, errs)
				}
			}
		})
	}
	setLanguage(t, h, "zh-CN")
	if _, _, errs := h.run("", "show", "agent-note"); !strings.Contains(errs, "智能体 claude-code：engram show agent-note --agent claude-code") {
		t.Fatalf("zh hint: %q", errs)
	}
}
