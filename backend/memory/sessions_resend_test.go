package memory

import (
	"fmt"
	"slices"
	"testing"
)

// A client that sends its whole conversation with each turn (no message ids) stored every
// earlier message again: the session showed the conversation twice, three times over. Each
// message is stored once now; the new ones are numbered on; a request over MaxRecordTurns
// messages keeps its newest instead of being refused whole (the person's last message with it).
func TestResentConversationIsStoredOnce(t *testing.T) {
	e := newEnv(t)
	var conv []TurnInput
	say := func(role, text string) { conv = append(conv, TurnInput{Role: role, Content: text}) }
	record := func(turns []TurnInput) []int {
		t.Helper()
		rec, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "chatgpt", Session: "web", Turns: turns}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return rec.Seqs
	}
	contents := func() []string {
		ts, err := e.s.SessionTurns(e.ctx, "chatgpt", "web")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, x := range ts {
			out = append(out, x.Content)
		}
		return out
	}
	say("user", "I live in Porto and work as a nurse.")
	say("assistant", "Nice.")
	if got := record(conv); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("first request seqs %v", got)
	}
	say("user", "I always drink green tea.")
	say("assistant", "Noted.")
	if got := record(conv); !slices.Equal(got, []int{0, 0, 3, 4}) {
		t.Fatalf("second request seqs %v, want the history already stored", got)
	}
	// The same request again (a retry) stores nothing.
	if got := record(conv); !slices.Equal(got, []int{0, 0, 0, 0}) {
		t.Fatalf("retry seqs %v", got)
	}
	say("user", "Nice.") // words the session holds, but new at the end: stored
	if got := record(conv); !slices.Equal(got, []int{0, 0, 0, 0, 5}) {
		t.Fatalf("third request seqs %v", got)
	}
	want := []string{"I live in Porto and work as a nurse.", "Nice.", "I always drink green tea.", "Noted.", "Nice."}
	if got := contents(); !slices.Equal(got, want) {
		t.Fatalf("session holds %q, want %q", got, want)
	}
	// Past compaction the stored tail is what the request is matched against.
	for i := len(conv); i < SessionCompactAt+10; i++ {
		say([]string{"user", "assistant"}[i%2], fmt.Sprintf("message %d", i))
	}
	record(conv)
	for i := 0; i < 3; i++ {
		say([]string{"user", "assistant"}[i%2], fmt.Sprintf("late %d", i))
	}
	if got := record(conv); !slices.Equal(got[len(got)-3:], []int{len(conv) - 2, len(conv) - 1, len(conv)}) ||
		slices.ContainsFunc(got[:len(got)-3], func(n int) bool { return n != 0 }) {
		t.Fatalf("after compaction: seqs %v", got)
	}
	s, _ := e.s.FindSession(e.ctx, "chatgpt", "web")
	if s.TurnsReceived != len(conv) {
		t.Fatalf("%d messages received, the conversation has %d", s.TurnsReceived, len(conv))
	}
	// A conversation longer than one record holds: its newest messages are kept.
	var long []TurnInput
	for i := 0; i < MaxRecordTurns+50; i++ {
		long = append(long, TurnInput{Role: []string{"user", "assistant"}[i%2], Content: fmt.Sprintf("long %d", i)})
	}
	rec, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "chatgpt", Session: "long", Turns: long}, nil)
	if err != nil {
		t.Fatalf("a long conversation was refused: %v", err)
	}
	if rec.Seqs[49] != 0 || rec.Seqs[50] != 1 || rec.Seqs[len(long)-1] != MaxRecordTurns {
		t.Fatalf("long seqs: [49]=%d [50]=%d last=%d", rec.Seqs[49], rec.Seqs[50], rec.Seqs[len(long)-1])
	}
}

// Turns sent one at a time are never taken for a resent history: "yes" twice is two answers,
// and a message with an id is deduped by its id alone.
func TestRepeatedShortAnswersAreKept(t *testing.T) {
	e := newEnv(t)
	for i, turns := range [][]TurnInput{
		{{Role: "user", Content: "Deploy the billing service."}, {Role: "assistant", Content: "Shall I deploy?"}},
		{{Role: "user", Content: "yes"}},
		{{Role: "assistant", Content: "Deployed. Shall I tag it?"}},
		{{Role: "user", Content: "yes"}},
		{{Role: "user", Content: "yes", MsgID: "u9"}},
		{{Role: "user", Content: "yes", MsgID: "u9"}},
	} {
		if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "codex", Session: "one", Turns: turns}, nil); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
	}
	ts, _ := e.s.SessionTurns(e.ctx, "codex", "one")
	if len(ts) != 6 {
		t.Fatalf("%d messages stored, want 6: %+v", len(ts), ts)
	}
}

// TestSameAnswerTwiceInAResentConversation: a client without ids that sends its whole
// conversation stored [yes, Saved.] and then received [yes, Saved., yes, Saved.] — the same
// answer to two questions. The stored tail matched the request's last two messages, and the
// second answer was taken for a retry and never stored. The request's messages before that
// point cannot have been stored before it (the session holds only two and folded none), so the
// match is refused and the new pair is stored; a real retry still stores nothing.
func TestSameAnswerTwiceInAResentConversation(t *testing.T) {
	e := newEnv(t)
	pair := []TurnInput{{Role: "user", Content: "yes"}, {Role: "assistant", Content: "Saved."}}
	for i, turns := range [][]TurnInput{pair, append(append([]TurnInput{}, pair...), pair...),
		append(append([]TurnInput{}, pair...), pair...)} {
		if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "web", Session: "twice", Turns: turns}, nil); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
	}
	if ts, _ := e.s.SessionTurns(e.ctx, "web", "twice"); len(ts) != 4 {
		t.Fatalf("%d messages stored, want 4: %+v", len(ts), ts)
	}
}
