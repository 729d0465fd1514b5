package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `engram import --from FORMAT PATH --dry-run` prints the preview and writes nothing; without
// --dry-run it imports; a second run finds every memory already there; a broken source is a
// translated error in either language and exit 1.
func TestImportFromAnotherTool(t *testing.T) {
	h := newHome(t)
	src := filepath.Join("..", "importer", "testdata", "mem0", "get_all.json")
	out := h.ok("import", "--from", "mem0", "--dry-run", src)
	if !strings.Contains(out, "Preview of 3 entries: 3 new, 0 already present") || !strings.Contains(out, "agent travel-assistant: 0 → 1 of 500") ||
		!strings.Contains(out, "Nothing was written") {
		t.Fatalf("dry run:\n%s", out)
	}
	if out := h.ok("list", "--json"); strings.Contains(out, "vegetarian") {
		t.Fatalf("--dry-run wrote:\n%s", out)
	}
	if out := h.ok("import", "--from", "mem0", src); !strings.Contains(out, "Imported 3 memories") {
		t.Fatalf("import:\n%s", out)
	}
	if out := h.ok("import", "--from", "mem0", "--dry-run", src); !strings.Contains(out, "0 new, 3 already present") {
		t.Fatalf("second dry run:\n%s", out)
	}
	// A second real import changes nothing, fails nothing and says so, as its preview did.
	code, out, errs := h.run("", "import", "--from", "mem0", src)
	if code != 0 || !strings.Contains(out, "Imported 0 memories and 0 journal days from 3 entries: 3 already present") || errs != "" {
		t.Fatalf("second import: %d\n%s\n%s", code, out, errs)
	}

	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"results": [ {"memory": `), 0o644)
	// (the message's language is the home's setting; the api tests cover the catalog keys)
	var o, e bytes.Buffer
	if code := Run(t.Context(), []string{"import", "--from", "mem0", bad}, h.env(&o, &e)); code != 1 ||
		!strings.Contains(e.String(), "is not in the expected format") || !strings.Contains(e.String(), "Nothing was imported") {
		t.Fatalf("bad source: exit %d\n%s", code, e.String())
	}
	code, _, errs = h.run("", "import", "--from", "notion", bad)
	if code == 0 || !strings.Contains(errs, "mem0") {
		t.Fatalf("unknown format: %d %s", code, errs)
	}
}

// Claude Code's project CLAUDE.md lands in the project of its folder; --workdir moves it.
func TestImportClaudeCodeProject(t *testing.T) {
	h := newHome(t)
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "CLAUDE.md"), []byte("# Notes\n\n- Run `make lint` before every commit.\n"), 0o644)
	out := h.ok("import", "--from", "claude", "--dry-run", proj)
	if !strings.Contains(out, "1 new") || !strings.Contains(out, "project "+proj) {
		t.Fatalf("dry run:\n%s", out)
	}
	other := t.TempDir()
	h.ok("import", "--from", "claude", "--workdir", other, proj)
	if out := h.ok("list", "--scope", "project", "--workdir", other); !strings.Contains(out, "Run make lint before every commit.") {
		t.Fatalf("list:\n%s", out)
	}
}

// A ChatGPT export with an entry that has no text imports the rest, names the entry on stderr
// and counts it apart from failed lines; the exit code still says something was left out.
func TestImportLeavesOutUnusableEntry(t *testing.T) {
	h := newHome(t)
	src := filepath.Join(t.TempDir(), "memory.json")
	os.WriteFile(src, []byte(`[{"content": "Prefers metric units"}, {"enabled": true}, "Lives in Porto"]`), 0o644)
	code, out, errs := h.run("", "import", "--from", "chatgpt", src)
	if code != 1 || !strings.Contains(out, "Imported 2 memories") || !strings.Contains(out, "Left out 1 entry of the source") ||
		!strings.Contains(errs, "entry 2 has no “content” text: that entry was left out") || strings.Contains(errs, "line 0") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// An Engram JSONL line of a project that names no workdir goes to --workdir's project: it was
// refused ("The project folder “” must be an absolute path") though --workdir was given. A line
// naming its own folder keeps it; without --workdir the line is still refused, saying why.
func TestImportJSONLWorkdir(t *testing.T) {
	h := newHome(t)
	proj, own := t.TempDir(), t.TempDir()
	src := filepath.Join(t.TempDir(), "mem.jsonl")
	os.WriteFile(src, []byte(`{"title":"Lint first","type":"project","scope":"project","body":"Run make lint before every commit."}
{"title":"Own folder","type":"project","scope":"project","workdir":"`+own+`","body":"Deploys from main."}
`), 0o644)
	if code, _, errs := h.run("", "import", src); code == 0 || !strings.Contains(errs, "line 1") {
		t.Fatalf("without --workdir: %d %s", code, errs)
	}
	if out := h.ok("import", "--dry-run", "--workdir", proj, src); !strings.Contains(out, "1 new") {
		t.Fatalf("dry run:\n%s", out)
	}
	h.ok("import", "--workdir", proj, src)
	if out := h.ok("list", "--scope", "project", "--workdir", proj); !strings.Contains(out, "Lint first") || strings.Contains(out, "Own folder") {
		t.Fatalf("list of --workdir's project:\n%s", out)
	}
	if out := h.ok("list", "--scope", "project", "--workdir", own); !strings.Contains(out, "Own folder") {
		t.Fatalf("list of the line's own project:\n%s", out)
	}
}
