package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// D11: one agent's unreadable kv.json no longer makes `engram export` write 0 bytes: the
// memories and the other agents' keys are written, the bad file is named with its reason on
// stderr, and the exit code is 1. Needs /tmp/impfix/verbs_index.go.patch.
func TestExportWritesAllButAnUnreadableKeyFile(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "tea-pref", "--title", "Tea", "--body", "Drinks green tea.")
	h.ok("kv", "set", "--agent", "ok", "a", "1")
	h.ok("kv", "set", "--agent", "bot", "b", "2")
	if err := os.WriteFile(filepath.Join(h.dir, "memory", "agents", "bot", "kv.json"), []byte(`{"a":"1","a":"dup"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := h.run("", "export")
	if code != 1 || !strings.Contains(out, `"slug":"tea-pref"`) || !strings.Contains(out, `"agent":"ok"`) ||
		!strings.Contains(errs, "agents/bot/kv.json") || !strings.Contains(errs, "Its keys are not in the export") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}
