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
	// Too little ASCII: a prefix and a hash of the whole title, stable and different per title.
	a, b := SlugFromTitle("猫"), SlugFromTitle("狗")
	if !strings.HasPrefix(a, "memory-") || a == b || a != SlugFromTitle("猫") || !ValidSlug(a) || !ValidSlug(b) {
		t.Errorf("Chinese titles: %q %q", a, b)
	}
	// Letters dropped: the ASCII words and a hash of the whole title.
	x, y := SlugFromTitle("喜欢川菜 (Sichuan)"), SlugFromTitle("讨厌川菜 (Sichuan)")
	if !strings.HasPrefix(x, "sichuan-") || x == y || !ValidSlug(x) || !strings.HasPrefix(SlugFromTitle("Café au lait"), "caf-au-lait-") {
		t.Errorf("titles with dropped letters: %q %q", x, y)
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
