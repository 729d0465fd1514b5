package extraction

import "testing"

// TestOfflineZhCallMeAndNowPlace: what the person asks to be called in Chinese is their name,
// as "call me Sam" is in English; a sentence about where they lived before and live now keeps
// the present place. Someone else's move, a past place alone, "别叫我…" are not read.
func TestOfflineZhCallMeAndNowPlace(t *testing.T) {
	for _, c := range []struct{ msg, slug, title string }{
		{"叫我小王就行", "user-name", "姓名：小王"},
		{"请叫我阿强。", "user-name", "姓名：阿强"},
		{"你可以叫我 Tom", "user-name", "姓名：Tom"},
		{"别叫我小王", "", ""},
		{"你叫我干嘛", "", ""},
		{"我原来住在成都，现在住在重庆", "user-location", "所在地：重庆"},
		{"我以前住在成都", "", ""},
		{"我哥以前住在成都，现在住在重庆", "", ""},
	} {
		t.Run(c.msg, func(t *testing.T) {
			got := plannedFacts(t, c.msg)
			want := []string{}
			if c.slug != "" {
				want = append(want, c.slug+"="+c.title)
			}
			if len(got) != len(want) || (len(want) == 1 && got[0] != want[0]) {
				t.Fatalf("got %v, want %v", got, want)
			}
		})
	}
}

// TestOfflineNameInPassing: a name given in passing, with chat after it ("I'm Sam by the
// way"), is the person's name; a capitalised mood or nationality is not.
func TestOfflineNameInPassing(t *testing.T) {
	for _, c := range []struct{ msg, name string }{
		{"I'm Sam by the way.", "Name: Sam"},
		{"Oh, I'm Priya btw, nice to meet you!", "Name: Priya"},
		{"I'm Dutch by the way.", ""},
		{"I'm Happy by the way", ""},
		{"I'm Exhausted again", ""},
	} {
		t.Run(c.msg, func(t *testing.T) {
			out := planIn(t, userInput(c.msg, ""))
			got := ""
			for _, it := range out.Plan.Items {
				if it.Slug == "user-name" {
					got = it.Description
				}
			}
			if got != c.name {
				t.Fatalf("name %q, want %q: %+v", got, c.name, out.Plan.Items)
			}
		})
	}
}
