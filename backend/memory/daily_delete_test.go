package memory

import "testing"

// TestModelsDoNotDeleteAJournalDay: a journal day is appended to, never changed — an update or
// an archive of one is refused to everyone — yet any actor could delete it, so an agent's
// memory_delete of "2026-12-06" (a slug every agent sees: the journal is global) moved the
// person's whole day, their own entries too, to the trash. A day is now deleted only by the
// person (and the store's own upkeep); a model's delete, reject or otherwise, is refused.
func TestModelsDoNotDeleteAJournalDay(t *testing.T) {
	for _, c := range []struct {
		actor string
		want  string // "" when the day is deleted
	}{
		{ActorTool, CodeDailyPersonOnly},
		{ActorExtractor, CodeDailyPersonOnly},
		{ActorOrganizer, CodeDailyPersonOnly},
		{ActorUser, ""},
		{ActorBridge, ""},
	} {
		t.Run(c.actor, func(t *testing.T) {
			e := newEnv(t)
			day := e.batch(ActorUser, Item{Op: OpAppendDaily, Text: "Dentist at three; call mum after."}).Results[0]
			if !day.OK {
				t.Fatalf("append: %+v", day)
			}
			for _, target := range []Item{{Op: OpDelete, ID: day.ID}, {Op: OpDelete, Slug: day.Slug, Scope: ScopeGlobal}} {
				got := e.batch(c.actor, target).Results[0]
				if got.Code != c.want || got.OK != (c.want == "") {
					t.Fatalf("delete of the day by %s (id %q slug %q): ok %v code %q, want %q", c.actor, target.ID, target.Slug, got.OK, got.Code, c.want)
				}
				if got.OK {
					return
				}
			}
			m, err := e.s.Get(e.ctx, day.ID)
			if err != nil || m.Body == "" {
				t.Fatalf("the day after %s's deletes: %v", c.actor, err)
			}
		})
	}
}
