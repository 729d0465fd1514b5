package extraction

import (
	"strings"
	"testing"

	"engram/backend/memory"
)

// TestOfflineChineseSlugs: a Chinese fact's slug was a hash ("user-dislikes-a8dac311"), which
// told the person nothing in `engram list` or the file name, while the store names a Chinese
// title by its words. The offline extractor now takes the store's rule: the same fact gives
// the same slug whatever its punctuation, and two long facts that open alike stay apart.
func TestOfflineChineseSlugs(t *testing.T) {
	slug := func(msg string) string {
		t.Helper()
		out := planIn(t, userInput(msg, ""))
		if len(out.Plan.Items) != 1 {
			t.Fatalf("%q: %d items", msg, len(out.Plan.Items))
		}
		s := out.Plan.Items[0].Slug
		if !memory.ValidSlug(s) {
			t.Fatalf("%q: invalid slug %q", msg, s)
		}
		return s
	}
	for _, tc := range []struct{ msg, want string }{
		{"我讨厌早起。", "user-dislikes-我讨厌早起"},
		{"我讨厌早起！", "user-dislikes-我讨厌早起"},
		{"我喜欢川菜", "user-likes-我喜欢川菜"},
		{"以后回答问题请用中文，不要用英文。", "feedback-rule-以后回答问题请用中文-不要用英文"},
	} {
		if got := slug(tc.msg); got != tc.want {
			t.Errorf("%q: slug %q, want %q", tc.msg, got, tc.want)
		}
	}
	a := slug("我喜欢吃四川火锅和重庆小面还有云南过桥米线以及广东早茶点心")
	b := slug("我喜欢吃四川火锅和重庆小面还有云南过桥米线以及上海生煎包子")
	if a == b || !strings.HasPrefix(a, "user-likes-我喜欢吃四川火锅") {
		t.Fatalf("long facts: %q and %q", a, b)
	}
}

// TestOfflineFindsAFactUnderItsOldSlug: a memory an older build's offline extractor wrote
// under the hashed slug is the same memory after the upgrade — stating the fact again updates
// it, found whether or not the candidate search shows it, instead of writing a second
// memory under the new slug beside it.
func TestOfflineFindsAFactUnderItsOldSlug(t *testing.T) {
	for _, tc := range []struct {
		name, stored, said string
	}{
		{"same words", "我讨厌早起", "我讨厌早起。"},
		{"mixed words", "我用 Go 和 Rust 写后端", "记住：我用 Go 和 Rust 写后端"},
		// Words the candidate search does not match: only the slug finds it.
		{"not a candidate", "zzz", "我喜欢川菜"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := planIn(t, userInput(tc.said, ""))
			if len(out.Plan.Items) != 1 || out.Plan.Items[0].legacySlug == "" {
				t.Fatalf("plan %+v", out.Plan.Items)
			}
			old := out.Plan.Items[0].legacySlug
			f := newFx(t, Offline{})
			title, body := "旧的记忆", tc.stored
			if res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorExtractor, Items: []memory.Item{{Op: memory.OpWrite,
				Slug: old, Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: &title, Body: &body}}}); err != nil || !res.Results[0].OK {
				t.Fatalf("seed %s: %+v %v", old, res, err)
			}
			d := f.run(turn("s1", tc.said))
			if len(d.Report.Applied) == 0 || d.Report.Applied[0].Slug != old || d.Report.Applied[0].Action != ActionUpdate {
				t.Fatalf("%s %s applied %+v rejected %+v", d.Status, d.Reason, d.Report.Applied, d.Report.Rejected)
			}
			list, _, err := f.store.List(f.ctx, memory.Filter{})
			if err != nil {
				t.Fatal(err)
			}
			var slugs []string
			for _, m := range list {
				if m.Slug != ProfileSlug {
					slugs = append(slugs, m.Slug)
				}
			}
			if len(slugs) != 1 || slugs[0] != old {
				t.Fatalf("memories after the upgrade: %v", slugs)
			}
		})
	}
}
