package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/api"
)

// `engram quota` names a project by its folder, never by its hash, in columns that line up
// in both languages (a CJK character takes two terminal columns).
func TestQuotaShowsFoldersInAlignedColumns(t *testing.T) {
	h := newHome(t)
	wd := filepath.Join(t.TempDir(), "项目-acme")
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "in.jsonl")
	lines := fmt.Sprintf(`{"slug":"one","title":"One","scope":"global","type":"user","body":"global one"}
{"slug":"two","title":"Two","scope":"project","workdir":%q,"type":"project","body":"project two"}
{"slug":"three","title":"Three","scope":"agent","agent":"codex","type":"reference","body":"agent three"}
`, wd)
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	h.ok("import", in)
	for _, lang := range []string{"en", "zh-CN"} {
		out := h.okLang(lang, "quota")
		rows := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if len(rows) != 4 {
			t.Fatalf("%s: %d rows:\n%s", lang, len(rows), out)
		}
		if !strings.Contains(out, wd) || strings.Contains(out, "project:") {
			t.Fatalf("%s: the project is not shown by its folder:\n%s", lang, out)
		}
		// Every row's "Used" column ends at the same terminal column as the header's.
		end := func(row string) int {
			i := strings.Index(row, "  ") // end of the first column's text
			for i < len(row) && row[i] == ' ' {
				i++
			}
			j := strings.Index(row[i:], "  ")
			return displayWidth(row[:i+j])
		}
		want := end(rows[0])
		for _, r := range rows[1:] {
			if got := end(r); got != want {
				t.Fatalf("%s: columns misaligned (%d vs %d):\n%s", lang, got, want, out)
			}
		}
	}
}

func (h *home) okLang(lang string, args ...string) string {
	h.t.Helper()
	var out, errb bytes.Buffer
	env := h.env(&out, &errb)
	env.Lang = lang
	if code := Run(h.t.Context(), args, env); code != 0 {
		h.t.Fatalf("engram %s (%s): exit %d\n%s", strings.Join(args, " "), lang, code, errb.String())
	}
	return out.String()
}

// A message repeated on many lines is printed once with its count and first line numbers.
func TestImportErrorsAreSummarised(t *testing.T) {
	h := newHome(t)
	var out, errb bytes.Buffer
	r := &runner{env: h.env(&out, &errb), lang: "en"}
	var errs []api.ImportLineError
	for n := 2; n <= 5001; n++ {
		errs = append(errs, api.ImportLineError{Line: n, Code: "quota_exhausted", Message: "This scope is full (495 of 500 entries used)."})
	}
	errs = append(errs, api.ImportLineError{Line: 7000, Code: "invalid_slug", Message: "Invalid slug “Bad Slug”."})
	// A note of a folder left out names its file itself: no "line 0".
	errs = append(errs, api.ImportLineError{Line: 0, Code: api.CodeImportSkipped, Message: "/v/tpl.md was left out: the header is not valid YAML."})
	printLineErrors(r, &errb, errs)
	got := strings.Split(strings.TrimRight(errb.String(), "\n"), "\n")
	if len(got) != 3 || got[2] != "/v/tpl.md was left out: the header is not valid YAML." {
		t.Fatalf("%d lines printed:\n%s", len(got), errb.String())
	}
	if got[0] != "5000 lines (2, 3, 4, 5, 6, …): This scope is full (495 of 500 entries used)." {
		t.Fatalf("summary %q", got[0])
	}
	if got[1] != "line 7000: Invalid slug “Bad Slug”." {
		t.Fatalf("single %q", got[1])
	}
}

func TestDisplayWidth(t *testing.T) {
	for s, w := range map[string]int{"abc": 3, "范围": 4, "项目 /a": 7, "": 0, "ｆｕｌｌ": 8} {
		if got := displayWidth(s); got != w {
			t.Errorf("displayWidth(%q) = %d, want %d", s, got, w)
		}
	}
}
