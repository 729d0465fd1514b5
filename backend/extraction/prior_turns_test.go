package extraction

import (
	"context"
	"testing"

	"engram/backend/memory"
)

// A hook sends only the entries new since its last call: the run's window takes the turns
// before them from the stored session (the api records every request first), as context the
// runs of their own turns planned.
func TestWindowTakesEarlierTurnsFromTheSession(t *testing.T) {
	var seen Input
	p := planFunc(func(_ context.Context, in Input) (Outcome, error) {
		seen = in
		return Outcome{Plan: Plan{Status: PlanNoop}, Model: "scripted"}, nil
	})
	f := newFx(t, p)
	rec := func(msgs ...Message) {
		var turns []memory.TurnInput
		for _, m := range msgs {
			turns = append(turns, memory.TurnInput{Role: m.Role, Content: m.Content, MsgID: m.ID})
		}
		if _, err := f.store.RecordSession(f.ctx, memory.SessionRecord{Agent: "claude-code", Session: "s1", Turns: turns}, nil); err != nil {
			t.Fatal(err)
		}
	}
	earlier := []Message{{Role: "user", Content: "I'm a site reliability engineer at Initech.", ID: "u1"}, {Role: "assistant", Content: "Noted.", ID: "a1"}}
	rec(earlier...)
	now := []Message{{Role: "user", Content: "Please run the unit tests again now.", ID: "u2"}, {Role: "assistant", Content: "Running.", ID: "a2"}}
	rec(now...)
	f.run(Request{SessionID: "s1", Agent: "claude-code", Messages: now})
	var users []string
	for _, m := range seen.Turns {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	if len(users) != 2 || users[0] != earlier[0].Content || users[1] != now[0].Content {
		t.Fatalf("window users %q, want the earlier turn then this one", users)
	}
	if len(seen.Planned) != 1 || seen.Planned[0] != ContentHash(earlier[0].Content) {
		t.Fatalf("planned %v, want the earlier turn's hash", seen.Planned)
	}
	// A request holding its own history takes nothing from the store twice.
	f.clock.Advance(60e9)
	f.run(Request{SessionID: "s1", Agent: "claude-code", Messages: append(append([]Message{}, earlier...), Message{Role: "user", Content: "And remember I use zsh.", ID: "u3"})})
	n := 0
	for _, m := range seen.Turns {
		if m.Role == "user" && m.Content == earlier[0].Content {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the earlier turn is in the window %d times", n)
	}
}
