package hook

import (
	"context"
	"maps"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"engram/backend/coded"
	"engram/backend/i18n"
)

// translate renders err as the api does for lang: its code's message, with Detail in words
// when DetailKey names a catalog key.
func translate(t *testing.T, cat *i18n.Catalog, lang string, err error) string {
	t.Helper()
	c, ok := coded.As(err)
	if !ok {
		t.Fatalf("not a coded error: %v", err)
	}
	args := maps.Clone(c.ErrorArgs())
	key, _ := args["DetailKey"].(string)
	if key == "" || !cat.Has(key) {
		t.Fatalf("%v: no translated reason (DetailKey %q)", err, key)
	}
	args["Detail"] = cat.T(lang, key, args)
	return cat.T(lang, "error."+c.ErrorCode(), args)
}

// Every refusal of a hook's payload or transcript names the field and says what it must be in
// the person's language: QA found "memory: workdir \"proj1\" must be…" and "no such file" in
// English inside Chinese messages.
func TestRefusalsSayTheFieldInWords(t *testing.T) {
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	f.append(sample(t))
	dir := t.TempDir()
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(f.transcript, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		call   func() error
		en, zh string
	}{
		{"claude no session", func() error {
			_, err := f.svc.ClaudeCode(t.Context(), Payload{TranscriptPath: f.transcript})
			return err
		},
			"(session_id): it is missing", "（session_id）：缺少该字段"},
		{"claude bad session", func() error {
			_, err := f.svc.ClaudeCode(t.Context(), Payload{SessionID: "a\x00b", TranscriptPath: f.transcript})
			return err
		}, "(session_id): it must be printable text", "（session_id）：必须是不超过"},
		{"claude relative transcript", func() error {
			_, err := f.svc.ClaudeCode(t.Context(), Payload{SessionID: "s", TranscriptPath: "t.jsonl"})
			return err
		}, "“t.jsonl” is not an absolute path", "“t.jsonl”不是绝对路径"},
		{"claude missing transcript", func() error {
			_, err := f.svc.ClaudeCode(t.Context(), Payload{SessionID: "s", TranscriptPath: "/nope"})
			return err
		}, "/nope could not be read: there is no such file or folder", "无法读取对话记录 /nope：没有这个文件或文件夹"},
		{"claude folder", func() error {
			_, err := f.svc.ClaudeCode(t.Context(), Payload{SessionID: "s", TranscriptPath: dir})
			return err
		},
			"it is a folder, not a file", "文件夹"},
		{"claude link", func() error {
			_, err := f.svc.ClaudeCode(t.Context(), Payload{SessionID: "s", TranscriptPath: link})
			return err
		},
			"it is not a regular file", "它不是普通文件"},
		{"claude relative cwd", func() error {
			_, err := f.svc.ClaudeCode(t.Context(), Payload{SessionID: "s", TranscriptPath: f.transcript, Cwd: "proj1"})
			return err
		}, "(cwd): “proj1” is not an absolute path", "（cwd）：“proj1”不是绝对路径"},
		{"gemini no session", func() error { _, err := f.svc.Gemini(t.Context(), GeminiPayload{Prompt: "I prefer Rust."}); return err },
			"(session_id): it is missing", "（session_id）：缺少该字段"},
		{"gemini relative cwd", func() error {
			_, err := f.svc.Gemini(t.Context(), GeminiPayload{SessionID: "g", Cwd: "rel", Prompt: "I prefer Rust."})
			return err
		}, "(cwd): “rel” is not an absolute path", "（cwd）：“rel”不是绝对路径"},
		{"gemini not utf-8", func() error {
			_, err := f.svc.Gemini(t.Context(), GeminiPayload{SessionID: "g", Prompt: "caf\xe9"})
			return err
		},
			"(prompt): it is not UTF-8 text", "（prompt）：它不是 UTF-8 文本"},
		{"codex no turn", func() error {
			_, err := f.svc.Codex(t.Context(), CodexPayload{Type: CodexTurnComplete, InputMessages: []string{"hi there"}})
			return err
		}, "(turn-id): it is missing", "（turn-id）：缺少该字段"},
		{"codex prompt hook no turn", func() error {
			_, err := f.svc.Codex(t.Context(), CodexPayload{HookEventName: CodexPromptSubmit, SessionID: "s", Prompt: "hi there"})
			return err
		}, "(turn_id): it is missing", "（turn_id）：缺少该字段"},
		{"codex thread too long", func() error {
			_, err := f.svc.Codex(t.Context(), CodexPayload{Type: CodexTurnComplete, TurnID: strings.Repeat("t", 300), InputMessages: []string{"hi"}})
			return err
		}, "(turn-id): it must be printable text of at most", "（turn-id）：必须是不超过"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if en := translate(t, cat, "en", err); !strings.Contains(en, tc.en) {
				t.Errorf("en: %q, want %q", en, tc.en)
			}
			zh := translate(t, cat, "zh-CN", err)
			if !strings.Contains(zh, tc.zh) {
				t.Errorf("zh-CN: %q, want %q", zh, tc.zh)
			}
			for _, english := range []string{"missing", "printable", "absolute", "no such", "memory:", "regular", "directory"} {
				if strings.Contains(zh, english) {
					t.Errorf("zh-CN: %q holds the English %q", zh, english)
				}
			}
		})
	}
}

// A hook whose deadline (the agent's) passed before it claimed the turn keeps nothing and says
// so (CodeDeferred), so `engram hook` can hand the turn to a run with time: the next run with
// time learns it whole, once.
func TestDeadlineBeforeTheClaimKeepsNothing(t *testing.T) {
	f := newFixture(t)
	rec := newRecorder(t)
	rec.publish(t, f.home)
	f.append(sample(t))
	late, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel()
	if _, err := f.svc.ClaudeCode(late, f.payload()); codeOf(err) != CodeDeferred {
		t.Fatalf("claude-code past the deadline: %v", err)
	}
	g := GeminiPayload{SessionID: "g-1", HookEventName: GeminiAfterAgent, Prompt: "I always use tabs, never spaces."}
	if _, err := f.svc.Gemini(late, g); codeOf(err) != CodeDeferred {
		t.Fatalf("gemini past the deadline: %v", err)
	}
	if calls := rec.got(); len(calls) != 0 {
		t.Fatalf("handed over past the deadline: %+v", calls)
	}
	if res, err := f.run(); err != nil || res.Status != StatusForwarded || res.PersonMessages != 1 {
		t.Fatalf("claude-code with time: %+v %v", res, err)
	}
	if res, err := f.svc.Gemini(t.Context(), g); err != nil || res.Status != StatusForwarded {
		t.Fatalf("gemini with time: %+v %v", res, err)
	}
	if calls := rec.got(); len(calls) != 2 {
		t.Fatalf("calls %+v", calls)
	}
}

// A running Engram that hangs (SIGSTOP: the kernel still accepts its connections, nobody
// answers) costs the hand-over no more than what is left of the caller's deadline, not the
// bridge's own 3 s: the turn goes to a detached extraction at the deadline.
func TestDeadlineBoundsAHungBridge(t *testing.T) {
	f := newFixture(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close() // never accepted: the handshake completes in the backlog, then silence
	if err := WriteDiscovery(f.home, Discovery{URL: "http://" + ln.Addr().String(), PID: os.Getpid()}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.home, TokenFile), []byte("tok-0123456789abcdef0123456789abcdef\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.append(sample(t))
	ctx, cancel := context.WithTimeout(t.Context(), 400*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := f.svc.ClaudeCode(ctx, f.payload())
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the hand-over took %v past a 400 ms deadline", took)
	}
	if err != nil || res.Status != StatusDetached || res.PID == 0 || res.BridgeError == "" {
		t.Fatalf("%+v %v", res, err)
	}
	waitFile(t, f.childOut)
}
