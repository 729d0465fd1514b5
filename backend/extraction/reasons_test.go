package extraction

import (
	"testing"

	"engram/backend/memory"
)

// TestOfflineReasoningInThePersonsLanguage: the reasoning the offline extractor records, which
// Review shows beside each memory it wrote (the rule that matched, the profile signals), is
// written from the catalog in the person's language from Settings. It was a hard-coded English
// or Chinese sentence picked by the script of the words: a person reading Chinese got English
// for an English sentence, and the profile's reasoning was English only.
func TestOfflineReasoningInThePersonsLanguage(t *testing.T) {
	cases := []struct {
		lang, msg, slug string
	}{
		{"zh-CN", "I live in Oslo.", "user-location"},
		{"en", "我住在成都。", "user-location"},
		{"zh-CN", "I work as a nurse.", ProfileSlug},
		{"en", "I work as a nurse.", "user-role"},
	}
	cat := testCatalog(t)
	for _, c := range cases {
		t.Run(c.lang+" "+c.msg+" "+c.slug, func(t *testing.T) {
			want := cat.T(c.lang, reasonProfile, nil)
			if c.slug != ProfileSlug {
				var rule string
				for _, it := range planIn(t, userInput(c.msg, "")).Plan.Items {
					if it.Slug == c.slug {
						rule, _ = it.ReasonArgs["Rule"].(string)
					}
				}
				if rule == "" {
					t.Fatalf("%q plans no %s with a rule", c.msg, c.slug)
				}
				want = cat.T(c.lang, reasonOfflineRule, map[string]any{"Rule": rule})
			}
			f := newFx(t, NewOffline())
			f.speaks(c.lang)
			if d := f.run(turn("s", c.msg)); d.Status != StatusDone {
				t.Fatalf("%s %s %+v", d.Status, d.Reason, d.Report.Rejected)
			}
			m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", c.slug)
			if err != nil {
				t.Fatal(err)
			}
			if m.Reasoning != want || want == "" {
				t.Errorf("reasoning %q, want %s's %q", m.Reasoning, c.lang, want)
			}
		})
	}
}
