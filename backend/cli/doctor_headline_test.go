package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Doctor's headline counts memories as list does, the journal's days apart, and says "All
// good" only when it found nothing: it said "All good: 21 memories" for 20 memories and a
// journal day, and "All good" above a finding. A finding that is a note exits 0.
func TestDoctorHeadlineSaysWhatIsLeft(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "user", "--slug", "likes-tea", "--title", "Likes tea", "--body", "green tea")
	h.ok("write", "--type", "user", "--slug", "likes-rain", "--title", "Likes rain", "--body", "rainy days")
	h.ok("daily", "append", "went for a walk")
	if out := h.ok("doctor"); !strings.Contains(out, "All good: 2 memories and 1 journal day, index intact.") {
		t.Fatalf("doctor:\n%s", out)
	}
	// A header naming another type than its folder: a note with a fix, not a fault.
	p := filepath.Join(h.dir, "memory", "global", "feedback", "typed-user.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("---\nid: 01JB0000000000000000000791\ntitle: T\ntype: user\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := h.ok("doctor")
	if strings.Contains(out, "All good") || !strings.Contains(out, "3 memories and 1 journal day, index intact; 1 finding needs attention (below).") ||
		!strings.Contains(out, "Findings (1):") {
		t.Fatalf("doctor with a note:\n%s", out)
	}
}

// A file doctor cannot read is listed with its reason in the person's language, the field
// named as the app names it: the Chinese list read “字段“title”的值有 400 个字符” while the
// finding below it said “标题”.
func TestDoctorProblemNamesTheFieldInChinese(t *testing.T) {
	h := newHome(t)
	p := filepath.Join(h.dir, "memory", "global", "user", "long.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	head := "---\nid: 01JB0000000000000000000792\ntitle: " + strings.Repeat("x", 400) + "\ntype: user\n---\nbody\n"
	if err := os.WriteFile(p, []byte(head), 0o644); err != nil {
		t.Fatal(err)
	}
	got := h.runZh("doctor")
	if !strings.Contains(got, "global/user/long.md：") || !strings.Contains(got, "“标题”") || strings.Contains(got, "“title”") {
		t.Fatalf("doctor in Chinese:\n%s", got)
	}
}

// A file doctor cannot place says why, in both languages: "Upper-Case.md" and "café.md" (a
// name that is no slug) and a folder that is no type read only "This file is not in a memory
// location (scope/type/slug.md)" — the reason, which the report held, was never shown.
func TestDoctorSaysWhyAFileIsNoMemory(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "user", "--slug", "likes-tea", "--title", "Likes tea", "--body", "green tea")
	for _, rel := range []string{"global/user/Upper-Case.md", "global/notes/some-note.md"} {
		p := filepath.Join(h.dir, "memory", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("a note\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, out, _ := h.run("", "doctor")
	for _, want := range []string{"its name “Upper-Case” is not a valid slug", "its folder “notes” is not a memory type"} {
		if strings.Count(out, want) != 2 { // the list of unreadable files and the finding
			t.Fatalf("doctor does not say %q twice:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "fix: mv "+filepath.Join(h.dir, "memory", "global", "user", "Upper-Case.md")+" "+filepath.Join(h.dir, "memory", "global", "user", "upper-case.md")+" && engram reindex") {
		t.Fatalf("doctor does not say to rename the file:\n%s", out)
	}
	zh := h.runZh("doctor")
	for _, want := range []string{"文件名“Upper-Case”不是有效的 slug", "所在文件夹“notes”不是记忆类型"} {
		if !strings.Contains(zh, want) {
			t.Fatalf("doctor in Chinese does not say %q:\n%s", want, zh)
		}
	}
}
