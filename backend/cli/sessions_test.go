package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/memory"
)

func TestSessionsVerbs(t *testing.T) {
	h := newHome(t)
	if out := h.ok("sessions"); !strings.Contains(out, "No sessions yet.") {
		t.Fatalf("empty: %s", out)
	}
	st, err := memory.Open(context.Background(), h.dir, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wd := t.TempDir()
	for _, rec := range []memory.SessionRecord{
		{Agent: "claude-code", Session: "s1", Workdir: wd, Turns: []memory.TurnInput{{Role: "user", Content: "I always use pytest -q"}, {Role: "assistant", Content: "Noted."}}},
		{Agent: "codex", Session: "s2", Turns: []memory.TurnInput{{Role: "user", Content: "hello there"}}},
		{Agent: "codex", Session: "s1", Turns: []memory.TurnInput{{Role: "user", Content: "same id, other agent"}}},
		{Agent: "codex", Session: "long", Turns: []memory.TurnInput{{Role: "user", Content: strings.Repeat("log line\n", 2000)}}},
	} {
		if _, err := st.RecordSession(context.Background(), rec, nil); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	var list api.SessionList
	if err := json.Unmarshal([]byte(h.ok("sessions", "--json")), &list); err != nil || len(list.Sessions) != 4 {
		t.Fatalf("list %+v %v", list, err)
	}
	if out := h.ok("sessions", "--agent", "claude-code"); !strings.Contains(out, "s1  claude-code  2 messages") || strings.Contains(out, "codex") {
		t.Fatalf("list by agent: %s", out)
	}
	// A name no agent can have is refused as such, not answered "No sessions yet".
	if code, out, errs := h.run("", "sessions", "--agent", "Claude-Code"); code != 1 || strings.Contains(out, "No sessions") ||
		!strings.Contains(errs, "not a valid agent name") {
		t.Fatalf("list by an invalid agent: %d %q %q", code, out, errs)
	}
	// s1 belongs to two agents: the agent must be named.
	code, _, errs := h.run("", "sessions", "show", "s1")
	if code != 1 || !strings.Contains(errs, "--agent") {
		t.Fatalf("ambiguous show: %d %s", code, errs)
	}
	out := h.ok("sessions", "show", "s1", "--agent", "claude-code")
	if !strings.Contains(out, "I always use pytest -q") || !strings.Contains(out, "#2 assistant") {
		t.Fatalf("show: %s", out)
	}
	// A message cut when recorded says so (it was shown as if whole).
	if out := h.ok("sessions", "show", "long"); !strings.Contains(out, "[Cut when recorded: the message was longer than 16 KiB; the last") {
		t.Fatalf("show a cut message: %s", out[len(out)-200:])
	}
	// A session with no project folder says so (its header read "in :").
	if out := h.ok("sessions", "show", "long"); !strings.HasPrefix(out, "Session long (codex), no project folder: 1 message received") {
		t.Fatalf("show a session without a folder: %s", out[:120])
	}
	if out := h.ok("sessions", "delete", "s2"); !strings.Contains(out, "Deleted session s2 (codex)") {
		t.Fatalf("delete: %s", out)
	}
	code, _, errs = h.run("", "sessions", "show", "s2")
	if code != 1 || !strings.Contains(errs, "No session “s2”") {
		t.Fatalf("show deleted: %d %s", code, errs)
	}
	if code, _, _ := h.run("", "sessions", "show"); code != 2 {
		t.Fatalf("show without ID exits %d", code)
	}
}
