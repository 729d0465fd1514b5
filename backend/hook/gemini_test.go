package hook

import (
	"errors"
	"path/filepath"
	"testing"
)

// A Gemini CLI turn (its AfterAgent hook's request and answer) reaches the running Engram once
// as the gemini agent's, in its session and project; a retry turn, another event, or a turn
// without a request hands nothing over; a bad session id is refused with the field named.
func TestGeminiTurn(t *testing.T) {
	f := newFixture(t)
	rec := newRecorder(t)
	rec.publish(t, f.home)
	p := GeminiPayload{SessionID: "g-1", Cwd: f.workdir, HookEventName: GeminiAfterAgent, Timestamp: "2026-12-05T10:00:00Z",
		Prompt: "From now on, write commit messages in the imperative mood.", PromptResponse: "Understood."}
	res, err := f.svc.Gemini(t.Context(), p)
	if err != nil || res.Status != StatusForwarded || res.Messages != 2 || res.PersonMessages != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	canon, _ := filepath.EvalSymlinks(f.workdir)
	calls := rec.got()
	if len(calls) != 1 || calls[0].Params.Agent != AgentGemini || calls[0].Params.SessionID != "g-1" || calls[0].Params.Workdir != canon ||
		calls[0].Params.Messages[0].Role != "user" || calls[0].Params.Messages[1].Role != "assistant" {
		t.Fatalf("calls %+v", calls)
	}
	p.Timestamp = "2026-12-05T10:00:05Z" // the same turn delivered again
	if res, err := f.svc.Gemini(t.Context(), p); err != nil || res.Status != StatusNothingNew || len(rec.got()) != 1 {
		t.Fatalf("again: %+v %v", res, err)
	}
	for name, q := range map[string]GeminiPayload{
		StatusStopHookActive: {SessionID: "g-1", Prompt: "retry", StopHookActive: true},
		StatusNotATurn:       {SessionID: "g-1", HookEventName: "BeforeTool", Prompt: "x"},
		StatusNothingNew:     {SessionID: "g-1", HookEventName: GeminiAfterAgent, Prompt: "   ", PromptResponse: "Hello"},
	} {
		if res, err := f.svc.Gemini(t.Context(), q); err != nil || res.Status != name {
			t.Errorf("%s: %+v %v", name, res, err)
		}
	}
	if len(rec.got()) != 1 {
		t.Fatalf("calls %+v", rec.got())
	}
	for field, q := range map[string]GeminiPayload{
		"session_id": {SessionID: "", Prompt: "hello there"},
		"cwd":        {SessionID: "g", Cwd: "rel", Prompt: "hello there"},
		"prompt":     {SessionID: "g", Prompt: "caf\xe9"},
	} {
		_, err := f.svc.Gemini(t.Context(), q)
		var he *Error
		if !errors.As(err, &he) || he.Code != CodeInvalidPayload || he.Args["Field"] != field {
			t.Errorf("%s: %v", field, err)
		}
	}
}
