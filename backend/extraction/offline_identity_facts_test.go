package extraction

import (
	"strings"
	"testing"

	"engram/backend/memory"
)

// itemsBySlug plans one message and indexes its items by slug.
func itemsBySlug(t *testing.T, msg string) map[string]PlanItem {
	t.Helper()
	out := planIn(t, userInput(msg, ""))
	got := map[string]PlanItem{}
	for _, it := range out.Plan.Items {
		got[it.Slug] = it
	}
	return got
}

// relTo is the object of the item's relation rel, "" when it has none.
func relTo(it PlanItem, rel string) string {
	for _, r := range it.Relations {
		if r.Relation == rel {
			return r.Object
		}
	}
	return ""
}

// TestOfflineEntityNamesEnd: QA's D3 — a name (of the person, an employer, a place) ends
// before a function word or punctuation, whatever the case ("I work at Acme as a nurse" gave
// "Works at Acme as" and works_at [[Acme as]]); what follows the employer states its own fact
// (the role after "as", the place after "in"); no body ends a fact with two full stops.
func TestOfflineEntityNamesEnd(t *testing.T) {
	type want struct{ slug, title, rel, object string }
	cases := []struct {
		msg  string
		want []want
	}{
		{"I work at Acme as a nurse.", []want{{"user-work", "Works at Acme", "works_at", "Acme"}, {"user-role", "Role: nurse", "", ""}}},
		{"I work at Google in Zurich.", []want{{"user-work", "Works at Google", "works_at", "Google"}, {"user-location", "Based in Zurich", "lives_in", "Zurich"}}},
		{"My name is Carla and I work at Umbrella Corp.", []want{{"user-name", "Name: Carla", "", ""}, {"user-work", "Works at Umbrella Corp", "works_at", "Umbrella Corp"}}},
		{"My name is Dave and I live in Oslo.", []want{{"user-name", "Name: Dave", "", ""}, {"user-location", "Based in Oslo", "lives_in", "Oslo"}}},
		{"I WORK AT ACME AS A NURSE.", []want{{"user-work", "Works at ACME", "works_at", "ACME"}, {"user-role", "Role: NURSE", "", ""}}},
		{"I work at Bank of America in New York.", []want{{"user-work", "Works at Bank of America", "works_at", "Bank of America"}, {"user-location", "Based in New York", "lives_in", "New York"}}},
		{"I work for the BBC in London as a producer.", []want{{"user-work", "Works for the BBC", "works_at", "BBC"}, {"user-location", "Based in London", "lives_in", "London"}, {"user-role", "Role: producer", "", ""}}},
		{"Hi, I'm Eve, a designer at Figma.", []want{{"user-name", "Name: Eve", "", ""}, {"user-role", "Role: designer", "", ""}, {"user-work", "Works at Figma", "works_at", "Figma"}}},
		{"I'm Tomás, a nurse.", []want{{"user-name", "Name: Tomás", "", ""}, {"user-role", "Role: nurse", "", ""}}},
		{"I'm a PhD student in Machine Learning at MIT.", []want{{"user-role", "Role: PhD student in Machine Learning", "", ""}, {"user-work", "Studies at MIT", "studies_at", "MIT"}}},
		{"My name is Jean-Luc Picard and I live in La Barre.", []want{{"user-name", "Name: Jean-Luc Picard", "", ""}, {"user-location", "Based in La Barre", "lives_in", "La Barre"}}},
	}
	for _, c := range cases {
		t.Run(c.msg, func(t *testing.T) {
			got := itemsBySlug(t, c.msg)
			if len(got) != len(c.want) {
				t.Errorf("%d items, want %d: %+v", len(got), len(c.want), got)
			}
			for _, w := range c.want {
				it, ok := got[w.slug]
				if !ok || it.Description != w.title || (w.rel != "" && relTo(it, w.rel) != w.object) {
					t.Errorf("%s: got %q %+v, want %q %s [[%s]]", w.slug, it.Description, it.Relations, w.title, w.rel, w.object)
				}
				if strings.Contains(it.Body, "..") {
					t.Errorf("%s: double full stop in %q", w.slug, it.Body)
				}
			}
		})
	}
	// A role's "in …" is as often a field as a place: no location from it.
	if got := itemsBySlug(t, "I'm a PhD student in Machine Learning at MIT."); got["user-location"].Slug != "" {
		t.Errorf("a field of study taken for a place: %+v", got["user-location"])
	}
}

// TestOfflineIdentityFactsApart: QA's D4 — each identity fact of a sentence is its own memory
// under its fixed slug, quoting only the words that state it, so no memory holds another's
// fact; a negated statement states no fact; where the person is from is not where they live.
func TestOfflineIdentityFactsApart(t *testing.T) {
	cases := []struct {
		msg  string
		want map[string][]string // slug → words its title or body must hold
		not  map[string][]string // slug → words neither may hold
	}{
		{"My name is Dave and I live in Oslo.",
			map[string][]string{"user-name": {"Dave"}, "user-location": {"Oslo"}},
			map[string][]string{"user-name": {"Oslo"}, "user-location": {"Dave"}}},
		{"I live in Paris and I work at Acme as a nurse.",
			map[string][]string{"user-location": {"Paris"}, "user-work": {"Acme"}, "user-role": {"nurse"}},
			map[string][]string{"user-location": {"Acme", "nurse"}, "user-work": {"Paris", "nurse"}, "user-role": {"Paris", "Acme"}}},
		{"I'm from Lyon but I live in Berlin.",
			map[string][]string{"user-hometown": {"From Lyon"}, "user-location": {"Berlin"}},
			map[string][]string{"user-location": {"Lyon"}}},
		{"Correction: I'm not based in Paris anymore, I'm based in Rome.",
			map[string][]string{"user-location": {"Based in Rome"}}, nil},
		{"我叫小王，住在上海。",
			map[string][]string{"user-name": {"小王"}, "user-location": {"上海"}},
			map[string][]string{"user-name": {"上海"}}},
		{"我是上海人，现在在深圳工作。",
			map[string][]string{"user-hometown": {"上海"}, "user-location": {"深圳"}},
			map[string][]string{"user-hometown": {"深圳"}, "user-location": {"上海"}}},
	}
	for _, c := range cases {
		t.Run(c.msg, func(t *testing.T) {
			got := itemsBySlug(t, c.msg)
			if len(got) != len(c.want) {
				t.Errorf("%d items, want %d: %+v", len(got), len(c.want), got)
			}
			for slug, words := range c.want {
				for _, w := range words {
					if it := got[slug]; !strings.Contains(it.Description+"\n"+it.Body, w) {
						t.Errorf("%s lacks %q: %+v", slug, w, it)
					}
				}
			}
			for slug, words := range c.not {
				for _, w := range words {
					if it := got[slug]; strings.Contains(it.Description+"\n"+it.Body+"\n"+it.SourceQuote, w) {
						t.Errorf("%s holds another fact's %q: %+v", slug, w, it)
					}
				}
			}
		})
	}
}

// TestCorrectionLeavesNoOldFact: QA's turns — a sentence stating several facts, then, in
// another conversation, a correction of one of them — leave a home where no memory states the
// old fact and the other facts are kept. Before, the combined memory kept "Based in Oslo".
func TestCorrectionLeavesNoOldFact(t *testing.T) {
	for _, c := range []struct {
		first, second, old string
		want               map[string]string // slug → its title after both turns
	}{
		{"My name is Dave and I live in Oslo.", "Actually I moved to Berlin.", "Oslo",
			map[string]string{"user-name": "Name: Dave", "user-location": "Based in Berlin"}},
		{"I live in Paris and I work at Acme as a nurse.", "Correction: I don't live in Paris anymore, I live in Berlin now.", "Paris",
			map[string]string{"user-location": "Based in Berlin", "user-work": "Works at Acme", "user-role": "Role: nurse"}},
		{"我叫小王，住在上海。", "其实我已经搬到北京了", "上海",
			map[string]string{"user-name": "姓名：小王", "user-location": "所在地：北京"}},
	} {
		t.Run(c.second, func(t *testing.T) {
			f := newFx(t, NewOffline())
			for i, msg := range []string{c.first, c.second} {
				if d := f.run(turn(string(rune('a'+i)), msg)); d.Status != StatusDone {
					t.Fatalf("turn %d: %s %s %v", i+1, d.Status, d.Reason, codes(d))
				}
			}
			ms, _, err := f.store.List(f.ctx, memory.Filter{Scope: memory.ScopeGlobal})
			if err != nil {
				t.Fatal(err)
			}
			titles := map[string]string{}
			for _, m := range ms {
				titles[m.Slug] = m.Title
				// The correction's own words may name the old place ("I don't live in Paris
				// anymore"); no other memory may, and no title or relation states it.
				if strings.Contains(m.Title, c.old) || strings.Contains(m.Body, "[["+c.old+"]]") ||
					(m.Slug != "user-location" && strings.Contains(m.Body, c.old)) {
					t.Errorf("%s still states %s: %q %q", m.Slug, c.old, m.Title, m.Body)
				}
			}
			for slug, title := range c.want {
				if titles[slug] != title {
					t.Errorf("%s: %q, want %q (all: %v)", slug, titles[slug], title, titles)
				}
			}
		})
	}
}

// TestOfflineLaterStatementWins: within one message the later statement of a fact the
// person has one of is the correction; an older unplanned turn never replaces the newest.
func TestOfflineLaterStatementWins(t *testing.T) {
	got := itemsBySlug(t, "I live in Paris. Actually, I moved to Berlin last month.")
	if it := got["user-location"]; it.Description != "Based in Berlin" || len(got) != 1 {
		t.Fatalf("got %+v", got)
	}
	turns := []Message{{Role: "user", Content: "I live in Oslo."}, {Role: "assistant", Content: "Noted."},
		{Role: "user", Content: "I live in Rome now."}}
	out := planIn(t, Input{Turns: turns, Request: Request{SessionID: "s", Agent: "a", Messages: turns}})
	if len(out.Plan.Items) != 1 || out.Plan.Items[0].Description != "Based in Rome" {
		t.Fatalf("an older turn replaced the newest: %+v", out.Plan.Items)
	}
}

// TestOfflineChineseShortPlace: QA's D10 — "我住北京" (住 without 在) and a place after
// another fact with the subject left out ("我叫小王，住在上海") are where the person lives;
// what follows 住 without being a place (lodging, a floor, a time, a manner), and a place
// with nobody as its subject, is not.
func TestOfflineChineseShortPlace(t *testing.T) {
	for msg, want := range map[string]map[string]string{
		"我住北京。":      {"user-location": "所在地：北京"},
		"我们住青岛。":     {"user-location": "所在地：青岛"},
		"我叫小王，住在上海。": {"user-name": "姓名：小王", "user-location": "所在地：上海"},
		"我叫小王，住北京。":  {"user-name": "姓名：小王", "user-location": "所在地：北京"},
		"我住六安。":      {"user-location": "所在地：六安"},
	} {
		got := itemsBySlug(t, msg)
		if len(got) != len(want) {
			t.Errorf("%q: %+v", msg, got)
		}
		for slug, title := range want {
			if got[slug].Description != title {
				t.Errorf("%q: %s %q, want %q", msg, slug, got[slug].Description, title)
			}
		}
	}
	for _, msg := range []string{"我住酒店。", "我住院了。", "我住得很远。", "我住过北京。", "我住三楼。", "我们住民宿。",
		"我住在公司附近。", "住在上海挺好的。", "她叫小红，住在上海。"} {
		if got := itemsBySlug(t, msg); got["user-location"].Slug != "" {
			t.Errorf("%q: not a place of the person's: %+v", msg, got["user-location"])
		}
	}
}
