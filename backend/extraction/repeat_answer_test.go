package extraction

import (
	"testing"
	"time"
)

// TestSameAnswerToAnotherQuestionIsNotARetry: a client without message ids that sends only a
// turn's new messages sent [Shall I remember vim?, yes, Saved.] and then [Shall I also
// remember tmux?, yes, Saved.]: the second "yes" had the first one's position and text, and
// was skipped as already extracted. The question it answers now tells them apart; the same
// request sent again is still a retry. (The session stores both answers:
// memory's TestSameAnswerTwiceInAResentConversation and TestRepeatedShortAnswersAreKept.)
func TestSameAnswerToAnotherQuestionIsNotARetry(t *testing.T) {
	f := newFx(t, fixedPlan())
	req := func(question string) Request {
		return Request{SessionID: "s1", Agent: "web", Messages: []Message{{Role: "assistant", Content: question},
			{Role: "user", Content: "yes"}, {Role: "assistant", Content: "Saved."}}}
	}
	first := f.run(req("Shall I remember that you use vim?"))
	f.clock.Advance(time.Minute)
	second := f.run(req("Shall I also remember that you use tmux?"))
	f.clock.Advance(time.Minute)
	retry := f.run(req("Shall I also remember that you use tmux?"))
	if first.Status == StatusSkipped || second.Status == StatusSkipped {
		t.Fatalf("first %s %s, second %s %s: a new answer was skipped", first.Status, first.Reason, second.Status, second.Reason)
	}
	if retry.Status != StatusSkipped || retry.Reason != SkipAlreadyCovered {
		t.Fatalf("retry %s %s, want skipped %s", retry.Status, retry.Reason, SkipAlreadyCovered)
	}
}
