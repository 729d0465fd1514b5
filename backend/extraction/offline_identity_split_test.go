package extraction

import (
	"slices"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/settings"
)

// oldCombined is a user-name memory as the offline extractor wrote one before each identity
// fact had a memory of its own: both facts in the title and the body, the place's relation
// line, the whole sentence quoted.
type oldCombined struct {
	title, body, quote string
}

var (
	aliceInParis = oldCombined{"Name: Alice Chen; Based in Paris",
		"Name: Alice Chen. Based in Paris.\n\nThe person said: “My name is Alice Chen and I live in Paris”\n\n- lives_in [[Paris]]",
		"My name is Alice Chen and I live in Paris"}
	wangInShanghai = oldCombined{"姓名：小王；所在地：上海",
		"姓名：小王。所在地：上海。\n\n原话：“我叫小王，住在上海”\n\n- lives_in [[上海]]", "我叫小王，住在上海"}
)

// seedCombined writes c as user-name into the fixture's home: reviewed, as a person who
// accepted it in Review left it, or as the extractor left it.
func (f *fx) seedCombined(c oldCombined, reviewed bool, note string) *memory.Memory {
	f.t.Helper()
	body := c.body
	if note != "" {
		body += "\n\n" + note
	}
	actor := memory.ActorExtractor
	if reviewed {
		actor = memory.ActorUser
	}
	res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: actor, Items: []memory.Item{{Op: memory.OpWrite, Slug: "user-name",
		Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: &c.title, Body: &body, SourceQuote: &c.quote,
		Confidence: memory.ConfidenceMedium, Source: &memory.Source{Kind: "extraction", Agent: "claude-code", Session: "earlier", Turn: 1, Model: "offline"}}}})
	if err != nil || !res.Results[0].OK {
		f.t.Fatalf("seed: %v %+v", err, res)
	}
	m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-name")
	if err != nil || m.Reviewed != reviewed {
		f.t.Fatalf("seeded %+v %v", m, err)
	}
	return m
}

// speaks sets the person's language in the fixture home's settings, as Settings → Language does.
func (f *fx) speaks(lang string) {
	f.t.Helper()
	if _, err := settings.New(f.store, "en").Update(f.ctx, settings.Patch{Language: &lang}); err != nil {
		f.t.Fatal(err)
	}
}

// wantSplitReason checks that a split change recorded its reasoning from the catalog, in the
// person's language (lang), whatever the script of the words the memory quoted.
func (f *fx) wantSplitReason(m *memory.Memory, lang, kind, slugs string) {
	f.t.Helper()
	key := "extraction.split_reason." + kind
	want := testCatalog(f.t).T(lang, key, map[string]any{"Slugs": slugs})
	if want == key || !strings.Contains(want, slugs) {
		f.t.Fatalf("%s: no %s in the catalog (%q)", lang, key, want)
	}
	if m.Reasoning != want {
		f.t.Errorf("%s reasoning %q, want %s's %q", m.Slug, m.Reasoning, lang, want)
	}
}

// served is what recall answers a question with: each hit's title and body.
func (f *fx) served(q string) []string {
	f.t.Helper()
	res, err := recall.New(f.store, recall.Options{Logger: quiet}).Search(f.ctx, recall.SearchParams{Query: q, NoTouch: true})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, h := range res.Hits {
		out = append(out, h.Memory.Slug+": "+h.Memory.Title+"\n"+h.Memory.Body)
	}
	return out
}

// TestCorrectionSplitsCombinedIdentity: a home kept from before identity facts were apart
// holds one user-name memory stating the name and the place. A correction of the place, run
// through the offline extraction, wrote user-location and left the old place in user-name, so
// recall served both. Now the combined memory loses the place (title, sentence, relation line,
// the quote's words) and keeps the rest (the name, a note the person added); a memory the
// person had reviewed goes back to their review; a text the rule cannot cut is not rewritten
// but marked as conflicting and sent to review. Either way Review shows why, in the person's
// language from the catalog (it was a hard-coded sentence in the language of the quote's
// script: a person reading English got Chinese for a Chinese quote).
func TestCorrectionSplitsCombinedIdentity(t *testing.T) {
	cases := []struct {
		name       string
		seed       oldCombined
		reviewed   bool
		note       string
		turn, old  string
		new        string
		name1, loc string // user-name's and user-location's titles after the turn
		quote      string // user-name's source quote after the turn
		ask        string // a question about the place
		lang       string // the person's language in Settings
	}{
		{"extractor's memory", aliceInParis, false, "", "Actually I moved to Berlin.", "Paris", "Berlin",
			"Name: Alice Chen", "Based in Berlin", "My name is Alice Chen", "Where do I live?", "en"},
		{"reviewed with a note", aliceInParis, true, "Prefers to be called Ali.", "Actually I moved to Berlin.", "Paris", "Berlin",
			"Name: Alice Chen", "Based in Berlin", "My name is Alice Chen", "Where do I live?", "zh-CN"},
		{"Chinese", wangInShanghai, false, "", "其实我已经搬到北京了", "上海", "北京",
			"姓名：小王", "所在地：北京", "我叫小王", "我住在哪里？", "zh-CN"},
		{"Chinese words, English reader", wangInShanghai, false, "", "其实我已经搬到北京了", "上海", "北京",
			"姓名：小王", "所在地：北京", "我叫小王", "我住在哪里？", "en"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFx(t, NewOffline())
			f.speaks(c.lang)
			f.seedCombined(c.seed, c.reviewed, c.note)
			if got := strings.Join(f.served(c.ask), "\n"); !strings.Contains(got, c.old) {
				t.Fatalf("the seeded home does not serve the old place: %q", got)
			}
			d := f.run(turn("now", c.turn))
			if d.Status != StatusDone || len(d.Report.Rejected) > 0 {
				t.Fatalf("%s %s %+v", d.Status, d.Reason, d.Report.Rejected)
			}
			for _, hit := range f.served(c.ask) {
				if strings.Contains(hit, c.old) {
					t.Errorf("recall still serves the old place: %q", hit)
				}
			}
			if got := strings.Join(f.served(c.ask), "\n"); !strings.Contains(got, c.new) {
				t.Errorf("recall does not serve the new place: %q", got)
			}
			m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-name")
			if err != nil {
				t.Fatal(err)
			}
			if m.Title != c.name1 || strings.Contains(m.Body, c.old) || strings.Contains(m.SourceQuote, c.old) || m.SourceQuote != c.quote {
				t.Errorf("user-name %q %q quote %q", m.Title, m.Body, m.SourceQuote)
			}
			if !strings.Contains(m.Body, c.quote) || (c.note != "" && !strings.Contains(m.Body, c.note)) {
				t.Errorf("user-name lost what it should keep: %q", m.Body)
			}
			if m.Reviewed || m.Confidence != memory.ConfidenceMedium {
				t.Errorf("user-name reviewed %v confidence %s: a rewritten memory waits for review, its evidence kept", m.Reviewed, m.Confidence)
			}
			f.wantSplitReason(m, c.lang, splitCut, "user-location")
			if loc, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-location"); err != nil || loc.Title != c.loc {
				t.Errorf("user-location %+v %v", loc, err)
			}
		})
	}

	t.Run("reworded by the person", func(t *testing.T) {
		f := newFx(t, NewOffline())
		f.speaks("zh-CN")
		c := aliceInParis
		c.body = strings.Replace(c.body, "Based in Paris.", "Lives in Paris, France.", 1)
		seeded := f.seedCombined(c, true, "")
		if d := f.run(turn("now", "Actually I moved to Berlin.")); d.Status != StatusDone || len(d.Report.Rejected) > 0 {
			t.Fatalf("%s %s %+v", d.Status, d.Reason, d.Report.Rejected)
		}
		m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-name")
		if err != nil {
			t.Fatal(err)
		}
		if m.Body != seeded.Body || m.Title != seeded.Title || m.Reviewed || !slices.Contains(m.ConflictsWith, "user-location") {
			t.Fatalf("want the text kept, sent to review, conflicting with user-location: %+v", m)
		}
		f.wantSplitReason(m, "zh-CN", splitConflict, "user-location")
		// The person accepts it as it is: a later move does not send it back again.
		if res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Items: []memory.Item{{Op: memory.OpAccept, ID: m.ID}}}); err != nil || !res.Results[0].OK {
			t.Fatalf("accept: %v %+v", err, res)
		}
		f.clock.Advance(time.Minute)
		if d := f.run(turn("later", "I live in Munich now.")); d.Status != StatusDone || len(d.Report.Applied) != 1 {
			t.Fatalf("%s %s %+v", d.Status, d.Reason, d.Report.Applied)
		}
		if m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-name"); err != nil || !m.Reviewed {
			t.Fatalf("accepted user-name sent back to review: %+v %v", m, err)
		}
	})
}

// TestNameCorrectionKeepsCombinedPlace: the other way round — the name of a combined memory
// corrected ("Actually, my name is Alicia Chen.") replaces user-name, which would take the
// place with it when no memory of its own states it: the place is written apart first, quoting
// the person's words of the old memory, with the reason in the person's language.
func TestNameCorrectionKeepsCombinedPlace(t *testing.T) {
	for _, lang := range []string{"en", "zh-CN"} {
		t.Run(lang, func(t *testing.T) { nameCorrectionKeepsCombinedPlace(t, lang) })
	}
}

func nameCorrectionKeepsCombinedPlace(t *testing.T, lang string) {
	f := newFx(t, NewOffline())
	f.speaks(lang)
	f.seedCombined(aliceInParis, false, "")
	d := f.run(turn("now", "Actually, my name is Alicia Chen."))
	if d.Status != StatusDone || len(d.Report.Rejected) > 0 {
		t.Fatalf("%s %s %+v", d.Status, d.Reason, d.Report.Rejected)
	}
	name, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-name")
	if err != nil || name.Title != "Name: Alicia Chen" || strings.Contains(name.Body, "Paris") {
		t.Fatalf("user-name %+v %v", name, err)
	}
	loc, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-location")
	if err != nil || loc.Title != "Based in Paris" || loc.SourceQuote != "I live in Paris" || !strings.Contains(loc.Body, "[[Paris]]") ||
		loc.Source.Session != "earlier" || loc.Confidence != memory.ConfidenceMedium {
		t.Fatalf("user-location %+v %v", loc, err)
	}
	f.wantSplitReason(loc, lang, splitApart, "user-name")
	if got := strings.Join(f.served("Where do I live?"), "\n"); !strings.Contains(got, "Paris") {
		t.Fatalf("the place is no longer served: %q", got)
	}
}

// TestOneFactMemoriesAreNotSplit: a memory the extractor writes today quotes only the words of
// its own fact, so reading its words finds that fact alone (or none) and it is never split.
func TestOneFactMemoriesAreNotSplit(t *testing.T) {
	for _, msg := range []string{"My name is Dave and I live in Oslo.", "I live in Paris and I work at Acme as a nurse.",
		"I'm from Lyon but I live in Berlin.", "Hi, I'm Eve, a designer at Figma.", "I work for the BBC in London as a producer.",
		"I'm a PhD student in Machine Learning at MIT.", "我叫小王，住在上海。", "我是上海人，现在在深圳工作。"} {
		for slug, it := range itemsBySlug(t, msg) {
			body, _ := renderRelations(it.Body, it.Relations)
			mf, ok := factsOf(&memory.Memory{Slug: slug, Body: body})
			if !ok {
				continue
			}
			for _, f := range mf.facts {
				if f.slug != slug {
					t.Errorf("%q: %s's words read as %s too: %q", msg, slug, f.slug, body)
				}
			}
		}
	}
}
