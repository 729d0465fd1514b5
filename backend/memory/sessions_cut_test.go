package memory

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A message over MaxTurnContent was stored cut at 16 KiB with nothing saying so: the session
// view and an agent's history search showed the first part as the whole message. Each stored
// message now carries how many bytes it lost (CutBytes), counted after redaction, and a whole
// message carries none.
func TestSessionTurnSaysItWasCut(t *testing.T) {
	e := newEnv(t)
	long := strings.Repeat("部署 ", 3000) + "the end" // 21,007 bytes: cut
	exact := strings.Repeat("x", MaxTurnContent)    // exactly the limit: whole
	if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "claude-code", Session: "s1",
		Turns: []TurnInput{{Role: "user", Content: long}, {Role: "assistant", Content: exact}, {Role: "user", Content: "short"}}}, nil); err != nil {
		t.Fatal(err)
	}
	turns, err := e.s.SessionTurns(e.ctx, "claude-code", "s1")
	if err != nil || len(turns) != 3 {
		t.Fatalf("%d turns, %v", len(turns), err)
	}
	for i, w := range []int{len(strings.TrimSpace(long)) - len(turns[0].Content), 0, 0} {
		if turns[i].CutBytes != w {
			t.Errorf("turn %d: cut_bytes %d, want %d (stored %d bytes)", i+1, turns[i].CutBytes, w, len(turns[i].Content))
		}
	}
	if turns[0].CutBytes == 0 || !utf8.ValidString(turns[0].Content) || len(turns[0].Content) > MaxTurnContent {
		t.Errorf("the long message: stored %d bytes, cut %d", len(turns[0].Content), turns[0].CutBytes)
	}
	hits, err := e.s.SearchHistory(e.ctx, HistoryQuery{Agent: "claude-code", Terms: []string{"部署"}})
	if err != nil || len(hits) != 1 || hits[0].CutBytes != turns[0].CutBytes {
		t.Fatalf("history: %+v %v", hits, err)
	}
}
