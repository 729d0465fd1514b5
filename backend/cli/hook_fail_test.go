package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"engram/backend/api"
	"engram/backend/hook"
)

// runHookIn runs `engram hook ARGS` in this process on h's home (the CLI's real Env, with the
// home named for hook.log), the environment's language English.
func runHookIn(t *testing.T, h *home, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := h.env(&out, &errb)
	env.Home = h.dir
	env.Stdin = strings.NewReader(stdin)
	code = Run(context.Background(), append([]string{"hook"}, args...), env)
	return code, out.String(), errb.String()
}

// logLines is hook.log's lines.
func logLines(home string) []string {
	return strings.FieldsFunc(readLog(home), func(c rune) bool { return c == '\n' })
}

// Every failure of every hook is one translated line on stderr (Gemini shows it as a notice)
// and one line in hook.log, exit 0, in the home's language whatever the environment's: QA
// found Gemini's failures silent, Claude Code's field and transcript failures only in the log,
// and "json: cannot unmarshal number into Go struct field Payload.session_id of type string",
// "memory: workdir \"proj1\" must be…" or "no such file" in English in a Chinese home.
func TestHookFailuresAreOneTranslatedLine(t *testing.T) {
	h := newHome(t)
	transcript := filepath.Join(t.TempDir(), "s.jsonl")
	data, err := os.ReadFile("../transcript/testdata/sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(transcript, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, agent, in string
		en, zh          string
	}{
		{"gemini no session", "gemini", `{"hook_event_name":"AfterAgent","prompt":"I prefer Rust for CLI tools."}`,
			"(session_id): it is missing", "（session_id）：缺少该字段"},
		{"gemini relative cwd", "gemini", `{"session_id":"g","cwd":"rel","hook_event_name":"AfterAgent","prompt":"I prefer Rust for CLI tools."}`,
			"“rel” is not an absolute path", "“rel”不是绝对路径"},
		{"gemini wrong type", "gemini", `{"session_id":"g","prompt":42}`, "prompt must be text", "prompt 必须是文本"},
		{"claude not json", "claude-code", "xyz", "is not JSON (it goes wrong at byte 1)", "不是 JSON（在第 1 字节处出错）"},
		{"claude empty", "claude-code", "", "it is empty", "输入为空"},
		{"claude not an object", "claude-code", `["a"]`, "it is not a JSON object", "输入不是 JSON 对象"},
		{"claude wrong type", "claude-code", `{"session_id":5,"transcript_path":"/x"}`, "session_id must be text", "session_id 必须是文本"},
		{"claude missing transcript", "claude-code", payload("s", "/nope/gone.jsonl", "/tmp", false),
			"/nope/gone.jsonl could not be read: there is no such file or folder", "无法读取对话记录 /nope/gone.jsonl：没有这个文件或文件夹"},
		{"claude relative cwd", "claude-code", payload("s", transcript, "proj1", false),
			"(cwd): “proj1” is not an absolute path", "（cwd）：“proj1”不是绝对路径"},
		{"codex wrong list", "codex", `{"type":"agent-turn-complete","turn-id":"t","input-messages":"hello"}`,
			"input-messages must be a list of texts", "input-messages 必须是文本列表"},
		{"codex wrong flag", "codex", `{"hook_event_name":"Stop","stop_hook_active":"yes"}`,
			"stop_hook_active must be true or false", "stop_hook_active 必须是 true 或 false"},
		{"codex no turn", "codex", `{"type":"agent-turn-complete","input-messages":["hello there"]}`,
			"(turn-id): it is missing", "（turn-id）：缺少该字段"},
	}
	for _, lang := range []string{"en", "zh-CN"} {
		setLanguage(t, h, lang)
		for _, tc := range cases {
			t.Run(lang+"/"+tc.name, func(t *testing.T) {
				before := len(logLines(h.dir))
				code, stdout, stderr := runHookIn(t, h, tc.in, tc.agent)
				want, prefix := tc.en, "engram hook: "
				if lang == "zh-CN" {
					want, prefix = tc.zh, "engram hook："
				}
				if code != 0 || stdout != "" {
					t.Fatalf("exit %d stdout %q", code, stdout)
				}
				if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, prefix) || !strings.Contains(stderr, want) {
					t.Fatalf("stderr %q, want one line %q… holding %q", stderr, prefix, want)
				}
				for _, internal := range []string{"Go struct", "json:", "memory:", "unmarshal", "hook: hook", "no such file or directory"} {
					if strings.Contains(stderr, internal) {
						t.Fatalf("stderr %q holds %q", stderr, internal)
					}
				}
				lines := logLines(h.dir)
				if len(lines) != before+1 || !strings.Contains(lines[len(lines)-1], want) {
					t.Fatalf("hook.log gained %d lines, want 1 holding %q: %q", len(lines)-before, want, lines[before:])
				}
			})
		}
	}
}

// standInRerun puts a stand-in for the detached `engram hook AGENT` in place: it writes what it
// was given (stdin, then its arguments and its hook variables) to the returned file.
func standInRerun(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "rerun.txt")
	old := hookRerunCommand
	hookRerunCommand = func(agent string) ([]string, error) {
		return []string{"/bin/sh", "-c", `cat > "$0.tmp"; printf '\n%s %s %s' "$1" "$ENGRAM_HOOK_RERUN" "$ENGRAM_HOME" >> "$0.tmp"; mv "$0.tmp" "$0"`,
			out, agent}, nil
	}
	t.Cleanup(func() { hookRerunCommand = old })
	return out
}

// waitRerun waits for the stand-in's report.
func waitRerun(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the detached run never started")
	return ""
}

// A running Engram that hangs holds the home's open (its watcher never answers): the hook
// gives the turn to a detached run of itself at the deadline and returns within the bound,
// saying nothing on stderr (nothing went wrong, nothing is lost). QA measured 6 s: 3 s on the
// bridge's dial, then 3 s opening the home.
func TestHookHandsOffWhenTheHomeHangs(t *testing.T) {
	for _, agent := range []string{"claude-code", "codex", "gemini"} {
		t.Run(agent, func(t *testing.T) {
			out := standInRerun(t)
			h := newHome(t)
			release := make(chan struct{})
			defer close(release)
			var errb, stdout bytes.Buffer
			env := h.env(&stdout, &errb)
			env.Home = h.dir
			env.Open = func(ctx context.Context) (*api.API, func() error, error) {
				select { // the hung process's watcher: no answer until long past the bound
				case <-release:
				case <-time.After(8 * time.Second):
				}
				return nil, nil, errors.New("memory: the watching process did not answer")
			}
			in := `{"session_id":"s-hang","transcript_path":"/tmp/t.jsonl","hook_event_name":"AfterAgent","prompt":"I use uv."}`
			args := []string{"hook", agent}
			switch agent {
			case "claude-code":
				in = payload("s-hang", "/tmp/t.jsonl", "/tmp", false)
			case "codex":
				in = codexNotification("turn-h", "/tmp", "I use uv, not pip.")
				args = append(args, in) // notify: the payload is the last argument
			}
			env.Stdin = strings.NewReader(in)
			start := time.Now()
			code := Run(context.Background(), args, env)
			// The hook gave up on the hung home instead of waiting for it (the home answers
			// only after 8 s): a behaviour, not a speed — on a loaded machine the hand-off
			// itself may pass the 3 s bound by a little.
			if took := time.Since(start); took >= 8*time.Second {
				t.Fatalf("the agent waited %v for the hung home (bound %v)", took, hookBound)
			}
			if code != 0 || stdout.Len() != 0 || errb.Len() != 0 {
				t.Fatalf("exit %d stdout %q stderr %q", code, stdout.String(), errb.String())
			}
			got := waitRerun(t, out)
			if want := in + "\n" + agent + " 1 " + h.dir; got != want {
				t.Fatalf("the detached run got %q, want %q", got, want)
			}
			if log := readLog(h.dir); !strings.Contains(log, "went to a run in the background (process ") {
				t.Fatalf("hook.log %q", log)
			}
			if left, _ := filepath.Glob(filepath.Join(h.dir, "hook-payload-*")); len(left) != 0 {
				t.Fatalf("the spooled payload stayed: %v", left)
			}
		})
	}
}

// The hook service answers hook_deferred when the deadline passed before it claimed the turn
// (it kept nothing): the CLI hands the payload to the detached run then, and says nothing.
func TestHookDeferredHandsOff(t *testing.T) {
	if hookCodeDeferred != hook.CodeDeferred {
		t.Fatalf("hookCodeDeferred %q, hook.CodeDeferred %q", hookCodeDeferred, hook.CodeDeferred)
	}
	out := standInRerun(t)
	h := newHome(t)
	var errb bytes.Buffer
	r := &runner{env: Env{Stderr: &errb, Catalog: h.cat, Home: h.dir}, lang: "en"}
	run := &hookRun{r: r, agent: "gemini", payload: []byte(`{"session_id":"g"}`), start: time.Now()}
	closed := false
	run.finish(context.Background(), hookOutcome{err: &api.Error{Code: hook.CodeDeferred, Message: "time ran out"},
		close: func() error { closed = true; return nil }})
	if got := waitRerun(t, out); got != `{"session_id":"g"}`+"\ngemini 1 "+h.dir {
		t.Fatalf("the detached run got %q", got)
	}
	if errb.Len() != 0 || !closed {
		t.Fatalf("stderr %q, closed %v", errb.String(), closed)
	}
	// The detached run itself never hands over again: with no deadline a deferral cannot come,
	// and if one did it is a failure for hook.log, not a loop.
	os.Remove(out)
	run.rerun = true
	run.finish(context.Background(), hookOutcome{err: &api.Error{Code: hook.CodeDeferred, Message: "time ran out"}})
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Stat(out); !os.IsNotExist(err) || errb.Len() != 0 {
		t.Fatalf("the detached run handed over again (%v) or spoke on stderr %q", err, errb.String())
	}
}

// A panic while the hook works is one line on stderr (exit 0: Go's own exit 2 would block the
// agent's turn), its stack in hook.log alone.
func TestHookPanicIsOneLine(t *testing.T) {
	h := newHome(t)
	var errb, stdout bytes.Buffer
	env := h.env(&stdout, &errb)
	env.Home = h.dir
	env.Open = func(context.Context) (*api.API, func() error, error) { panic("boom") }
	env.Stdin = strings.NewReader(payload("s", "/tmp/t.jsonl", "/tmp", false))
	if code := Run(context.Background(), []string{"hook", "claude-code"}, env); code != 0 || stdout.Len() != 0 {
		t.Fatalf("exit %d stdout %q", code, stdout.String())
	}
	if got := errb.String(); got != "engram hook: an internal error stopped the hook: boom\n" {
		t.Fatalf("stderr %q", got)
	}
	if log := readLog(h.dir); !strings.Contains(log, "an internal error stopped the hook: boom\n") || !strings.Contains(log, "goroutine") {
		t.Fatalf("hook.log %q", log)
	}
}

// A payload's session id and transcript path are the agent's (or anyone's who writes the
// payload): a newline or an escape code in them stayed raw in hook.log, so one hook run forged
// a second, well-formed log line and could drive the terminal of whoever tails the log. Each
// run leaves one line, its control characters escaped.
func TestHookLogLinesCannotBeForged(t *testing.T) {
	h := newHome(t)
	for _, in := range []string{
		`{"session_id":"s1\n2026-01-01T00:00:00Z claude-code session forged: done","transcript_path":"/nope/a.jsonl","cwd":"/tmp","hook_event_name":"Stop"}`,
		`{"session_id":"s2","transcript_path":"/nope/x\n2026-01-01T00:00:00Z forged\u001b[2J.jsonl","cwd":"/tmp","hook_event_name":"Stop"}`,
	} {
		before := len(logLines(h.dir))
		if code, _, _ := runHookIn(t, h, in, "claude-code"); code != 0 {
			t.Fatalf("exit %d", code)
		}
		lines := logLines(h.dir)
		if len(lines) != before+1 {
			t.Fatalf("one run left %d lines: %q", len(lines)-before, lines[before:])
		}
		if last := lines[len(lines)-1]; strings.ContainsRune(last, '\x1b') || !strings.Contains(last, `\n2026-01-01`) {
			t.Fatalf("log line %q: want the control characters escaped", last)
		}
	}
}
