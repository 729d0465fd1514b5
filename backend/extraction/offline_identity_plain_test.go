package extraction

import (
	"slices"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

// seedPlain writes user-name in the person's own words, as `engram write` or an import leaves
// a memory: no "The person said" paragraph, the quote (if any) in source_quote.
func (f *fx) seedPlain(body, quote string, reviewed bool) *memory.Memory {
	f.t.Helper()
	title := "Name: Alice Chen; Based in Paris"
	it := memory.Item{Op: memory.OpWrite, Slug: "user-name", Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: &title,
		Body: &body, Confidence: memory.ConfidenceMedium, Reviewed: &reviewed}
	if quote != "" {
		it.SourceQuote = &quote
	}
	res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorImport, Items: []memory.Item{it}})
	if err != nil || !res.Results[0].OK {
		f.t.Fatalf("seed: %v %+v", err, res)
	}
	m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-name")
	if err != nil {
		f.t.Fatal(err)
	}
	return m
}

// TestCorrectionMarksPlainCombinedIdentity: a combined identity memory in the person's own words
// ("My name is Alice Chen and I live in Paris.", no quoted paragraph) was read as hand-written
// and left alone by a correction of the place, so recall kept serving Paris first. It is read
// by the same identity rules, over its body and its quote; it is not the extractor's shape, so
// it is not cut: its words stay as they are, and it is marked conflicting with user-location
// and sent to review with the reason in the person's language — and recall ranks it below the
// newer place.
func TestCorrectionMarksPlainCombinedIdentity(t *testing.T) {
	cases := []struct {
		name, body, quote string
		reviewed          bool
		lang              string
	}{
		{"imported", "My name is Alice Chen and I live in Paris.", "My name is Alice Chen and I live in Paris", false, "en"},
		{"engram write, reviewed", "My name is Alice Chen and I live in Paris.", "", true, "zh-CN"},
		{"quote only", "Name: Alice Chen. Lives in Paris, France.", "My name is Alice Chen and I live in Paris", true, "en"},
		{"Chinese", "我叫小王，住在上海。", "", false, "en"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFx(t, NewOffline())
			f.speaks(c.lang)
			seeded := f.seedPlain(c.body, c.quote, c.reviewed)
			f.clock.Advance(time.Hour) // the correction comes later
			msg, old, now := "Actually I moved to Berlin.", "Paris", "Berlin"
			if strings.Contains(c.body, "上海") {
				msg, old, now = "其实我已经搬到北京了", "上海", "北京"
			}
			if d := f.run(turn("now", msg)); d.Status != StatusDone || len(d.Report.Rejected) > 0 {
				t.Fatalf("%s %s %+v", d.Status, d.Reason, d.Report.Rejected)
			}
			m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-name")
			if err != nil {
				t.Fatal(err)
			}
			if m.Body != seeded.Body || m.Title != seeded.Title || m.SourceQuote != seeded.SourceQuote {
				t.Errorf("the person's words were rewritten: %q %q %q", m.Title, m.Body, m.SourceQuote)
			}
			if m.Reviewed || !slices.Contains(m.ConflictsWith, "user-location") {
				t.Fatalf("want it sent to review, conflicting with user-location: reviewed %v conflicts %v", m.Reviewed, m.ConflictsWith)
			}
			f.wantSplitReason(m, c.lang, splitConflict, "user-location")
			ask := "Where do I live?"
			if old == "上海" {
				ask = "我住在哪里？"
			}
			hits := f.served(ask)
			if len(hits) == 0 || !strings.Contains(hits[0], now) || strings.Contains(hits[0], old) {
				t.Errorf("recall does not serve the new place first: %q", hits)
			}
		})
	}
	// A user memory in other words that states no corrected fact, and one of another type, are
	// left alone.
	t.Run("not identity", func(t *testing.T) {
		f := newFx(t, NewOffline())
		seeded := f.seedPlain("Alice Chen, a designer.", "", true)
		if d := f.run(turn("now", "Actually I moved to Berlin.")); d.Status != StatusDone {
			t.Fatalf("%s %s", d.Status, d.Reason)
		}
		if m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-name"); err != nil || m.Version != seeded.Version {
			t.Errorf("changed: %+v %v", m, err)
		}
	})
	if _, ok := plainFacts(&memory.Memory{Slug: "user-name", Type: memory.TypeReference, Body: "My name is Alice Chen and I live in Paris."}); ok {
		t.Error("a reference memory read as the person's identity")
	}
}

// TestNameCorrectionKeepsPlainCombinedPlace: a name correction replaces a plain combined
// user-name; its place, with no memory of its own, is written apart first from its words.
func TestNameCorrectionKeepsPlainCombinedPlace(t *testing.T) {
	f := newFx(t, NewOffline())
	f.seedPlain("My name is Alice Chen and I live in Paris.", "", false)
	if d := f.run(turn("now", "Actually, my name is Alicia Chen.")); d.Status != StatusDone || len(d.Report.Rejected) > 0 {
		t.Fatalf("%s %s %+v", d.Status, d.Reason, d.Report.Rejected)
	}
	loc, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-location")
	if err != nil || loc.Title != "Based in Paris" || loc.SourceQuote != "I live in Paris" {
		t.Fatalf("user-location %+v %v", loc, err)
	}
	f.wantSplitReason(loc, "en", splitApart, "user-name")
}
