package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// `engram hook -h` is help — the agents, what each hook reads, where the log is — not a
// missing agent name logged in hook.log.
func TestHookHelp(t *testing.T) {
	h := newHome(t)
	for _, args := range [][]string{{"hook", "-h"}, {"hook", "--help"}, {"hook", "help"}, {"hook", "codex", "-h"}} {
		code, _, errs := runHookIn(t, h, "", args[1:]...)
		for _, want := range []string{"claude-code  Claude Code's Stop hook", "codex        Codex CLI's notify", "gemini       Gemini CLI's AfterAgent",
			filepath.Join(h.dir, "hook.log")} {
			if code != 2 || !strings.Contains(errs, want) {
				t.Fatalf("%v: exit %d, %q lacks %q", args, code, errs, want)
			}
		}
		if lines := logLines(h.dir); len(lines) != 0 {
			t.Fatalf("%v logged %q", args, lines)
		}
	}
}
