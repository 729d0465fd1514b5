package memory

import (
	"strings"
	"testing"
)

// A model's journal entries are capped whichever way the model reached the store — an agent's
// tool call or the extractor's plan — while the person's own keep the whole day. The trigger:
// the cap stood on tool calls alone, and the extractor appends what a model planned too.
func TestDailyModelCapsEveryModelActor(t *testing.T) {
	long := strings.Repeat("z", MaxAgentDailyEntry+1)
	for _, c := range []struct {
		actor string
		want  string // "" when the long entry lands
	}{
		{ActorTool, CodeDailyEntryTooLong},
		{ActorExtractor, CodeDailyEntryTooLong},
		{ActorUser, ""},
	} {
		t.Run(c.actor, func(t *testing.T) {
			e := newEnv(t)
			got := e.batch(c.actor, Item{Op: OpAppendDaily, Text: long}).Results[0]
			if got.Code != c.want || got.OK != (c.want == "") {
				t.Fatalf("a %d-byte entry by %s: ok %v code %q, want %q", len(long), c.actor, got.OK, got.Code, c.want)
			}
		})
	}
}

// A model cannot delete a journal day, which holds the person's entries; it may only append
// (an update is refused the same way). The trigger: an agent's memory_delete of the day's slug
// moved the whole day, the person's entries too, to the trash. The person still may.
func TestDailyModelCannotDeleteTheDay(t *testing.T) {
	for _, c := range []struct {
		actor string
		op    Op
		want  string // "" when the day goes to the trash
	}{
		{ActorTool, OpDelete, CodeDailyPersonOnly},
		{ActorExtractor, OpDelete, CodeDailyPersonOnly},
		{ActorUser, OpDelete, ""},
	} {
		t.Run(c.actor, func(t *testing.T) {
			e := newEnv(t)
			day := e.batch(ActorUser, Item{Op: OpAppendDaily, Text: "The person's own plan."}).Results[0]
			if !day.OK {
				t.Fatalf("append: %+v", day)
			}
			got := e.batch(c.actor, Item{Op: c.op, ID: day.ID}).Results[0]
			if got.Code != c.want || got.OK != (c.want == "") {
				t.Fatalf("%s by %s: ok %v code %q, want %q", c.op, c.actor, got.OK, got.Code, c.want)
			}
			_, err := e.s.Get(e.ctx, day.ID)
			if kept := err == nil; kept != (c.want != "") {
				t.Fatalf("after %s by %s the day is kept: %v (%v)", c.op, c.actor, kept, err)
			}
		})
	}
}
