package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// D3: `engram import` reports lines already present, conflicts and repeats as its --dry-run
// does and exits 0 for them: a second import of the same file said "1 lines failed" and
// exited 1 after the preview had said "1 already present".
func TestImportSaysWhatItsPreviewSaid(t *testing.T) {
	noID := `{"slug":"noid-a","title":"No id A","scope":"global","type":"user","body":"body a"}`
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "CLAUDE.md"), []byte("- Prefers Python over Java.\n- Uses tabs.\n- Prefers Python over Java.\n"), 0o644)
	claude := filepath.Join(proj, "CLAUDE.md")
	cases := []struct {
		name  string
		first string // a JSONL imported before, if any
		args  func(file string) []string
		jsonl string
		want  []string // in the dry run's output and the import's alike
	}{
		{"the same file again", noID, nil, noID, []string{"1 already present", "0 refused"}},
		{"text changed in Engram", noID, nil, strings.Replace(noID, "body a", "body b", 1),
			[]string{"1 conflicting (kept as they are)", "conflict, line 1: “noid-a” is already “No id A” in Engram, which keeps its version."}},
		{"a bullet said twice", "", func(string) []string { return []string{"--from", "claude", proj} }, "",
			[]string{"1 repeated in the source", "repeated, " + claude + ", line 3: the same “prefers-python-over-java” as " + claude + ", line 1; imported once."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHome(t)
			dir := t.TempDir()
			if tc.first != "" {
				first := filepath.Join(dir, "first.jsonl")
				os.WriteFile(first, []byte(tc.first+"\n"), 0o644)
				h.ok("import", first)
			}
			file := filepath.Join(dir, "in.jsonl")
			os.WriteFile(file, []byte(tc.jsonl+"\n"), 0o644)
			args := []string{file}
			if tc.args != nil {
				args = tc.args(file)
			}
			dry := h.ok(append([]string{"import", "--dry-run"}, args...)...)
			code, out, errs := h.run("", append([]string{"import"}, args...)...)
			for _, w := range tc.want {
				if !strings.Contains(dry, w) || !strings.Contains(out, w) {
					t.Fatalf("want %q in both\ndry run:\n%s\nimport (exit %d):\n%s%s", w, dry, code, out, errs)
				}
			}
			if code != 0 || errs != "" {
				t.Fatalf("import exit %d\n%s%s", code, out, errs)
			}
		})
	}
}

// D8: a refusal in another tool's source names its entry or file, not the converted JSONL's
// line ("line 3" for mem0's entry 5).
func TestConvertedRefusalNamesItsEntry(t *testing.T) {
	h := newHome(t)
	src := filepath.Join(t.TempDir(), "mem0.json")
	os.WriteFile(src, []byte(`[{"memory":"one"},{"memory":""},{"memory":"three"},{"id":"x"},{"memory":"`+strings.Repeat("x", 9000)+`"}]`), 0o644)
	for _, args := range [][]string{{"import", "--dry-run", "--from", "mem0", src}, {"import", "--from", "mem0", src}} {
		_, _, errs := h.run("", args...)
		if !strings.Contains(errs, src+", entry 5: The text is 9000 bytes") || strings.Contains(errs, "line 3") {
			t.Fatalf("%v:\n%s", args, errs)
		}
	}
}

// D14: counts read right in the singular, and a dry run never says a line "was imported".
func TestImportWordsCountRight(t *testing.T) {
	h := newHome(t)
	dir := t.TempDir()
	one := filepath.Join(dir, "one.jsonl")
	os.WriteFile(one, []byte(`{"slug":"2024-05-01","title":"2024-05-01","scope":"global","type":"daily","body":"walked"}`+"\n"+
		`{"kind":"kv","agent":"bot","key":"k","value":1}`+"\n"+strings.Repeat("x", 1<<20+10)+"\n"), 0o644)
	_, dry, errs := h.run("", "import", "--dry-run", one)
	if !strings.Contains(dry, "Preview of 3 lines") || !strings.Contains(dry, "Journal: 1 line to append.") ||
		!strings.Contains(dry, "Keys: 1 to add") || strings.Contains(errs, "imported") || !strings.Contains(errs, "line 3: Line 3 is longer") {
		t.Fatalf("dry run:\n%s%s", dry, errs)
	}
	single := filepath.Join(dir, "single.jsonl")
	os.WriteFile(single, []byte(`{"slug":"tea-pref","title":"Tea","scope":"global","type":"user","body":"Drinks tea."}`+"\n"), 0o644)
	if out := h.ok("import", single); !strings.Contains(out, "Imported 1 memory and 0 journal days from 1 line:") {
		t.Fatalf("import:\n%s", out)
	}
	h.ok("kv", "set", "--agent", "bot", "k", "1")
	if _, _, errs := h.run("", "export"); !strings.Contains(errs, "Exported 1 key.") {
		t.Fatalf("export:\n%s", errs)
	}
	list := filepath.Join(dir, "chatgpt.json")
	os.WriteFile(list, []byte(`["Lives in Porto", ""]`), 0o644)
	// Another tool's source counts entries, not lines ("Preview of 2 lines" of two notes).
	if _, out, _ := h.run("", "import", "--from", "chatgpt", list); !strings.Contains(out, "Left out 1 entry of the source") ||
		!strings.Contains(out, "from 1 entry:") {
		t.Fatalf("left out:\n%s", out)
	}
	if _, out, _ := h.run("", "import", "--dry-run", "--from", "chatgpt", list); !strings.Contains(out, "Preview of 1 entry:") {
		t.Fatalf("preview of another tool's source:\n%s", out)
	}
	for lang, want := range map[string]string{"en": "Preview of 1 line: 1 new", "zh-CN": "预览 1 行：新增 1 条"} {
		r := &runner{env: h.env(nil, nil), lang: lang}
		if got := r.t("cli.import_preview.counts", map[string]any{"Lines": 1, "Unit": sourceUnit(""), "New": 1}); !strings.HasPrefix(got, want) {
			t.Fatalf("%s: %q", lang, got)
		}
	}
}

// What a command says and how it exits match what happened: a dry run whose lines would be
// refused exits 1 as the import does (it exited 0, so a script checking first went ahead);
// an export names journal days apart from memories (it counted them as memories); a reindex
// with problems says where they are listed (it gave only their number).
func TestCountsAndExitCodesSayWhatHappened(t *testing.T) {
	h := newHome(t)
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"slug":"tea-pref","title":"Tea","scope":"global","type":"user","body":"Drinks tea."}`+"\n"+`{"slug":"x"`+"\n"), 0o644)
	if code, out, errs := h.run("", "import", "--dry-run", bad); code != 1 || !strings.Contains(out, "nothing") && !strings.Contains(out, "Nothing") {
		t.Errorf("dry run with a refused line: exit %d\n%s%s", code, out, errs)
	}
	if code, _, _ := h.run("", "import", bad); code != 1 {
		t.Errorf("import with a refused line: exit %d", code)
	}
	h.ok("daily", "append", "went for a walk")
	if _, _, errs := h.run("", "export"); !strings.Contains(errs, "Exported 1 memory and 1 journal day.") {
		t.Errorf("export:\n%s", errs)
	}
	if out := h.runZh("export"); !strings.Contains(out, "已导出 1 条记忆和 1 天日志。") {
		t.Errorf("export in Chinese:\n%s", out)
	}
	os.WriteFile(filepath.Join(h.dir, "memory", "global", "user", "broken.md"), []byte("---\nid: [x\n---\n"), 0o600)
	if out := h.ok("reindex"); !strings.Contains(out, "engram doctor lists them") {
		t.Errorf("reindex with a problem:\n%s", out)
	}
}

// The journal on the command line as in the window: `daily show` takes the dates the window's
// search takes (it took only YYYY-MM-DD), `daily search` finds days by date or text (there
// was none), and `daily list` marks archived days.
func TestDailyShowSearchAndList(t *testing.T) {
	h := newHome(t)
	h.ok("daily", "append", "Walked along the harbour with Mia")
	today := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(h.ok("daily", "show"), "\n", 2)[0], "# "))
	for _, arg := range []string{"today", today} {
		if out := h.ok("daily", "show", arg); !strings.Contains(out, "harbour") {
			t.Errorf("daily show %s:\n%s", arg, out)
		}
	}
	if out := h.ok("daily", "search", "harbour"); !strings.Contains(out, today) || !strings.Contains(out, "harbour") {
		t.Errorf("daily search harbour:\n%s", out)
	}
	if out := h.ok("daily", "search", "lighthouse"); !strings.Contains(out, "No journal day matches.") {
		t.Errorf("daily search with no match:\n%s", out)
	}
	if code, _, errs := h.run("", "daily", "show", "not a date at all"); code == 0 || !strings.Contains(errs, "names no journal day") {
		t.Errorf("daily show with no date: exit %d\n%s", code, errs)
	}
	if out := h.ok("daily", "list"); !strings.Contains(out, today) || strings.Contains(out, "(archived)") {
		t.Errorf("daily list:\n%s", out)
	}
}
