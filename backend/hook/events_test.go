package hook

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"engram/backend/extraction"
)

// toolUseLine is an assistant entry that calls tool with input (a Task that starts a
// sub-agent, a Write that changes the workspace).
func toolUseLine(uuid, tool string, input map[string]any) string {
	b, _ := json.Marshal(map[string]any{"type": "assistant", "uuid": uuid,
		"message": map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": "toolu_" + uuid, "name": tool, "input": input}}}})
	return string(b) + "\n"
}

// TestSubagentStopLeavesTheTurnWhole: SubagentStop fires while the main agent's turn goes on
// (its transcript_path is the main session's). Read then, it handed the person's message over
// alone; the files the agent wrote after it came with the Stop, which had no new message of
// the person and so was dropped: a project memory lost its evidence. The turn is now read once,
// whole, at the Stop.
func TestSubagentStopLeavesTheTurnWhole(t *testing.T) {
	f := newFixture(t)
	rec := newRecorder(t)
	rec.publish(t, f.home)
	f.append(userLine("u1", "Set up pytest for this repo; in this project we always run it with -q."),
		toolUseLine("a1", "Task", map[string]any{"description": "find tests", "prompt": "List the test files."}))
	sub := f.payload()
	sub.HookEventName = "SubagentStop"
	if res, err := f.svc.ClaudeCode(t.Context(), sub); err != nil || res.Status != StatusNotATurn {
		t.Fatalf("SubagentStop: %+v %v", res, err)
	}
	ini := filepath.Join(f.workdir, "pytest.ini")
	f.append(toolUseLine("a2", "Write", map[string]any{"file_path": ini, "content": "[pytest]\naddopts = -q\n"}),
		assistantLine("a3", "Done: pytest.ini sets -q."))
	if res, err := f.run(); err != nil || res.Status != StatusForwarded || res.PersonMessages != 1 {
		t.Fatalf("Stop: %+v %v", res, err)
	}
	calls := rec.got()
	if len(calls) != 1 {
		t.Fatalf("%d hand-overs, want the one whole turn", len(calls))
	}
	req := calls[0].Params
	if len(req.Messages) != 2 || req.Messages[0].ID != "u1" {
		t.Fatalf("messages %+v", req.Messages)
	}
	if len(req.WorkspaceMutations) != 1 || req.WorkspaceMutations[0] != (extraction.Mutation{Tool: "Write", Path: ini, Kind: "write"}) {
		t.Fatalf("the file the turn wrote is not its evidence: %+v", req.WorkspaceMutations)
	}
}

// TestSessionEndReadsAnInterruptedTurn: Claude Code fires no Stop when the person interrupts a
// turn (Esc), so a message typed before it and then /exit or /clear was never read: SessionEnd
// is the session's last event, and it reads what no Stop read — once, however often it comes.
func TestSessionEndReadsAnInterruptedTurn(t *testing.T) {
	f := newFixture(t)
	rec := newRecorder(t)
	rec.publish(t, f.home)
	f.append(userLine("u1", "Remember that I deploy with Fly.io, never Heroku."),
		assistantLine("a1", "Noted, I'll look at fly.toml"),
		userLine("u2", "[Request interrupted by user]"))
	end := f.payload()
	end.HookEventName = "SessionEnd"
	for i, want := range []string{StatusForwarded, StatusNothingNew} {
		res, err := f.svc.ClaudeCode(t.Context(), end)
		if err != nil || res.Status != want {
			t.Fatalf("SessionEnd %d: %+v %v, want %s", i+1, res, err, want)
		}
	}
	calls := rec.got()
	if len(calls) != 1 || len(calls[0].Params.Messages) != 2 || calls[0].Params.Messages[0].ID != "u1" {
		t.Fatalf("calls %+v", calls)
	}
	// A Stop on the same transcript afterwards (the session resumed) learns nothing twice.
	if res, err := f.run(); err != nil || res.Status != StatusNothingNew || len(rec.got()) != 1 {
		t.Fatalf("Stop after SessionEnd: %+v %v", res, err)
	}
}

// TestResumedSessionIsNotLearnedAgain: `claude --resume` (and --fork-session) starts a new
// session whose transcript holds the old session's entries, uuids and all. Claimed per session,
// every earlier turn the old session had handed over was new again: the person's old messages
// went to extraction a second time (the offline extractor refused its own memories as
// "already exists", a model planned them again). An entry is handed over once per agent.
func TestResumedSessionIsNotLearnedAgain(t *testing.T) {
	f := newFixture(t)
	rec := newRecorder(t)
	rec.publish(t, f.home)
	old := []string{userLine("u1", "My name is Ana Lima and I live in Lisbon."), assistantLine("a1", "Hi Ana.")}
	f.append(old...)
	if res, err := f.run(); err != nil || res.Status != StatusForwarded || res.PersonMessages != 1 {
		t.Fatalf("first session: %+v %v", res, err)
	}
	resumed := &fixture{t: t, transcript: filepath.Join(t.TempDir(), "resumed.jsonl")}
	resumed.append(append(old, userLine("u2", "Also, I work at Globex as a data engineer."))...)
	p := Payload{SessionID: "sess-2", TranscriptPath: resumed.transcript, Cwd: f.workdir, HookEventName: "Stop"}
	res, err := f.svc.ClaudeCode(t.Context(), p)
	if err != nil || res.Status != StatusForwarded || res.PersonMessages != 1 {
		t.Fatalf("resumed session: %+v %v, want only the new message", res, err)
	}
	calls := rec.got()
	if len(calls) != 2 || len(calls[1].Params.Messages) != 1 || calls[1].Params.Messages[0].ID != "u2" || calls[1].Params.SessionID != "sess-2" {
		t.Fatalf("calls %+v", calls)
	}
	// Another session's entry with a uuid of its own is not held back by it.
	other := &fixture{t: t, transcript: filepath.Join(t.TempDir(), "other.jsonl")}
	other.append(userLine("u3", "I prefer fish shell over bash."))
	p = Payload{SessionID: "sess-3", TranscriptPath: other.transcript, Cwd: f.workdir, HookEventName: "Stop"}
	if res, err := f.svc.ClaudeCode(t.Context(), p); err != nil || res.Status != StatusForwarded {
		t.Fatalf("other session: %+v %v", res, err)
	}
}

// TestSessionEndOfAnEmptySession: Claude Code writes a session's transcript at its first
// message, so a session opened and left (/exit, /clear at once) ends with a transcript_path
// that does not exist: nothing to read, not a failure on stderr and in hook.log each time.
// A Stop on a missing transcript is still one.
func TestSessionEndOfAnEmptySession(t *testing.T) {
	f := newFixture(t)
	p := f.payload()
	p.TranscriptPath = filepath.Join(t.TempDir(), "never-written.jsonl")
	p.HookEventName = "SessionEnd"
	if res, err := f.svc.ClaudeCode(t.Context(), p); err != nil || res.Status != StatusNothingNew {
		t.Fatalf("SessionEnd: %+v %v", res, err)
	}
	p.HookEventName = "Stop"
	if _, err := f.svc.ClaudeCode(t.Context(), p); codeOf(err) != CodeTranscript {
		t.Fatalf("Stop: %v, want %s", err, CodeTranscript)
	}
}
