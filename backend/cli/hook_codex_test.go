package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func codexNotification(turn, cwd string, inputs ...string) string {
	b, _ := json.Marshal(map[string]any{"type": "agent-turn-complete", "thread-id": "th-1", "turn-id": turn, "cwd": cwd,
		"input-messages": inputs, "last-assistant-message": "Done."})
	return string(b)
}

// `engram hook codex '<json>'`, as Codex's notify runs it, never fails Codex and prints
// nothing; with a bridge published it hands the turn over once however often it is run, and a
// notification of another kind does not even open the home.
func TestCodexHookForwardsOnce(t *testing.T) {
	home := t.TempDir()
	rec := newBridgeRecorder(t, home)
	n := codexNotification("turn-a", t.TempDir(), "I use uv, not pip, for Python projects.")
	for run := 1; run <= 2; run++ {
		if code, stdout, stderr := runHook(t, home, "", "hook", "codex", n); code != 0 || stdout != "" {
			t.Fatalf("run %d: exit %d stdout %q stderr %q", run, code, stdout, stderr)
		}
	}
	rec.forwardedOnce(t, home, "codex", "th-1", 2)
	if log := readLog(home); !strings.Contains(log, "codex turn turn-a: forwarded, 2 messages") || !strings.Contains(log, "nothing_new") {
		t.Fatalf("hook.log %s", log)
	}
	// Codex's own UserPromptSubmit hook, its payload on stdin, is learned too.
	hookIn := `{"hook_event_name":"UserPromptSubmit","session_id":"s-2","turn_id":"t-2","cwd":"/tmp","model":"gpt-5","permission_mode":"default","transcript_path":null,"prompt":"I prefer pnpm over npm."}`
	if code, stdout, _ := runHook(t, home, hookIn, "hook", "codex"); code != 0 || stdout != "" {
		t.Fatalf("prompt hook: exit %d stdout %q", code, stdout)
	}
	if calls := rec.got(); len(calls) != 2 {
		t.Fatalf("the prompt hook was not handed over: %v\nlog %s", calls, readLog(home))
	}
	// Its Stop hook names the session's rollout, whose new turns are read and handed over.
	rollout, err := os.ReadFile(filepath.Join("..", "transcript", "testdata", "codex-rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rpath := filepath.Join(t.TempDir(), "rollout-2026-11-30T09-12-01-s3.jsonl")
	if err := os.WriteFile(rpath, rollout, 0o600); err != nil {
		t.Fatal(err)
	}
	stopIn := `{"hook_event_name":"Stop","session_id":"s-3","turn_id":"t-3","cwd":"/tmp","model":"gpt-5","transcript_path":` +
		strconv.Quote(rpath) + `,"stop_hook_active":false,"last_assistant_message":"Ran with -race: passes."}`
	if code, stdout, _ := runHook(t, home, stopIn, "hook", "codex"); code != 0 || stdout != "" {
		t.Fatalf("stop hook: exit %d stdout %q", code, stdout)
	}
	calls := rec.got()
	if len(calls) != 3 {
		t.Fatalf("the stop hook's rollout was not handed over: %v\nlog %s", calls, readLog(home))
	}
	if params, _ := calls[2]["params"].(map[string]any); params["session_id"] != "s-3" || params["agent"] != "codex" ||
		len(params["workspace_mutations"].([]any)) != 3 {
		t.Fatalf("stop hook params %v", params)
	}
	other := t.TempDir()
	for _, tc := range []struct{ name, arg, log string }{
		{"another notification", `{"type":"approval-requested","turn-id":"x"}`, ""},
		{"not JSON", `{"type":`, "not the JSON the agent sends"},
		{"no turn id", `{"type":"agent-turn-complete","input-messages":["hello there"]}`, "turn-id"},
	} {
		os.Remove(filepath.Join(other, "hook.log"))
		if code, stdout, _ := runHook(t, other, "", "hook", "codex", tc.arg); code != 0 || stdout != "" {
			t.Fatalf("%s: exit %d stdout %q", tc.name, code, stdout)
		}
		if log := readLog(other); tc.log == "" && log != "" || !strings.Contains(log, tc.log) {
			t.Fatalf("%s: hook.log %q", tc.name, log)
		}
	}
	if _, err := os.Stat(filepath.Join(other, "memory", "index.sqlite3")); err == nil && readLog(other) == "" {
		t.Fatal("a notification of another kind opened the home")
	}
}

// With no Engram running, a Codex turn is extracted by a detached `engram extract` into the
// project Codex worked in (the offline extractor, unreviewed); the payload may also come on
// stdin.
func TestCodexHookExtracts(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	n := codexNotification("turn-b", cwd, "Remember for this project: the staging database is called kestrel.")
	if code, stdout, _ := runHook(t, home, n, "hook", "codex"); code != 0 || stdout != "" {
		t.Fatalf("exit %d stdout %q", code, stdout)
	}
	deadline := time.Now().Add(90 * time.Second)
	for {
		_, out, _ := runHook(t, home, "", "list", "--json", "--scope", "project", "--workdir", cwd)
		if strings.Contains(out, "kestrel") && strings.Contains(out, `"reviewed": false`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no project memory: %s\nhook.log %s", out, readLog(home))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// `engram hook gemini`, Gemini CLI's AfterAgent hook: the turn on stdin is handed over once,
// with nothing on stdout or stderr (Gemini reads either as the hook's answer) and exit 0; a
// retry turn or another event does not open the home.
func TestGeminiHookForwardsOnce(t *testing.T) {
	home := t.TempDir()
	rec := newBridgeRecorder(t, home)
	b, _ := json.Marshal(map[string]any{"session_id": "g-7", "transcript_path": "/tmp/g.json", "cwd": t.TempDir(),
		"hook_event_name": "AfterAgent", "timestamp": "2026-12-05T10:00:00Z", "prompt": "Always answer me in British English.",
		"prompt_response": "Will do.", "stop_hook_active": false})
	for run := 1; run <= 2; run++ {
		if code, stdout, stderr := runHook(t, home, string(b), "hook", "gemini"); code != 0 || stdout != "" || stderr != "" {
			t.Fatalf("run %d: exit %d stdout %q stderr %q", run, code, stdout, stderr)
		}
	}
	rec.forwardedOnce(t, home, "gemini", "g-7", 2)
	other := t.TempDir()
	for _, in := range []string{`{"session_id":"g","hook_event_name":"BeforeTool"}`, `{"session_id":"g","prompt":"x","stop_hook_active":true}`} {
		if code, stdout, _ := runHook(t, other, in, "hook", "gemini"); code != 0 || stdout != "" {
			t.Fatalf("%s: exit %d stdout %q", in, code, stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(other, "memory", "index.sqlite3")); err == nil {
		t.Fatal("a retry or another event opened the home")
	}
}
