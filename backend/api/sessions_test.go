package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/extraction"
	"engram/backend/hook"
	"engram/backend/memory"
)

func TestSessionsOverTheTable(t *testing.T) {
	a := newAPI(t, ActorUser)
	var disposed []string
	a.deps.OnSessionDeleted = func(agent, id string) { disposed = append(disposed, agent+"/"+id) }
	wd := t.TempDir()
	rec, err := a.RecordTurns(extraction.Request{SessionID: "s1", Agent: "claude-code", Workdir: wd, Messages: []extraction.Message{
		{Role: "user", Content: "I use pytest -q", ID: "u1"}, {Role: "assistant", Content: "Noted", ID: "a1"}}})
	if err != nil || len(rec.Seqs) != 2 || rec.Seqs[1] != 2 {
		t.Fatalf("record %+v %v", rec, err)
	}
	// Delivered twice (a retried hook, a repeated observe_turn): stored once.
	if rec, _ = a.RecordTurns(extraction.Request{SessionID: "s1", Agent: "claude-code", Workdir: wd,
		Messages: []extraction.Message{{Role: "user", Content: "I use pytest -q", ID: "u1"}}}); rec.Seqs[0] != 0 || rec.Session.TurnsReceived != 2 {
		t.Fatalf("duplicate recorded %+v", rec)
	}
	res, err := a.Call("sessions.list", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	list := res.(SessionList)
	if len(list.Sessions) != 1 || list.Sessions[0].TurnsReceived != 2 || list.Sessions[0].Agent != "claude-code" {
		t.Fatalf("list %+v", list)
	}
	res, err = a.Call("sessions.read", json.RawMessage(`{"id":"s1"}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := res.(SessionDetail); len(d.Turns) != 2 || d.Turns[0].Content != "I use pytest -q" {
		t.Fatalf("read %+v", d)
	}
	if _, err := a.Call("sessions.delete", json.RawMessage(`{"id":"s1"}`)); err != nil {
		t.Fatal(err)
	}
	if strings.Join(disposed, ",") != "claude-code/s1" {
		t.Fatalf("disposed %v", disposed)
	}
	_, err = a.Call("sessions.read", json.RawMessage(`{"id":"s1"}`))
	var ae *Error
	if !asError(err, &ae) || ae.Code != memory.CodeSessionNotFound || !strings.Contains(ae.Message, "s1") {
		t.Fatalf("read after delete: %v", err)
	}
	// Refused input is translated and records nothing.
	_, err = a.RecordTurns(extraction.Request{SessionID: "", Agent: "claude-code"})
	if !asError(err, &ae) || ae.Code != memory.CodeInvalidSession || ae.I18nKey != "error.invalid_session" {
		t.Fatalf("bad record: %v", err)
	}
	if m, ok := a.Lookup("sessions.delete"); !ok || !m.Destructive {
		t.Fatal("sessions.delete must be marked destructive")
	}
}

func asError(err error, out **Error) bool {
	e, ok := err.(*Error)
	*out = e
	return ok
}

// The hook reads a file its params name: only the person's own processes may run it.
func TestHookIsPersonOnly(t *testing.T) {
	for _, actor := range []string{ActorBridge, ActorTool} {
		a := newAPI(t, actor)
		_, err := a.Call("hook.claudeCode", json.RawMessage(`{"session_id":"s","transcript_path":"/etc/passwd"}`))
		var ae *Error
		if !asError(err, &ae) || ae.Code != CodeHookPersonOnly {
			t.Fatalf("%s: %v", actor, err)
		}
		// Codex's turn is handed to extraction as the person's agent: not a remote's or a model's.
		_, err = a.Call("hook.codex", json.RawMessage(`{"type":"agent-turn-complete","turn-id":"t","input-messages":["I like tea"]}`))
		if !asError(err, &ae) || ae.Code != CodeHookPersonOnly {
			t.Fatalf("%s codex: %v", actor, err)
		}
		_, err = a.Call("hook.gemini", json.RawMessage(`{"session_id":"g","hook_event_name":"AfterAgent","prompt":"I like tea"}`))
		if !asError(err, &ae) || ae.Code != CodeHookPersonOnly {
			t.Fatalf("%s gemini: %v", actor, err)
		}
	}
	a := newAPI(t, ActorUser)
	if _, err := a.Hook.ClaudeCode(hook.Payload{SessionID: "s", TranscriptPath: "/x"}); err == nil || !strings.Contains(err.Error(), CodeHookUnavailable) {
		t.Fatalf("no hook service: %v", err)
	}
	// With a service, a failing run is translated and logged in the home's hook.log.
	home := a.deps.Store.Home()
	a.deps.Hook = hook.New(hook.Options{Store: a.deps.Store, Home: home})
	_, err := a.Hook.ClaudeCode(hook.Payload{SessionID: "s", TranscriptPath: filepath.Join(home, "missing.jsonl")})
	var ae *Error
	if !asError(err, &ae) || ae.Code != hook.CodeTranscript || !strings.Contains(ae.Message, "missing.jsonl") {
		t.Fatalf("missing transcript: %v", err)
	}
	log, _ := os.ReadFile(filepath.Join(home, hook.LogFile))
	if !strings.Contains(string(log), "missing.jsonl") {
		t.Fatalf("hook.log: %q", log)
	}
}

// A model sees its own past messages through include_history, never every session.
func TestSessionsRefuseModels(t *testing.T) {
	a := newAPI(t, ActorTool)
	for m, params := range map[string]string{"sessions.list": `{}`, "sessions.read": `{"id":"s"}`, "sessions.delete": `{"id":"s"}`} {
		_, err := a.Call(m, json.RawMessage(params))
		var ae *Error
		if !asError(err, &ae) || ae.Code != CodeSessionsPersonOnly {
			t.Fatalf("%s: %v", m, err)
		}
	}
	b := newAPI(t, ActorBridge)
	if _, err := b.Call("sessions.list", nil); err != nil {
		t.Fatalf("the browser UI lists sessions: %v", err)
	}
}
