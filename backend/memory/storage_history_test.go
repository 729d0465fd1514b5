package memory

import (
	"strings"
	"testing"
	"time"
)

// The store keeps one size sample per local day, holding the size the day ended with:
// recorded by changes and by every history request, never by merely opening the store (every
// CLI call opens it).
func TestStorageHistorySamplesOncePerDay(t *testing.T) {
	e := newEnv(t)
	if n := e.count(`SELECT COUNT(*) FROM storage_samples`); n != 0 {
		t.Fatalf("%d samples after open, want none", n)
	}
	h, err := e.s.StorageHistory(e.ctx, 30)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 1 || h[0].Day != "2024-05-14" || h[0].Memories != 0 || h[0].IndexBytes <= 0 {
		t.Fatalf("first sample %+v", h)
	}
	e.ok(wr("first-memory", "First", "the first memory of the day"))
	if h, _ = e.s.StorageHistory(e.ctx, 30); len(h) != 1 || h[0].Memories != 1 || h[0].Bytes <= 0 {
		t.Fatalf("same day: %+v (one row, holding the day's latest size)", h)
	}
	e.clock.Advance(24 * time.Hour)
	e.ok(wr("second-memory", "Second", "written the next day"))
	// The change itself recorded the new day (no history request in between).
	if n := e.count(`SELECT COUNT(*) FROM storage_samples WHERE day = '2024-05-15' AND memories = 2`); n != 1 {
		t.Fatalf("the next day's change recorded no sample")
	}
	h, err = e.s.StorageHistory(e.ctx, 30)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[0].Day != "2024-05-14" || h[0].Memories != 1 || h[1].Day != "2024-05-15" || h[1].Memories != 2 {
		t.Fatalf("after a day: %+v", h)
	}
	// Another process on the same home the same day updates the day's row, adds none.
	other := e.open()
	if _, err := other.StorageHistory(e.ctx, 30); err != nil {
		t.Fatal(err)
	}
	if n := e.count(`SELECT COUNT(*) FROM storage_samples`); n != 2 {
		t.Fatalf("%d samples after a second process asked the same day, want 2", n)
	}
	// Older days fall out of a short window; today stays.
	e.clock.Advance(10 * 24 * time.Hour)
	if h, _ = other.StorageHistory(e.ctx, 3); len(h) != 1 || h[0].Day != "2024-05-25" || h[0].Memories != 2 {
		t.Fatalf("3-day window: %+v", h)
	}
}

// A journal day is in the size, not in the count of memories: the chart said "208 memories"
// where the scopes' table and doctor said 195 and 13 journal days.
func TestStorageHistoryCountsNoJournalDayAsAMemory(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("first-memory", "First", "the first memory of the day"))
	h, err := e.s.StorageHistory(e.ctx, 30)
	if err != nil {
		t.Fatal(err)
	}
	before := h[len(h)-1].Bytes
	e.ok(Item{Op: OpAppendDaily, Text: "had lunch with the team"})
	if h, err = e.s.StorageHistory(e.ctx, 30); err != nil {
		t.Fatal(err)
	}
	if last := h[len(h)-1]; last.Memories != 1 || last.Bytes <= before {
		t.Fatalf("after a journal entry: %+v (want 1 memory, the day's bytes counted)", last)
	}
}

// The preview counts new, duplicate, conflicting and invalid lines and the quota impact,
// and writes nothing: the import that follows does exactly what it announced.
func TestPreviewImportCountsWithoutWriting(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.QuotaLimit = 10 })
	e.ok(wr("same-one", "Same", "identical text"))
	e.ok(wr("changed-one", "Changed", "the store's text"))
	lines := []string{
		`{"slug":"same-one","title":"Same","scope":"global","type":"user","body":"identical text"}`,         // duplicate
		`{"slug":"changed-one","title":"Changed","scope":"global","type":"user","body":"the file's text"}`,  // conflict
		`{"slug":"brand-new","title":"New","scope":"global","type":"user","body":"new one"}`,                // new
		`{"slug":"brand-new","title":"New again","scope":"global","type":"user","body":"repeated in file"}`, // conflict (repeat)
		`{"slug":"Bad Slug","title":"t","scope":"global","type":"user","body":"b"}`,                         // invalid
		`{"slug":"broken",`, // invalid JSON
		`{"slug":"leaky","title":"t","scope":"global","type":"user","body":"` + fakeAWSKeyID + `"}`, // secret
		`{"slug":"2024-05-13","title":"2024-05-13","scope":"global","type":"daily","body":"journal"}`,
	}
	// Quota 10: headroom ≤ 5 is exhausted, so a scope takes writes up to 5 used; 2 are used.
	for i := range 5 {
		lines = append(lines, `{"slug":"fill-`+string(rune('a'+i))+`x","title":"Fill","scope":"global","type":"user","body":"fill `+string(rune('a'+i))+`"}`)
	}
	jsonl := strings.Join(lines, "\n") + "\n"
	before := e.count(`SELECT COUNT(*) FROM memory_meta`)
	p, err := e.s.PreviewImport(e.ctx, strings.NewReader(jsonl), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Lines != 13 || p.Duplicates != 1 || p.Conflicts != 2 || p.Invalid != 3 || p.Daily != 1 {
		t.Fatalf("preview %+v", p)
	}
	// brand-new + 5 fills = 6 new; 2 used, so 3 fit before the scope is exhausted.
	if p.New != 3 || p.OverQuota != 3 || len(p.Scopes) != 1 {
		t.Fatalf("new=%d over=%d scopes=%+v", p.New, p.OverQuota, p.Scopes)
	}
	if s := p.Scopes[0]; s.Scope != ScopeGlobal || s.Used != 2 || s.Adding != 3 || s.After != 5 || s.Refused != 3 || s.Level != LevelExhausted {
		t.Fatalf("scope impact %+v", s)
	}
	if len(p.ConflictLines) != 2 || p.ConflictLines[0].Line != 2 || p.ConflictLines[0].Title != "Changed" || p.ConflictLines[1].Line != 4 {
		t.Fatalf("conflict lines %+v", p.ConflictLines)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_meta`); n != before {
		t.Fatalf("preview wrote: %d rows, had %d", n, before)
	}
	rep, err := e.s.Import(e.ctx, strings.NewReader(jsonl))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Imported != p.New || rep.Daily != p.Daily {
		t.Fatalf("import %+v, preview announced new=%d daily=%d", rep, p.New, p.Daily)
	}
	quota := 0
	for _, le := range rep.Errors {
		if le.Code == CodeQuotaExhausted {
			quota++
		}
	}
	if quota != p.OverQuota {
		t.Fatalf("import refused %d for quota, preview said %d (%+v)", quota, p.OverQuota, rep.Errors)
	}
	if got := e.get(e.s.mustSlugID(t, "changed-one")); got.Body != "the store's text" {
		t.Fatalf("a conflict replaced the store's memory: %q", got.Body)
	}
}

func (s *Store) mustSlugID(t *testing.T, slug string) string {
	t.Helper()
	m, err := s.GetBySlug(t.Context(), ScopeGlobal, "", "", slug)
	if err != nil {
		t.Fatal(err)
	}
	return m.ID
}

// The preview refuses what the import refuses: an id that is no ULID, and a slug the person
// rejected in the last seven days. It counted both as new, and the import then wrote neither.
func TestPreviewImportRefusesWhatImportRefuses(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("rejected-yesterday", "Rejected", "the person said no"))
	e.ok(Item{Op: OpReject, ID: r.ID})
	jsonl := strings.Join([]string{
		`{"slug":"rejected-yesterday","title":"Rejected","scope":"global","type":"user","body":"again"}`,
		`{"id":"not-a-ulid","slug":"odd-id","title":"Odd","scope":"global","type":"user","body":"b"}`,
		`{"slug":"fine-one","title":"Fine","scope":"global","type":"user","body":"b"}`,
	}, "\n") + "\n"
	p, err := e.s.PreviewImport(e.ctx, strings.NewReader(jsonl), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.New != 1 || p.Invalid != 2 || len(p.Errors) != 2 || p.Errors[0].Code != CodeRejectedSlug || p.Errors[1].Code != CodeImportBadID {
		t.Fatalf("preview %+v", p)
	}
	rep, err := e.s.Import(e.ctx, strings.NewReader(jsonl))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Imported != p.New || len(rep.Errors) != p.Invalid {
		t.Fatalf("import %+v, preview new=%d invalid=%d", rep, p.New, p.Invalid)
	}
}
