package memory

import (
	"fmt"
	"testing"
)

func TestSearchEnglish(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("dark-mode", "Prefers dark mode", "Uses dark mode in every editor and terminal."))
	e.ok(wr("postgres", "Database", "The service stores orders in PostgreSQL 16."))
	e.ok(wr("unrelated", "Cats", "Has two cats named Miso and Tofu."))
	e.ok(wr("cafe-note", "Café", "Meets the team at the café on Fridays."))

	cases := []struct {
		q    string
		want string
		not  []string
	}{
		{"dark mode", "dark-mode", []string{"unrelated"}},
		{"DARK", "dark-mode", []string{"unrelated", "postgres"}},
		{"terminal", "dark-mode", nil},
		{"postgresql", "postgres", []string{"dark-mode"}},
		{"stgre", "postgres", []string{"dark-mode"}},    // substring: trigram
		{"greSQL 1", "postgres", []string{"dark-mode"}}, // substring across a space
		{"Miso", "unrelated", []string{"postgres"}},
		{"cafe", "cafe-note", nil}, // diacritics removed
		{"café", "cafe-note", nil},
		{"dark-mode", "dark-mode", nil}, // the slug is indexed
	}
	for _, tc := range cases {
		hits := e.search(tc.q, Filter{})
		if !hasSlug(hits, tc.want) {
			t.Errorf("%q: %v, want %s", tc.q, hitSlugs(hits), tc.want)
		}
		for _, n := range tc.not {
			if hasSlug(hits, n) {
				t.Errorf("%q also found %s", tc.q, n)
			}
		}
	}
	if hits := e.search("zebra xylophone", Filter{}); len(hits) != 0 {
		t.Errorf("nonsense query found %v", hitSlugs(hits))
	}
	if hits := e.search("   ", Filter{}); len(hits) != 0 {
		t.Errorf("blank query found %v", hitSlugs(hits))
	}
	hits := e.search("orders", Filter{})
	if len(hits) == 0 || Snippet(hits[0].Memory.Body, "orders", 160) == "" || len(hits[0].Via) == 0 || hits[0].Score <= 0 {
		t.Fatalf("hit without snippet/via/score: %+v", hits)
	}
	// An over-long query is refused by recall, which owns the query (TestSearchFloorReturnsNothingHonestly there).
}

func TestSearchCJK(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("green-tea", "饮品偏好", "我喜欢喝绿茶"))
	e.ok(wr("coffee-cn", "咖啡", "我不喜欢咖啡，太苦了"))
	e.ok(wr("mixed-lang", "Mixed", "Every morning I drink 绿茶 with honey"))
	e.ok(wr("japanese", "日本語", "東京タワーに行きました"))
	e.ok(wr("korean", "한국어", "저는 김치를 좋아해요"))
	e.ok(wr("coffee-jp", "飲み物", "朝はコーヒーが好き"))
	e.ok(wr("server-jp", "サーバー", "サーバーを再起動した"))

	cases := []struct {
		q    string
		want []string
		not  []string
	}{
		{"绿茶", []string{"green-tea", "mixed-lang"}, []string{"coffee-cn"}},
		{"喜欢", []string{"green-tea", "coffee-cn"}, []string{"mixed-lang"}},
		{"喝绿茶", []string{"green-tea"}, []string{"coffee-cn"}},
		{"我喜欢喝绿茶", []string{"green-tea"}, []string{"coffee-cn"}},
		{"茶", []string{"green-tea", "mixed-lang"}, []string{"coffee-cn", "korean"}}, // single character
		{"苦", []string{"coffee-cn"}, []string{"green-tea"}},
		{"绿茶 honey", []string{"mixed-lang", "green-tea"}, []string{"coffee-cn"}},
		{"honey绿茶", []string{"mixed-lang"}, []string{"coffee-cn"}},
		{"饮品", []string{"green-tea"}, nil}, // title
		{"咖啡", []string{"coffee-cn"}, []string{"green-tea"}},
		{"タワー", []string{"japanese"}, nil},
		{"東京", []string{"japanese"}, nil},
		{"김치", []string{"korean"}, nil},
		{"コーヒー", []string{"coffee-jp"}, []string{"server-jp"}}, // ー belongs to the kana word
		{"サーバー", []string{"server-jp"}, []string{"coffee-jp"}},
		{"绿茶。", []string{"green-tea"}, nil}, // CJK punctuation is not part of a word
	}
	for _, tc := range cases {
		hits := e.search(tc.q, Filter{})
		for _, w := range tc.want {
			if !hasSlug(hits, w) {
				t.Errorf("%q: %v, want %s", tc.q, hitSlugs(hits), w)
			}
		}
		for _, n := range tc.not {
			if hasSlug(hits, n) {
				t.Errorf("%q also found %s", tc.q, n)
			}
		}
	}
	// the literal example of the brief, ranked first for its own words.
	for _, q := range []string{"绿茶", "喜欢"} {
		hits := e.search(q, Filter{Limit: 1})
		if len(hits) != 1 {
			t.Errorf("%q Limit 1: %d hits", q, len(hits))
		}
	}
}

// TestSearchEscaping: FTS5 syntax typed by a user is only text — it never errors and finds
// the words it contains.
func TestSearchEscaping(t *testing.T) {
	e := newEnv(t)
	body := `He said "quoted" then star* and NEAR the col:val (paren) ^caret AND OR NOT -minus, 100% of snake_case a\b it's`
	e.ok(wr("syntax-soup", "Syntax soup", body))
	e.ok(wr("plain-text", "Plain", "nothing special here at all"))

	cases := []struct {
		q     string
		find  bool // must find syntax-soup
		plain bool // may find plain-text (only when the query shares its words)
	}{
		{`"quoted"`, true, false},
		{`"quoted`, true, false},
		{`star*`, true, false},
		{`star *`, true, false},
		{`NEAR`, true, false},
		{`NEAR(quoted star)`, true, false},
		{`NEAR/2`, true, false},
		{`-minus`, true, false},
		{`col:val`, true, false},
		{`title:soup`, true, false},
		{`(paren)`, true, false},
		{`^caret`, true, false},
		{`AND OR NOT`, true, false},
		{`AND`, true, false},
		{`NOT`, true, true}, // trigram: "nothing" contains "not"
		{`OR`, true, false},
		{`"`, true, false},
		{`*`, true, false},
		{`-`, true, false},
		{`:`, true, false},
		{`(`, true, false},
		{`)`, true, false},
		{`^`, true, false},
		{`%`, true, false},
		{`_`, true, false},
		{`\`, true, false},
		{`'`, true, false},
		{`it's`, true, false},
		{`""`, false, false},
		{`"""`, false, false},
		{`a"b`, false, false},
		{`{col}`, false, false},
		{`[x]`, false, false},
		{`+`, false, false},
		{`* OR *`, false, false},
		{`NOT nothing`, false, true},
		{`snake_case`, true, false},
		{`100%`, true, false},
		{`'; DROP TABLE memory_meta; --`, false, false},
	}
	for _, tc := range cases {
		hits, err := e.lexical(tc.q, Filter{})
		if err != nil {
			t.Errorf("Search(%q) error: %v", tc.q, err)
			continue
		}
		if tc.find && !hasSlug(hits, "syntax-soup") {
			t.Errorf("Search(%q) = %v, want syntax-soup", tc.q, hitSlugs(hits))
		}
		if !tc.plain && hasSlug(hits, "plain-text") {
			t.Errorf("Search(%q) matched plain-text, which does not contain it", tc.q)
		}
		// the same through every filter path.
		if _, err := e.lexical(tc.q, Filter{Workdir: "/tmp", Agent: "claude", NoDaily: true}); err != nil {
			t.Errorf("Search(%q) with filter: %v", tc.q, err)
		}
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_meta`); n != 2 {
		t.Fatalf("index damaged: %d rows", n)
	}
}

func TestSearchAfterUpdateAndDelete(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("changing", "Changing", "the word is pineapple"))
	if !hasSlug(e.search("pineapple", Filter{}), "changing") {
		t.Fatal("not found before update")
	}
	e.ok(Item{Op: OpUpdate, ID: r.ID, Mode: "replace", Body: sp("the word is mango")})
	if hasSlug(e.search("pineapple", Filter{}), "changing") {
		t.Fatal("old text still found after replace")
	}
	if hasSlug(e.search("pineap", Filter{}), "changing") {
		t.Fatal("old text still found by trigram after replace")
	}
	if !hasSlug(e.search("mango", Filter{}), "changing") {
		t.Fatal("new text not found")
	}
	e.ok(Item{Op: OpUpdate, ID: r.ID, NewSlug: "renamed-one"})
	if !hasSlug(e.search("mango", Filter{}), "renamed-one") {
		t.Fatal("not found after rename")
	}
	e.ok(Item{Op: OpDelete, ID: r.ID})
	if len(e.search("mango", Filter{})) != 0 {
		t.Fatal("deleted memory still found")
	}
}

func TestSearchManyAndRanking(t *testing.T) {
	e := newEnv(t)
	var items []Item
	for i := 0; i < 60; i++ {
		items = append(items, wr(fmt.Sprintf("filler-%02d", i), "filler", fmt.Sprintf("filler text number %d about kiwi", i)))
	}
	items = append(items, wr("best-kiwi", "Kiwi kiwi", "kiwi kiwi kiwi: the user loves kiwi"))
	res := e.batch(ActorUser, items...)
	if res.Failed != 0 {
		t.Fatalf("%d failed", res.Failed)
	}
	// The word path ranks by BM25, best first, and goes exactly depth rows deep.
	rank := func(depth int) ([]RankedRID, map[int64]*Memory) {
		t.Helper()
		list, err := e.s.RankWords(e.ctx, BuildFTSQuery("kiwi", "OR"), testWeights, Filter{}, TimeWindow{}, depth)
		if err != nil {
			t.Fatal(err)
		}
		rids := make([]int64, len(list))
		for i, r := range list {
			rids[i] = r.RID
		}
		mems, err := e.s.HydrateRIDs(e.ctx, rids, Filter{}, TimeWindow{})
		if err != nil || len(mems) != len(list) {
			t.Fatalf("hydrate %d of %d: %v", len(mems), len(list), err)
		}
		return list, mems
	}
	list, mems := rank(20)
	if len(list) != 20 {
		t.Fatalf("depth 20: %d rows", len(list))
	}
	if mems[list[0].RID].Slug != "best-kiwi" {
		t.Fatalf("best match ranked %s", mems[list[0].RID].Slug)
	}
	for i := 1; i < len(list); i++ {
		if list[i].Score > list[i-1].Score {
			t.Fatal("rows not ordered by score")
		}
	}
	if list, _ := rank(100); len(list) != 61 {
		t.Fatalf("depth 100: %d rows", len(list))
	}
	if hits := e.search("kiwi", Filter{}); len(hits) != 61 || hits[0].Memory.Slug != "best-kiwi" {
		t.Fatalf("lexical search: %d hits, first %v", len(hits), hitSlugs(hits[:1]))
	}
}
