package format

import (
	"strings"
	"testing"
)

func TestSlugFromTitle(t *testing.T) {
	for title, want := range map[string]string{
		"Prefers green tea!":              "prefers-green-tea",
		"  Uses   Python 3.8  ":           "uses-python-3-8",
		strings.Repeat("long words ", 10): "long-words-long-words-long-words-long-words-long",
	} {
		if got := SlugFromTitle(title); got != want || !ValidSlug(got) {
			t.Errorf("SlugFromTitle(%q) = %q, want %q", title, got, want)
		}
	}
	// Chinese is kept as the title's words, alone or mixed with English (it was dropped: "张三
	// works at 阿里巴巴" made works-at-<hash>, "猫" memory-<hash>).
	for title, want := range map[string]string{
		"猫":                     "猫",
		"喜欢川菜":                  "喜欢川菜",
		"张三 works at 阿里巴巴":      "张三-works-at-阿里巴巴",
		"喜欢川菜 (Sichuan)":        "喜欢川菜-sichuan",
		"用Go写后端":                "用go写后端",
		"ＡＩ 助手":                 "ai-助手",
		"偏好：深色模式，不要浅色":          "偏好-深色模式-不要浅色",
		strings.Repeat("长", 30): strings.Repeat("长", 16),
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa川菜": strings.Repeat("a", 47),
	} {
		if got := SlugFromTitle(title); got != want || !ValidSlug(got) {
			t.Errorf("SlugFromTitle(%q) = %q (valid %v), want %q", title, got, ValidSlug(got), want)
		}
	}
	// No word kept: a prefix and a hash of the whole title, stable and different per title.
	a, b := SlugFromTitle("🎉🎉"), SlugFromTitle("🎈")
	if !strings.HasPrefix(a, "memory-") || a == b || a != SlugFromTitle("🎉🎉") || !ValidSlug(a) || !ValidSlug(b) {
		t.Errorf("emoji titles: %q %q", a, b)
	}
	// Letters dropped: the words kept and a hash of the whole title.
	x, y := SlugFromTitle("사랑 (love)"), SlugFromTitle("미움 (love)")
	if !strings.HasPrefix(x, "love-") || x == y || !ValidSlug(x) || !strings.HasPrefix(SlugFromTitle("Café au lait"), "caf-au-lait-") {
		t.Errorf("titles with dropped letters: %q %q", x, y)
	}
	if a, b := SlugFromTitle("ＡＩ"), SlugFromTitle("AI"); a != b || !strings.HasPrefix(a, "ai-") {
		t.Errorf("full and half width: %q %q", a, b)
	}
	if s := SlugFromTitle("Go"); !strings.HasPrefix(s, "go-") || !ValidSlug(s) {
		t.Errorf("a two-letter title: %q", s)
	}
}

// A title in NFD (a macOS file name: "u" and a combining diaeresis) made another slug than
// the same title in NFC ("zu-rich" against "z-rich-4251685e"): one note imported from two
// machines became two memories.
func TestSlugFromTitleIgnoresUnicodeForm(t *testing.T) {
	for _, pair := range [][2]string{{"Zu\u0308rich", "Zürich"}, {"Cafe\u0301 notes", "Café notes"}, {"Ame\u0301lie", "Amélie"}} {
		if a, b := SlugFromTitle(pair[0]), SlugFromTitle(pair[1]); a != b {
			t.Errorf("%q → %q, %q → %q", pair[0], a, pair[1], b)
		}
	}
}

// A slug keeps Chinese characters only where every file system names them the same way: no
// compatibility ideograph or radical (NFC/NFKC turn them into others, so macOS and Linux would
// name two files), no full-width letters, no other script, at most 64 bytes.
func TestSlugRuleWithChinese(t *testing.T) {
	good := []string{"猫", "喜欢川菜", "张三-works-at-阿里巴巴", "2024-年", strings.Repeat("长", 21), "𠀋𠀋"}
	bad := []string{"\uF900", "\u2F00-x", "ａｂｃ", "ä-b", "사랑", "猫.md", "-猫", "猫-", strings.Repeat("长", 22),
		"喜欢 川菜", "猫/狗", "ab\xe7"}
	for _, s := range good {
		if !ValidSlug(s) {
			t.Errorf("ValidSlug(%q) = false", s)
		}
	}
	for _, s := range bad {
		if ValidSlug(s) {
			t.Errorf("ValidSlug(%q) = true", s)
		}
	}
}

// CutSlug cuts at a character: a byte cut of "…川菜" in the middle of a character left no
// UTF-8 (a "-conflict-<hash>" or "-proposed" slug no file system would take).
func TestCutSlugKeepsWholeCharacters(t *testing.T) {
	s := strings.Repeat("川", 20) // 60 bytes
	for n := 1; n <= 64; n++ {
		got := CutSlug(s, n)
		if len(got) > n || len(got)%3 != 0 || !strings.HasPrefix(s, got) {
			t.Errorf("CutSlug(%d) = %q", n, got)
		}
	}
	if got := CutSlug("ab-川菜", 4); got != "ab" {
		t.Errorf("CutSlug trims dashes: %q", got)
	}
}

// A title slugged before Chinese was kept: the old slug is known so a write or an import of
// the same title finds it; none when nothing changed.
func TestLegacySlugFromTitle(t *testing.T) {
	if got := LegacySlugFromTitle("猫"); !strings.HasPrefix(got, "memory-") || !ValidSlug(got) {
		t.Errorf("legacy of 猫: %q", got)
	}
	if got := LegacySlugFromTitle("张三 works at 阿里巴巴"); !strings.HasPrefix(got, "works-at-") {
		t.Errorf("legacy of a mixed title: %q", got)
	}
	if got := LegacySlugFromTitle("Prefers tea"); got != "" {
		t.Errorf("legacy of an English title: %q", got)
	}
}
