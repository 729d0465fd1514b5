package hook

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func codexTurn(f *fixture, turnID string, inputs ...string) CodexPayload {
	return CodexPayload{Type: CodexTurnComplete, ThreadID: "thread-7", TurnID: turnID, Cwd: f.workdir,
		InputMessages: inputs, LastAssistantMessage: "Done: pytest -q is set up."}
}

// A finished Codex turn reaches the running Engram as one request of the codex agent — the
// person's messages, then the answer, in the thread's session and the turn's project — and a
// notification delivered twice is handed over once.
func TestCodexTurnForwardedOnce(t *testing.T) {
	f := newFixture(t)
	rec := newRecorder(t)
	rec.publish(t, f.home)
	p := codexTurn(f, "turn-1", "Use pytest with -q in this repo, never unittest.")
	res, err := f.svc.Codex(t.Context(), p)
	if err != nil || res.Status != StatusForwarded || res.Messages != 2 || res.PersonMessages != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	calls := rec.got()
	canon, _ := filepath.EvalSymlinks(f.workdir)
	if len(calls) != 1 || calls[0].Method != MethodExtractionRequest {
		t.Fatalf("calls %+v", calls)
	}
	req := calls[0].Params
	if req.Agent != AgentCodex || req.SessionID != "thread-7" || req.Workdir != canon || len(req.Messages) != 2 ||
		req.Messages[0].Role != "user" || req.Messages[0].ID != "turn-1/in/0" || req.Messages[1].Role != "assistant" {
		t.Fatalf("request %+v", req)
	}
	if res, err := f.svc.Codex(t.Context(), p); err != nil || res.Status != StatusNothingNew || len(rec.got()) != 1 {
		t.Fatalf("again: %+v %v, %d calls", res, err, len(rec.got()))
	}
	// The next turn of the thread goes; one without a thread id is a session of its own.
	if res, err := f.svc.Codex(t.Context(), codexTurn(f, "turn-2", "CI runs on GitHub Actions.")); err != nil || res.Status != StatusForwarded {
		t.Fatalf("turn 2: %+v %v", res, err)
	}
	lone := codexTurn(f, "turn-3", "I prefer tabs.")
	lone.ThreadID, lone.Cwd = "", ""
	if res, err := f.svc.Codex(t.Context(), lone); err != nil || res.Status != StatusForwarded {
		t.Fatalf("no thread: %+v %v", res, err)
	}
	if calls := rec.got(); len(calls) != 3 || calls[2].Params.SessionID != "turn-turn-3" || calls[2].Params.Workdir != "" {
		t.Fatalf("calls %+v", calls)
	}
}

// With no Engram running the turn goes to a detached extraction; a notification of another
// kind, or a turn without a word of the person, hands nothing over; a bad payload is refused
// with the field named.
func TestCodexDetachedIgnoredAndRefused(t *testing.T) {
	f := newFixture(t)
	res, err := f.svc.Codex(t.Context(), codexTurn(f, "t-1", "Remember that staging is eu-west-1."))
	if err != nil || res.Status != StatusDetached || res.PID == 0 {
		t.Fatalf("%+v %v", res, err)
	}
	var rep childReport
	if err := json.Unmarshal(waitFile(t, f.childOut), &rep); err != nil || !strings.Contains(rep.Stdin, `"agent":"codex"`) ||
		!strings.Contains(rep.Stdin, "eu-west-1") {
		t.Fatalf("child saw %+v (%v)", rep, err)
	}
	if res, err := f.svc.Codex(t.Context(), CodexPayload{Type: "approval-requested", TurnID: "x"}); err != nil || res.Status != StatusNotATurn {
		t.Fatalf("other kind: %+v %v", res, err)
	}
	if res, err := f.svc.Codex(t.Context(), codexTurn(f, "t-2", "  ", "")); err != nil || res.Status != StatusNothingNew {
		t.Fatalf("no words: %+v %v", res, err)
	}
	for field, p := range map[string]CodexPayload{
		"turn-id":        {Type: CodexTurnComplete, InputMessages: []string{"hi there friend"}},
		"thread-id":      {Type: CodexTurnComplete, TurnID: "t", ThreadID: "a\x00b", InputMessages: []string{"hi there friend"}},
		"cwd":            {Type: CodexTurnComplete, TurnID: "t", Cwd: "relative/dir", InputMessages: []string{"hi there friend"}},
		"input-messages": {Type: CodexTurnComplete, TurnID: "t", InputMessages: []string{"caf\xe9"}},
	} {
		_, err := f.svc.Codex(t.Context(), p)
		var he *Error
		if err == nil || !errors.As(err, &he) || he.Code != CodeInvalidPayload || he.Args["Field"] != field {
			t.Errorf("%s: %v", field, err)
		}
	}
}

// Codex's own hooks: a UserPromptSubmit hook is learned as its turn (the prompt, in the
// hook's session), once; a Stop hook that names no rollout has nothing to read.
func TestCodexPromptSubmitHook(t *testing.T) {
	f := newFixture(t)
	rec := newRecorder(t)
	rec.publish(t, f.home)
	p := CodexPayload{HookEventName: CodexPromptSubmit, SessionID: "sess-9", HookTurnID: "turn-9", Cwd: f.workdir,
		Prompt: "Remember that I deploy with fly.io, never Heroku."}
	for run := 1; run <= 2; run++ {
		if _, err := f.svc.Codex(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	calls := rec.got()
	if len(calls) != 1 || calls[0].Params.Agent != AgentCodex || calls[0].Params.SessionID != "sess-9" || len(calls[0].Params.Messages) != 1 ||
		calls[0].Params.Messages[0].ID != "turn-9/in/0" {
		t.Fatalf("calls %+v", calls)
	}
	if res, err := f.svc.Codex(t.Context(), CodexPayload{HookEventName: "Stop", SessionID: "sess-9", HookTurnID: "turn-9"}); err != nil || res.Status != StatusNotATurn {
		t.Fatalf("stop: %+v %v", res, err)
	}
}

// A Codex Stop hook names the session's rollout: its new turns are read from it (the
// person's words without what Codex injects, the answer, the files patched) and handed over
// as the codex agent's, once; a second Stop after more of the session reads only the rest.
func TestCodexStopHookReadsRollout(t *testing.T) {
	f := newFixture(t)
	rec := newRecorder(t)
	rec.publish(t, f.home)
	rollout, err := os.ReadFile(filepath.Join("..", "transcript", "testdata", "codex-rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f.append(string(rollout))
	stop := CodexPayload{HookEventName: CodexStop, SessionID: "0199a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b", HookTurnID: "turn-1",
		Cwd: f.workdir, TranscriptPath: f.transcript}
	res, err := f.svc.Codex(t.Context(), stop)
	if err != nil || res.Status != StatusForwarded || res.PersonMessages != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	calls := rec.got()
	if len(calls) != 1 {
		t.Fatalf("calls %+v", calls)
	}
	req := calls[0].Params
	if req.Agent != AgentCodex || req.SessionID != stop.SessionID || len(req.Messages) != 2 ||
		!strings.Contains(req.Messages[0].Content, "always run tests with -race") || req.Messages[1].Role != "assistant" ||
		len(req.WorkspaceMutations) != 3 || strings.Contains(req.Messages[0].Content, "AGENTS.md") {
		t.Fatalf("request %+v", req)
	}
	if res, err := f.svc.Codex(t.Context(), stop); err != nil || res.Status != StatusNothingNew || len(rec.got()) != 1 {
		t.Fatalf("again: %+v %v", res, err)
	}
	f.append(`{"timestamp":"2026-11-30T09:20:00.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Deploys go through fly.io, not Heroku."}]}}` + "\n")
	if res, err := f.svc.Codex(t.Context(), stop); err != nil || res.Status != StatusForwarded || res.PersonMessages != 1 {
		t.Fatalf("next turn: %+v %v", res, err)
	}
	if calls := rec.got(); len(calls) != 2 || !strings.Contains(calls[1].Params.Messages[0].Content, "fly.io") {
		t.Fatalf("calls %+v", calls)
	}
	// A Stop the hook itself continued is left, as Claude Code's is.
	stop.StopHookActive = true
	if res, err := f.svc.Codex(t.Context(), stop); err != nil || res.Status != StatusStopHookActive {
		t.Fatalf("active: %+v %v", res, err)
	}
}
