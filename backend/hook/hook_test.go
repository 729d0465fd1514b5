package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"engram/backend/coded"
	"engram/backend/extraction"
	"engram/backend/transcript"
)

func sample(t *testing.T) string {
	data, err := os.ReadFile("../transcript/testdata/sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func userLine(uuid, text string) string {
	b, _ := json.Marshal(map[string]any{"type": "user", "uuid": uuid, "sessionId": "sess-1",
		"message": map[string]any{"role": "user", "content": text}})
	return string(b) + "\n"
}

func assistantLine(uuid, text string) string {
	b, _ := json.Marshal(map[string]any{"type": "assistant", "uuid": uuid,
		"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}}})
	return string(b) + "\n"
}

func codeOf(err error) string {
	if c, ok := coded.As(err); ok {
		return c.ErrorCode()
	}
	return ""
}

func TestStopHookActiveDoesNothing(t *testing.T) {
	f := newFixture(t)
	p := Payload{StopHookActive: true} // nothing else needed, nothing read
	res, err := f.svc.ClaudeCode(t.Context(), p)
	if err != nil || res.Status != StatusStopHookActive {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestForwardToBridgeThenDedupe(t *testing.T) {
	f := newFixture(t)
	rec := newRecorder(t)
	rec.publish(t, f.home)
	f.append(sample(t))
	res, err := f.run()
	if err != nil || res.Status != StatusForwarded || res.Messages != 3 || res.PersonMessages != 1 {
		t.Fatalf("first run %+v %v", res, err)
	}
	calls := rec.got()
	if len(calls) != 1 || calls[0].Method != MethodExtractionRequest || calls[0].Auth != "Bearer tok-0123456789abcdef0123456789abcdef" {
		t.Fatalf("calls %+v", calls)
	}
	req := calls[0].Params
	canon, _ := filepath.EvalSymlinks(f.workdir)
	if req.SessionID != "sess-1" || req.Agent != AgentClaudeCode || req.Workdir != canon || len(req.Messages) != 3 {
		t.Fatalf("request %+v", req)
	}
	if m := req.Messages[0]; m.Role != "user" || m.ID != "0b7c2f3e-5a1d-4c2e-9f00-000000000002" || !strings.HasPrefix(m.Content, "Add pytest") {
		t.Fatalf("person message %+v", m)
	}
	if len(req.WorkspaceMutations) != 1 || req.WorkspaceMutations[0] != (extraction.Mutation{Tool: "Write", Path: "/home/dev/src/billing/pytest.ini", Kind: "write"}) {
		t.Fatalf("mutations %+v", req.WorkspaceMutations)
	}
	// The same transcript again: nothing new, nothing sent.
	res, err = f.run()
	if err != nil || res.Status != StatusNothingNew || len(rec.got()) != 1 {
		t.Fatalf("second run %+v %v, %d calls", res, err, len(rec.got()))
	}
	// A new turn (and a line still being written): only the new turn goes.
	f.append(userLine("u-2", "Also remember that CI runs on GitHub Actions."), assistantLine("a-2", "Noted."),
		`{"type":"user","uuid":"u-3","message":{"role":"user","content":"half a li`)
	res, err = f.run()
	calls = rec.got()
	if err != nil || res.Status != StatusForwarded || !res.Partial || len(calls) != 2 || len(calls[1].Params.Messages) != 2 ||
		calls[1].Params.Messages[0].ID != "u-2" {
		t.Fatalf("third run %+v %v, calls %+v", res, err, calls)
	}
	// The partial line, once complete, is read next time.
	f.append("ne\"}}\n")
	res, err = f.run()
	calls = rec.got()
	if err != nil || res.Status != StatusForwarded || len(calls) != 3 || calls[2].Params.Messages[0].Content != "half a line" {
		t.Fatalf("fourth run %+v %v, calls %+v", res, err, calls)
	}
}

// A transcript replaced by another file (shorter, rewritten) is read whole again; the turns
// already forwarded are still not sent twice.
func TestRewrittenTranscript(t *testing.T) {
	f := newFixture(t)
	rec := newRecorder(t)
	rec.publish(t, f.home)
	f.append(sample(t), userLine("u-2", "Deploys go through ArgoCD."))
	if res, err := f.run(); err != nil || res.Status != StatusForwarded || res.PersonMessages != 2 {
		t.Fatalf("first %+v %v", res, err)
	}
	if err := os.WriteFile(f.transcript, []byte(userLine("u-2", "Deploys go through ArgoCD.")+userLine("u-3", "New after the rewrite.")), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := f.run()
	calls := rec.got()
	if err != nil || res.Status != StatusForwarded || len(calls) != 2 || len(calls[1].Params.Messages) != 1 || calls[1].Params.Messages[0].ID != "u-3" {
		t.Fatalf("after rewrite %+v %v %+v", res, err, calls)
	}
}

// The first run on a long session reads only its end: the newest turns are what a request
// carries, and megabytes of history must not hold the agent up.
func TestFirstReadOfALongTranscriptReadsItsEnd(t *testing.T) {
	f := newFixture(t)
	rec := newRecorder(t)
	rec.publish(t, f.home)
	var b strings.Builder
	b.WriteString(userLine("early", "The very first message."))
	filler := strings.Repeat("x", 4000)
	for i := 0; b.Len() < FirstReadBytes+(1<<20); i++ {
		b.WriteString(assistantLine(fmt.Sprintf("a-%d", i), filler))
	}
	b.WriteString(userLine("last", "The newest message."))
	f.append(b.String())
	res, err := f.run()
	calls := rec.got()
	if err != nil || res.Status != StatusForwarded || len(calls) != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	msgs := calls[0].Params.Messages
	if len(msgs) != 1 || msgs[0].ID != "last" {
		t.Fatalf("forwarded %d messages, first %+v", len(msgs), msgs[0])
	}
}

// TestFirstReadKeepsALongLastMessage: the first read of a transcript whose last message is
// longer than the tail it reads (a pasted log, the request at its end) hands that message on,
// head and tail with the cut marked; a line over the reader's bound there is counted as
// dropped, for hook.log. The trigger: the read began after the message and nothing said so.
func TestFirstReadKeepsALongLastMessage(t *testing.T) {
	ask := "Remember that I prefer kebab-case for URL paths."
	cases := []struct {
		name      string
		text      string
		forwarded bool
		oversized int
	}{
		{"a 3 MiB message", strings.Repeat("log line 0123456789\n", 3<<20/20) + ask, true, 0},
		{"a 5 MiB message", strings.Repeat("log line 0123456789\n", 5<<20/20) + ask, false, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			rec := newRecorder(t)
			rec.publish(t, f.home)
			f.append(userLine("early", "The very first message."), assistantLine("a-0", "Hello."), userLine("last", c.text))
			res, err := f.run()
			if err != nil || res.Oversized != c.oversized {
				t.Fatalf("%+v %v, want %d oversized", res, err, c.oversized)
			}
			calls := rec.got()
			if !c.forwarded {
				if len(calls) != 0 || res.Status != StatusNothingNew {
					t.Fatalf("%+v, %d calls", res, len(calls))
				}
				return
			}
			if len(calls) != 1 {
				t.Fatalf("%+v: %d calls", res, len(calls))
			}
			msgs := calls[0].Params.Messages
			last := msgs[len(msgs)-1]
			if last.ID != "last" || !strings.HasSuffix(last.Content, ask) || !strings.Contains(last.Content, transcript.CutMark) {
				t.Fatalf("forwarded %d messages, last %s ending %q", len(msgs), last.ID, last.Content[max(0, len(last.Content)-80):])
			}
		})
	}
}

func TestDetachWhenNoBridge(t *testing.T) {
	f := newFixture(t)
	f.append(sample(t))
	res, err := f.run()
	if err != nil || res.Status != StatusDetached || res.PID == 0 || res.BridgeError != "" {
		t.Fatalf("%+v %v", res, err)
	}
	var rep childReport
	if err := json.Unmarshal(waitFile(t, f.childOut), &rep); err != nil {
		t.Fatal(err)
	}
	var req extraction.Request
	if err := json.Unmarshal([]byte(rep.Stdin), &req); err != nil {
		t.Fatalf("child stdin %q: %v", rep.Stdin, err)
	}
	if req.SessionID != "sess-1" || len(req.Messages) != 3 || rep.Home != f.home || strings.Join(rep.Args, " ") != "extract -" {
		t.Fatalf("child saw %+v / %+v", rep, req)
	}
	if rep.SID != rep.PID || rep.PID != res.PID {
		t.Fatalf("the child is not the leader of its own session: pid %d sid %d (started %d)", rep.PID, rep.SID, res.PID)
	}
	// Its output goes to the hook log; the request file it read is gone.
	log := waitFileContaining(t, filepath.Join(f.home, LogFile), "child ran")
	if fi, _ := os.Stat(filepath.Join(f.home, LogFile)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("log mode %v: %s", fi.Mode(), log)
	}
	if m, _ := filepath.Glob(filepath.Join(f.home, "hook-request-*")); len(m) != 0 {
		t.Fatalf("request files left: %v", m)
	}
}

func waitFileContaining(t *testing.T, path, want string) string {
	t.Helper()
	for i := 0; ; i++ {
		data := waitFile(t, path)
		if strings.Contains(string(data), want) {
			return string(data)
		}
		if i > 3000 {
			t.Fatalf("%s never contained %q: %s", path, want, data)
		}
		waitShort()
	}
}

func TestStaleOrRefusingBridgeFallsBackToDetach(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, f *fixture)
		want  string
	}{
		{"refused call", func(t *testing.T, f *fixture) {
			rec := newRecorder(t)
			rec.rpcErr = "unknown method extraction.request"
			rec.publish(t, f.home)
		}, "unknown method extraction.request"},
		{"dead process", func(t *testing.T, f *fixture) {
			rec := newRecorder(t)
			rec.publish(t, f.home)
			_ = WriteDiscovery(f.home, Discovery{URL: rec.srv.URL, PID: deadPID(t)})
		}, "is gone"},
		{"nothing listening", func(t *testing.T, f *fixture) {
			rec := newRecorder(t)
			rec.publish(t, f.home)
			rec.srv.Close()
		}, "unable to reach the bridge"},
		{"garbage discovery file", func(t *testing.T, f *fixture) {
			_ = os.WriteFile(filepath.Join(f.home, DiscoveryFile), []byte("{nope"), 0o600)
		}, "bridge.json is not valid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			tc.setup(t, f)
			f.append(sample(t))
			res, err := f.run()
			if err != nil || res.Status != StatusDetached || !strings.Contains(res.BridgeError, tc.want) {
				t.Fatalf("%+v %v", res, err)
			}
			waitFile(t, f.childOut)
		})
	}
}

// A bridge that took the call and did not answer in time may be running it: the turn counts
// as handed over, and is not extracted a second time by a detached run.
func TestUnansweredCallIsNotRunTwice(t *testing.T) {
	f := newFixture(t)
	f.svc.o.Timeout = 300 * time.Millisecond
	rec := newRecorder(t)
	rec.silent = true
	rec.publish(t, f.home)
	f.append(sample(t))
	res, err := f.run()
	if err != nil || res.Status != StatusForwarded || !strings.Contains(res.BridgeError, "did not answer") || res.PID != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	if len(rec.got()) != 1 {
		t.Fatalf("calls %+v", rec.got())
	}
	if _, err := os.Stat(f.childOut); !os.IsNotExist(err) {
		t.Fatalf("a detached extraction ran too: %v", err)
	}
}

func TestNothingWorksReleasesClaims(t *testing.T) {
	f := newFixture(t)
	f.svc.o.Command = []string{filepath.Join(t.TempDir(), "no-such-engram"), "extract", "-"}
	f.append(sample(t))
	_, err := f.run()
	if codeOf(err) != CodeNotDelivered {
		t.Fatalf("err %v", err)
	}
	// The turn was not lost: with a way to hand it over, the next run sends it.
	rec := newRecorder(t)
	rec.publish(t, f.home)
	res, err := f.run()
	if err != nil || res.Status != StatusForwarded || res.PersonMessages != 1 {
		t.Fatalf("retry %+v %v", res, err)
	}
}

func TestBadPayloadAndTranscript(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	link := filepath.Join(dir, "link.jsonl")
	f.append(sample(t))
	if err := os.Symlink(f.transcript, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    Payload
		code string
	}{
		{"no session", Payload{TranscriptPath: f.transcript}, CodeInvalidPayload},
		{"control characters", Payload{SessionID: "a\x00b", TranscriptPath: f.transcript}, CodeInvalidPayload},
		{"relative transcript", Payload{SessionID: "s", TranscriptPath: "x.jsonl"}, CodeInvalidPayload},
		{"missing transcript", Payload{SessionID: "s", TranscriptPath: filepath.Join(dir, "gone.jsonl")}, CodeTranscript},
		{"a folder", Payload{SessionID: "s", TranscriptPath: dir}, CodeTranscript},
		{"a symlink", Payload{SessionID: "s", TranscriptPath: link}, CodeTranscript},
		{"relative cwd", Payload{SessionID: "s", TranscriptPath: f.transcript, Cwd: "src"}, CodeInvalidPayload},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.svc.ClaudeCode(t.Context(), tc.p)
			if codeOf(err) != tc.code {
				t.Fatalf("err %v, want %s", err, tc.code)
			}
			var he *Error
			if !errors.As(err, &he) || !strings.HasPrefix(err.Error(), "hook: ") {
				t.Fatalf("not a hook error: %v", err)
			}
		})
	}
}

func TestDiscoveryFile(t *testing.T) {
	home := t.TempDir()
	d := Discovery{URL: "http://127.0.0.1:5555", PID: 42}
	if err := WriteDiscovery(home, d); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(home, DiscoveryFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", fi, err)
	}
	if got, err := ReadDiscovery(home); err != nil || got != d {
		t.Fatalf("read %+v %v", got, err)
	}
	// Another bridge's removal leaves ours alone.
	if err := RemoveDiscovery(home, Discovery{URL: "http://127.0.0.1:6666", PID: 43}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadDiscovery(home); err != nil {
		t.Fatalf("removed by another bridge: %v", err)
	}
	if err := RemoveDiscovery(home, d); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, DiscoveryFile)); !os.IsNotExist(err) {
		t.Fatalf("still there: %v", err)
	}
	if err := RemoveDiscovery(home, d); err != nil {
		t.Fatalf("second remove: %v", err)
	}
}

// TestOtherClaudeEventsAreLeft: Claude Code's other hook events (a person who wired
// `engram hook claude-code` to UserPromptSubmit or SessionStart too) are left alone — no
// error, nothing read, claimed or handed over — as the Codex and Gemini hooks leave theirs.
// The trigger: each prompt printed "… is not a Stop event" on stderr and in hook.log.
func TestOtherClaudeEventsAreLeft(t *testing.T) {
	f := newFixture(t)
	rec := newRecorder(t)
	rec.publish(t, f.home)
	f.append(sample(t))
	for _, event := range []string{"UserPromptSubmit", "SessionStart", "PreToolUse", "PostToolUse", "Notification", "PreCompact", "SubagentStop", "SubagentStart"} {
		t.Run(event, func(t *testing.T) {
			for _, p := range []Payload{
				{SessionID: "sess-1", TranscriptPath: f.transcript, Cwd: f.workdir, HookEventName: event},
				{HookEventName: event}, // whatever else the event carries is not read
			} {
				res, err := f.svc.ClaudeCode(t.Context(), p)
				if err != nil || res.Status != StatusNotATurn {
					t.Fatalf("%+v: %+v %v", p, res, err)
				}
			}
		})
	}
	if got := rec.got(); len(got) != 0 {
		t.Fatalf("handed over %d calls", len(got))
	}
	if res, err := f.run(); err != nil || res.Status != StatusForwarded || len(rec.got()) != 1 {
		t.Fatalf("the Stop event after them: %+v %v (%d calls)", res, err, len(rec.got()))
	}
}
