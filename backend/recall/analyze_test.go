package recall

import (
	"slices"
	"testing"
	"time"
)

func keywordTexts(a Analysis) []string {
	var out []string
	for _, k := range a.Keywords {
		out = append(out, k.Text)
	}
	return out
}

func TestAnalyzeIntent(t *testing.T) {
	cases := map[string]Intent{
		"What editor does the team prefer?": IntentPreference,
		// An agent's "the user" is the person (facetthird.go): read like "what editor do I
		// prefer", a question about the person's tools and tastes.
		"What editor does the user prefer?":           IntentGeneral,
		"我喜欢喝什么茶":                                     IntentPreference,
		"how did we fix the flaky login test":         IntentExperience,
		"上次部署失败是怎么解决的":                                IntentExperience,
		"why does parseConfig() panic on empty files": IntentCode,
		"这个函数报错了":                                     IntentCode,
		"what is the release process":                 IntentKnowledge,
		"发布流程是什么":                                     IntentKnowledge,
		"Caroline support group":                      IntentGeneral,
	}
	for q, want := range cases {
		if got := Analyze(q, t0, time.UTC).Intent; got != want {
			t.Errorf("%q: intent %s, want %s", q, got, want)
		}
	}
}

func TestAnalyzeKeywordsEnglish(t *testing.T) {
	a := Analyze("What did Caroline's friends say about the paintings?", t0, time.UTC)
	got := keywordTexts(a)
	want := []string{"caroline", "friends", "say", "paintings"}
	if !slices.Equal(got, want) {
		t.Fatalf("keywords %v, want %v (stop words and possessives dropped)", got, want)
	}
	if a.Keywords[3].Stem != "paint" {
		t.Errorf("stem of paintings = %q", a.Keywords[3].Stem)
	}
	if !slices.Contains(Analyze("Who won the game?", t0, time.UTC).Variants, "win") {
		t.Error("won should bring its base form win")
	}
}

func TestAnalyzeKeywordsChinese(t *testing.T) {
	a := Analyze("卡罗琳什么时候去的支持小组？", t0, time.UTC)
	got := keywordTexts(a)
	if !slices.Equal(got, []string{"卡罗琳", "支持小组"}) {
		t.Fatalf("keywords %v: function words should cut the run into content chunks", got)
	}
	if !a.TimeQuestion {
		t.Error("什么时候 asks when")
	}
	if a := Analyze("茶", t0, time.UTC); len(a.Keywords) != 0 || !slices.Equal(a.Singles, []string{"茶"}) {
		t.Errorf("a lone character is a single: %+v", a)
	}
	mixed := Analyze("我喜欢 Go 语言的 goroutine", t0, time.UTC)
	if !slices.Contains(keywordTexts(mixed), "goroutine") || !slices.Contains(keywordTexts(mixed), "语言") {
		t.Errorf("mixed keywords %v", keywordTexts(mixed))
	}
}

func TestAnalyzeExpansions(t *testing.T) {
	id := Analyze("who am I?", t0, time.UTC)
	if !id.Identity || !slices.Contains(id.Expansions, "name") || !slices.Contains(id.Expansions, "名字") {
		t.Errorf("identity question: %+v", id)
	}
	zh := Analyze("我是谁", t0, time.UTC)
	if !zh.Identity || !slices.Contains(zh.Expansions, "身份") || !slices.Contains(zh.Expansions, "profile") {
		t.Errorf("Chinese identity question: %+v", zh)
	}
	pref := Analyze("what drinks do I like", t0, time.UTC)
	if !slices.Contains(pref.Expansions, "favorite") || !slices.Contains(pref.Expansions, "coffee") {
		t.Errorf("preference + category expansions missing: %v", pref.Expansions)
	}
	pets := Analyze("小梅养了什么宠物", t0, time.UTC)
	if !slices.Contains(pets.Expansions, "猫") || !slices.Contains(pets.Expansions, "dog") {
		t.Errorf("category 宠物 should expand to members: %v", pets.Expansions)
	}
}

func TestParseTimeRelative(t *testing.T) {
	now := time.Date(2024, 5, 15, 15, 0, 0, 0, time.UTC) // Wednesday
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	cases := []struct {
		q        string
		from, to time.Time
	}{
		{"what did I do yesterday", day(2024, 5, 14), day(2024, 5, 15)},
		{"notes from last week", day(2024, 5, 6), day(2024, 5, 13)},
		{"last month's decisions", day(2024, 4, 1), day(2024, 5, 1)},
		{"this year", day(2024, 1, 1), day(2025, 1, 1)},
		{"3 days ago", day(2024, 5, 12), day(2024, 5, 13)},
		{"in the past 2 weeks", day(2024, 5, 1), day(2024, 5, 16)},
		{"上个月买了什么", day(2024, 4, 1), day(2024, 5, 1)},
		{"上周的会议", day(2024, 5, 6), day(2024, 5, 13)},
		{"昨天", day(2024, 5, 14), day(2024, 5, 15)},
		{"去年的计划", day(2023, 1, 1), day(2024, 1, 1)},
		{"三天前", day(2024, 5, 12), day(2024, 5, 13)},
		{"最近7天", day(2024, 5, 8), day(2024, 5, 16)},
	}
	for _, c := range cases {
		r := ParseTime(c.q, now, time.UTC, false)
		if r == nil || !r.Relative {
			t.Errorf("%q: %+v, want a relative range", c.q, r)
			continue
		}
		if !r.From.Equal(c.from) || !r.To.Equal(c.to) {
			t.Errorf("%q: [%s, %s), want [%s, %s)", c.q, r.From.Format(time.DateOnly), r.To.Format(time.DateOnly),
				c.from.Format(time.DateOnly), c.to.Format(time.DateOnly))
		}
	}
}

func TestParseTimeAbsolute(t *testing.T) {
	now := time.Date(2024, 5, 15, 15, 0, 0, 0, time.UTC)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	cases := []struct {
		q        string
		from, to time.Time
	}{
		{"What did Nate do on 25 May, 2022?", day(2022, 5, 25), day(2022, 5, 26)},
		{"on October 13, 2023", day(2023, 10, 13), day(2023, 10, 14)},
		{"in May 2022", day(2022, 5, 1), day(2022, 6, 1)},
		{"2023-07-04 release", day(2023, 7, 4), day(2023, 7, 5)},
		{"2023年5月8日的会议", day(2023, 5, 8), day(2023, 5, 9)},
		{"2023年5月", day(2023, 5, 1), day(2023, 6, 1)},
		{"what happened in 2021", day(2021, 1, 1), day(2022, 1, 1)},
	}
	for _, c := range cases {
		r := ParseTime(c.q, now, time.UTC, false)
		if r == nil || r.Relative {
			t.Errorf("%q: %+v, want an absolute range", c.q, r)
			continue
		}
		if !r.From.Equal(c.from) || !r.To.Equal(c.to) {
			t.Errorf("%q: [%s, %s)", c.q, r.From.Format(time.DateOnly), r.To.Format(time.DateOnly))
		}
	}
	if r := ParseTime("camping in June", now, time.UTC, false); r == nil || r.Month != 6 {
		t.Errorf("yearless month: %+v", r)
	}
	if r := ParseTime("upgrade to go 2024", now, time.UTC, true); r != nil {
		t.Errorf("a bare year in a code query is not a date: %+v", r)
	}
	if r := ParseTime("what is my favourite tea", now, time.UTC, false); r != nil {
		t.Errorf("no time expression: %+v", r)
	}
}

func TestTemporalMarkersAndQuestions(t *testing.T) {
	for _, s := range []string{"I went there yesterday", "last Friday we met", "back in 2019", "three 3 weeks later", "我上周去了", "2023年5月"} {
		if !hasTemporalMarker(s) {
			t.Errorf("%q says when", s)
		}
	}
	for _, s := range []string{"I like green tea", "我喜欢喝茶"} {
		if hasTemporalMarker(s) {
			t.Errorf("%q does not say when", s)
		}
	}
	if !interrogative("How long have you been married?") || !interrogative("真的吗？") ||
		!interrogative("Did you see it?\n\n(image: a dog)") || interrogative("Yes, five years.") {
		t.Error("interrogative")
	}
}

// TestTimeQuestionForms: every way of asking for a point or a span in time is a time
// question, whatever its first word; questions that only name a time are not.
func TestTimeQuestionForms(t *testing.T) {
	cases := []struct {
		q    string
		want bool
	}{
		{"When did Ana move to Lisbon?", true},
		{"What year did Omar start climbing?", true},
		{"Which month did the team ship the beta?", true},
		{"In which month's match did Lee score twice?", true},
		{"In what year was the cabin built?", true},
		{"During which week was the conference?", true},
		{"What day of the week is band practice?", true},
		{"After how many weeks did she hear back?", true},
		{"How long ago did he adopt the dog?", true},
		{"For how long has Kim been baking?", true},
		{"Since when has Ravi worked remotely?", true},
		{"Ana has been where since when?", false}, // "since when" asks only at the start
		{"我们哪一周去的海边？", true},
		{"他是哪个季节搬家的？", true},
		{"What did Ana buy in May 2023?", false},
		{"Which city did Omar visit last year?", false},
		{"What is my favourite time of day?", false},
		{"tell me how long the password must be", false},
		{"他去年去了哪里？", false},
	}
	for _, c := range cases {
		if got := Analyze(c.q, t0, time.UTC).TimeQuestion; got != c.want {
			t.Errorf("%q: time question %v, want %v", c.q, got, c.want)
		}
	}
}
