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
