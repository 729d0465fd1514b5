package api

import (
	"strings"
	"testing"

	"engram/backend/memory"
)

// A journal day renders [[links]] as the reader does: a name that is a memory's slug or title
// links to that memory (by id), any other name to the entity of that name; a link inside code
// stays text, and raw HTML in an entry is left out. The day and each entry agree.
func TestDailyRendersWikiLinks(t *testing.T) {
	j := newJournalAPIs(t)
	w, err := j.user.Memory.Write(WriteParams{Scope: memory.ScopeGlobal, Type: memory.TypeProject, Slug: "engram-release",
		Title: "Engram release plan", Body: "Ship in December.", Confidence: memory.ConfidenceLow})
	if err != nil || !w.OK {
		t.Fatalf("write: %v %+v", err, w)
	}
	for _, text := range []string{
		"Talked about [[engram-release]] with [[Lin]].",
		"Re-read [[Engram release plan|the plan]]; `[[not-a-link]]` <b>bold</b>",
	} {
		if _, err := j.user.Daily.Append(AppendParams{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	day, err := j.user.Daily.Read(DayParams{})
	if err != nil {
		t.Fatal(err)
	}
	memLink := `href="#memory/` + w.ID + `"`
	for _, want := range []string{memLink, `data-memory-id="` + w.ID + `"`, `class="wikilink wikilink-entity" href="#entity/Lin"`,
		`data-entity="Lin"`, `>the plan</a>`, `<code>[[not-a-link]]</code>`, `raw HTML omitted`} {
		if !strings.Contains(day.HTML, want) {
			t.Errorf("day HTML lacks %s:\n%s", want, day.HTML)
		}
	}
	if strings.Contains(day.HTML, "[[engram-release]]") || strings.Contains(day.HTML, "<b>") {
		t.Errorf("day HTML kept a literal link or raw HTML:\n%s", day.HTML)
	}
	if len(day.Entries) != 2 {
		t.Fatalf("entries: %+v", day.Entries)
	}
	if e := day.Entries[0].HTML; !strings.Contains(e, memLink) || !strings.Contains(e, `data-entity="Lin"`) {
		t.Errorf("entry 1 HTML: %s", e)
	}
	if e := day.Entries[1].HTML; !strings.Contains(e, memLink) || !strings.Contains(e, `<code>[[not-a-link]]</code>`) {
		t.Errorf("entry 2 HTML: %s", e)
	}
	// Once the memory is gone the same name reads as an entity link.
	if _, err := j.user.Memory.Delete(RefParams{ID: w.ID}); err != nil {
		t.Fatal(err)
	}
	day, err = j.user.Daily.Read(DayParams{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(day.HTML, w.ID) || !strings.Contains(day.HTML, `data-entity="engram-release"`) {
		t.Errorf("after delete:\n%s", day.HTML)
	}
}
