package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// binHome runs the real binary on one temporary home.
type binHome struct {
	t        *testing.T
	bin, dir string
}

func (h binHome) run(stdin string, args ...string) (code int, stdout, stderr string) {
	h.t.Helper()
	cmd := exec.Command(h.bin, args...)
	cmd.Env = append(os.Environ(), "ENGRAM_HOME="+h.dir, "LANG=en_US.UTF-8")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	} else if err != nil {
		h.t.Fatalf("engram %v: %v", args, err)
	}
	return 0, out.String(), errb.String()
}

func (h binHome) ok(stdin string, args ...string) string {
	h.t.Helper()
	code, out, errs := h.run(stdin, args...)
	if code != 0 {
		h.t.Fatalf("engram %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

// engram kv through the real binary: every sub-verb, values from argv and stdin, JSON output,
// translated errors with their exit codes, export → import into another home, and several
// processes setting keys at once on one home.
func TestKVThroughTheBinary(t *testing.T) {
	bin := engramCLI(t)
	h := binHome{t: t, bin: bin, dir: t.TempDir()}

	if out := h.ok("", "kv", "set", "--agent", "claude", "project:version", "1.4.2"); !strings.Contains(out, "Set project:version for agent claude.") {
		t.Fatalf("set: %s", out)
	}
	if out := h.ok("", "kv", "set", "project:version", "1.4.2", "--agent", "claude"); !strings.Contains(out, "already holds this value") {
		t.Fatalf("set again: %s", out)
	}
	h.ok("", "kv", "set", "--agent", "claude", "--json-value", "project:deps", `{"go": "1.26", "vue": 3}`)
	h.ok("line one\nline two <b>\n", "kv", "set", "--agent", "claude", "notes", "-")
	h.ok(`[1, 2, 3]`, "kv", "set", "--agent", "claude", "--json-value", "nums", "-")
	h.ok("", "kv", "set", "--agent", "codex", "project:version", "9")

	gets := []struct {
		args []string
		want string
	}{
		{[]string{"kv", "get", "--agent", "claude", "project:version"}, "1.4.2\n"},
		{[]string{"kv", "get", "--agent", "claude", "notes"}, "line one\nline two <b>\n"},
		{[]string{"kv", "get", "--agent", "claude", "nums"}, "[1,2,3]\n"},
		{[]string{"kv", "get", "--agent", "codex", "project:version"}, "9\n"},
	}
	for _, g := range gets {
		if out := h.ok("", g.args...); out != g.want {
			t.Errorf("%v: %q, want %q", g.args, out, g.want)
		}
	}
	var got struct {
		Agent, Key string
		Value      map[string]any
	}
	if err := json.Unmarshal([]byte(h.ok("", "kv", "get", "--agent", "claude", "project:deps", "--json")), &got); err != nil ||
		got.Agent != "claude" || got.Value["go"] != "1.26" {
		t.Fatalf("get --json: %+v %v", got, err)
	}

	code, out, errs := h.run("", "kv", "list", "--agent", "claude", "--prefix", "project:", "--limit", "1")
	if code != 0 || out != "project:deps\t{\"go\":\"1.26\",\"vue\":3}\n" || !strings.Contains(errs, "1 of 2 keys") ||
		!strings.Contains(errs, "--cursor project:deps") {
		t.Fatalf("list page 1: %d %q %q", code, out, errs)
	}
	var page struct {
		Entries    []map[string]any `json:"entries"`
		Total      int              `json:"total"`
		NextCursor string           `json:"next_cursor"`
	}
	if err := json.Unmarshal([]byte(h.ok("", "kv", "list", "--agent", "claude", "--cursor", "nums", "--json")), &page); err != nil ||
		page.Total != 4 || len(page.Entries) != 2 || page.Entries[0]["key"] != "project:deps" || page.NextCursor != "" {
		t.Fatalf("list --json: %+v %v", page, err)
	}

	fails := []struct {
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"", []string{"kv", "get", "--agent", "claude", "missing"}, 1, "Agent claude has no key “missing”."},
		{"", []string{"kv", "get", "claude-key"}, 2, "--agent"},
		{"", []string{"kv", "get", "--agent", "Not Valid", "k"}, 1, "is not a valid agent name"},
		{"", []string{"kv", "set", "--agent", "claude", "k", "ghp_" + strings.Repeat("a1B2", 9)}, 1, "looks like a secret"},
		{"", []string{"kv", "set", "--agent", "claude", strings.Repeat("k", 257), "v"}, 1, "Invalid key"},
		{"", []string{"kv", "set", "--agent", "claude", "--json-value", "k", "{oops"}, 1, "Invalid value"},
		{strings.Repeat("x", 70000), []string{"kv", "set", "--agent", "claude", "big", "-"}, 1, "The value is too large"},
		{"", []string{"kv", "set", "--agent", "claude", "k"}, 2, "KEY VALUE"},
		{"", []string{"kv", "frob", "--agent", "claude"}, 2, "get KEY"},
	}
	for _, f := range fails {
		code, _, errs := h.run(f.stdin, f.args...)
		if code != f.code || !strings.Contains(errs, f.want) {
			t.Errorf("%v: exit %d %q, want %d %q", f.args, code, errs, f.code, f.want)
		}
		if strings.Contains(errs, "a1B2a1B2") {
			t.Errorf("the error echoes the secret: %s", errs)
		}
	}
	code, _, errs = h.run("", "kv", "get", "--agent", "claude", "missing", "--json")
	if code != 1 || !strings.Contains(errs, `"code": "kv_not_found"`) {
		t.Fatalf("--json error: %d %s", code, errs)
	}
	if out := h.ok("", "kv", "delete", "--agent", "claude", "nums"); !strings.Contains(out, "Deleted nums of agent claude.") {
		t.Fatalf("delete: %s", out)
	}

	// The file is where DESIGN §2 puts the agent's things, and doctor is content with it.
	if _, err := os.Stat(filepath.Join(h.dir, "memory", "agents", "claude", "kv.json")); err != nil {
		t.Fatal(err)
	}
	h.ok("", "doctor")

	// export → import into an empty home restores every key; the counts are told.
	code, export, errs := h.run("", "export")
	if code != 0 || strings.Count(export, `"kind":"kv"`) != 4 || !strings.Contains(errs, "Exported 4 keys.") {
		t.Fatalf("export: %d %s %s", code, export, errs)
	}
	file := filepath.Join(t.TempDir(), "export.jsonl")
	if err := os.WriteFile(file, []byte(export), 0o600); err != nil {
		t.Fatal(err)
	}
	other := binHome{t: t, bin: bin, dir: t.TempDir()}
	if out := other.ok("", "import", file); !strings.Contains(out, "Keys: 4 added, 0 already present, 0 kept") {
		t.Fatalf("import: %s", out)
	}
	if out := other.ok("", "kv", "get", "--agent", "claude", "notes"); out != "line one\nline two <b>\n" {
		t.Fatalf("restored notes: %q", out)
	}
	other.ok("", "kv", "set", "--agent", "codex", "project:version", "10")
	code, out, errs = other.run("", "import", file)
	if code != 1 || !strings.Contains(out, "Keys: 0 added, 3 already present, 1 kept") || !strings.Contains(errs, "already holds a different value") {
		t.Fatalf("re-import: %d %s %s", code, out, errs)
	}
	if out := other.ok("", "kv", "get", "--agent", "codex", "project:version"); out != "10\n" {
		t.Fatalf("a conflicting import overwrote: %q", out)
	}

	// Several processes at once on one home: no key is lost.
	const procs, each = 3, 6
	var wg sync.WaitGroup
	errc := make(chan string, procs*each)
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if code, out, errs := h.run("", "kv", "set", "--agent", "shared", fmt.Sprintf("p%d:%d", p, i), "v"); code != 0 {
					errc <- fmt.Sprintf("exit %d %s %s", code, out, errs)
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for e := range errc {
		t.Fatal(e)
	}
	if err := json.Unmarshal([]byte(h.ok("", "kv", "list", "--agent", "shared", "--json")), &page); err != nil || page.Total != procs*each {
		t.Fatalf("concurrent processes: %+v %v", page, err)
	}
}
