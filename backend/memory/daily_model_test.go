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
