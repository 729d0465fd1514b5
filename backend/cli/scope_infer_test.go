package cli

import (
	"strings"
	"testing"
)

// An agent alone names agent scope and a folder alone project scope, for writing one memory
// and for reading one by slug: `show --agent bot SLUG` looked among global memories and said
// none was found.
func TestScopeFlagsNameTheirScope(t *testing.T) {
	h := binHome{t: t, bin: engramCLI(t), dir: t.TempDir()}
	wd := t.TempDir()
	h.ok("", "write", "--agent", "bot", "--type", "reference", "--slug", "bot-note", "--title", "Bot note", "--body", "For the bot only.")
	h.ok("", "write", "--workdir", wd, "--type", "project", "--slug", "proj-note", "--title", "Project note", "--body", "For the project only.")
	if out := h.ok("", "show", "--agent", "bot", "bot-note"); !strings.Contains(out, "For the bot only.") {
		t.Fatalf("show --agent: %s", out)
	}
	if out := h.ok("", "show", "--workdir", wd, "proj-note"); !strings.Contains(out, "For the project only.") {
		t.Fatalf("show --workdir: %s", out)
	}
	// Written where the flags said, not in global.
	if code, out, errs := h.run("", "show", "bot-note"); code == 0 {
		t.Fatalf("bot-note found in global: %s %s", out, errs)
	}
	if out := h.ok("", "show", "--scope", "agent", "--agent", "bot", "bot-note"); !strings.Contains(out, "For the bot only.") {
		t.Fatalf("show --scope agent: %s", out)
	}
}
