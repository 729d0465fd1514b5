package text

import "testing"

func TestFoldTraditional(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"plain ascii", "plain ascii"},
		{"我住在南京", "我住在南京"},
		{"我住喺屯門兆康苑B座18樓", "我住喺屯门兆康苑B座18楼"},
		{"生日:1973年11月8號。屬牛,天蠍座。", "生日:1973年11月8号。属牛,天蝎座。"},
		{"Café 咖啡廳 ok", "Café 咖啡厅 ok"},
		{"喜歡聽歌", "喜欢听歌"},
	} {
		if got := FoldTraditional(c.in); got != c.want {
			t.Errorf("FoldTraditional(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// The table is sorted (the search relies on it) and maps each character once.
	tab := tsTable()
	for i := 1; i < len(tab.from); i++ {
		if tab.from[i-1] >= tab.from[i] {
			t.Fatalf("table not sorted at %d: %q %q", i, tab.from[i-1], tab.from[i])
		}
	}
	if len(tab.from) < 4000 {
		t.Fatalf("table has %d characters", len(tab.from))
	}
}
