package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// TestMain removes the binary engramCLI built, and does nothing in a detached hook rerun of
// the test binary: a hook that runs out of its 3 s in a test (a loaded machine) hands its turn
// to this executable's `hook AGENT` (hookRerunCommand) unless the test put a stand-in there,
// and the test binary then ran the whole suite again, detached, in a home the test had since
// deleted — one such run spun a core for over an hour beside the runs that followed.
func TestMain(m *testing.M) {
	if os.Getenv(hookRerunEnv) != "" {
		os.Exit(0)
	}
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// engramCLI builds the GTK-free binary from the module root once per test run, as
// `make cli` does.
func engramCLI(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			binErr = err
			return
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				break
			}
			dir = filepath.Dir(dir)
		}
		tmp, err := os.MkdirTemp("", "engram-cli-test-")
		if err != nil {
			binErr = err
			return
		}
		goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goBin); err != nil {
			goBin = "go"
		}
		binPath = filepath.Join(tmp, "engram-cli")
		cmd := exec.Command(goBin, "build", "-o", binPath, ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = &buildError{err: err, out: string(out)}
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (b *buildError) Error() string { return "building engram-cli: " + b.err.Error() + "\n" + b.out }

// runHook runs `engram-cli hook claude-code` on home with stdin, as Claude Code does.
func runHook(t *testing.T, home, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if len(args) == 0 {
		args = []string{"hook", "claude-code"}
	}
	cmd := exec.Command(engramCLI(t), args...)
	cmd.Env = append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG=en")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

func payload(session, transcript, cwd string, active bool) string {
	b, _ := json.Marshal(map[string]any{"session_id": session, "transcript_path": transcript, "cwd": cwd,
		"permission_mode": "default", "hook_event_name": "Stop", "stop_hook_active": active})
	return string(b)
}

func readLog(home string) string {
	b, _ := os.ReadFile(filepath.Join(home, "hook.log"))
	return string(b)
}

// The hook never fails the agent: whatever it is given it exits 0 with nothing on stdout,
// and says what went wrong in the home's hook.log.
func TestHookSubprocessNeverBlocks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		stdin   string
		args    []string
		log     string // what hook.log must hold ("" : no log at all)
		noIndex bool   // the home was not even opened
	}{
		{name: "stop_hook_active", stdin: payload("s", "/nowhere.jsonl", "/tmp", true), noIndex: true},
		{name: "garbage stdin", stdin: "\x00not json{", log: "not the JSON the agent sends", noIndex: true},
		{name: "empty stdin", stdin: "", log: "not the JSON the agent sends", noIndex: true},
		{name: "missing transcript", stdin: payload("s", "/nowhere/gone.jsonl", "/tmp", false), log: "could not be read"},
		{name: "no session id", stdin: payload("", "/nowhere/gone.jsonl", "/tmp", false), log: "session_id"},
		{name: "unknown agent", stdin: "{}", args: []string{"hook", "cursor"}, log: "hook needs claude-code", noIndex: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			code, stdout, _ := runHook(t, home, tc.stdin, tc.args...)
			if code != 0 || stdout != "" {
				t.Fatalf("exit %d, stdout %q", code, stdout)
			}
			log := readLog(home)
			if tc.log == "" && log != "" || !strings.Contains(log, tc.log) {
				t.Fatalf("hook.log %q, want %q", log, tc.log)
			}
			_, err := os.Stat(filepath.Join(home, "memory", "index.sqlite3"))
			if tc.noIndex != os.IsNotExist(err) {
				t.Fatalf("index opened: %v (want opened: %v)", err, !tc.noIndex)
			}
		})
	}
}

// bridgeRecorder is a websocket JSON-RPC endpoint that records the methods and sessions called.
type bridgeRecorder struct {
	srv   *httptest.Server
	mu    sync.Mutex
	calls []map[string]any
}

func newBridgeRecorder(t *testing.T, home string) *bridgeRecorder {
	r := &bridgeRecorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Header.Get("Authorization") != "Bearer tok-0123456789abcdef0123456789abcdef" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		c, err := websocket.Accept(w, req, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		for {
			_, data, err := c.Read(req.Context())
			if err != nil {
				return
			}
			var call map[string]any
			_ = json.Unmarshal(data, &call)
			r.mu.Lock()
			r.calls = append(r.calls, call)
			r.mu.Unlock()
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": call["id"], "result": map[string]any{}})
			_ = c.Write(req.Context(), websocket.MessageText, b)
		}
	}))
	t.Cleanup(r.srv.Close)
	disc, _ := json.Marshal(map[string]any{"url": r.srv.URL, "pid": os.Getpid()})
	if err := os.WriteFile(filepath.Join(home, "bridge.json"), disc, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "bridge.token"), []byte("tok-0123456789abcdef0123456789abcdef\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *bridgeRecorder) got() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any{}, r.calls...)
}

// forwardedOnce checks that the recorder got exactly one extraction.request, of agent in
// session with n messages, and returns its params.
func (r *bridgeRecorder) forwardedOnce(t *testing.T, home, agent, session string, n int) map[string]any {
	t.Helper()
	calls := r.got()
	if len(calls) != 1 || calls[0]["method"] != "extraction.request" {
		t.Fatalf("calls %v\nlog %s", calls, readLog(home))
	}
	params, _ := calls[0]["params"].(map[string]any)
	msgs, _ := params["messages"].([]any)
	if params["agent"] != agent || params["session_id"] != session || len(msgs) != n {
		t.Fatalf("params %v", params)
	}
	return params
}

// With a bridge published in the home the hook hands the turn to it; run again on the same
// transcript it hands over nothing (the dedupe state is in the store, across processes).
func TestHookSubprocessForwardsOnceToTheBridge(t *testing.T) {
	home := t.TempDir()
	rec := newBridgeRecorder(t, home)
	transcript := filepath.Join(t.TempDir(), "s.jsonl")
	data, _ := os.ReadFile("../transcript/testdata/sample.jsonl")
	if err := os.WriteFile(transcript, data, 0o600); err != nil {
		t.Fatal(err)
	}
	in := payload("5f0e8a52-1c3b-4d7e-8a11-2b9c0d4e6f71", transcript, t.TempDir(), false)
	for run := 1; run <= 2; run++ {
		code, stdout, stderr := runHook(t, home, in)
		if code != 0 || stdout != "" {
			t.Fatalf("run %d: exit %d stdout %q stderr %q", run, code, stdout, stderr)
		}
	}
	rec.forwardedOnce(t, home, "claude-code", "5f0e8a52-1c3b-4d7e-8a11-2b9c0d4e6f71", 3)
	log := readLog(home)
	if !strings.Contains(log, "forwarded, 3 messages") || !strings.Contains(log, "nothing_new") {
		t.Fatalf("hook.log %s", log)
	}
}

// `engram serve` publishes bridge.json while it listens and removes it when it stops; a hook
// run meanwhile reaches it (the call passes the token, Host and Origin checks).
func TestServePublishesItsBridgeForHooks(t *testing.T) {
	home := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serve := exec.CommandContext(ctx, engramCLI(t), "serve", "--addr", "127.0.0.1:0")
	serve.Env = append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG=en")
	serve.Cancel = func() error { return serve.Process.Signal(syscall.SIGTERM) }
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	disc := filepath.Join(home, "bridge.json")
	deadline := time.Now().Add(60 * time.Second)
	for {
		if b, err := os.ReadFile(disc); err == nil && json.Valid(b) {
			var d struct {
				URL string `json:"url"`
				PID int    `json:"pid"`
			}
			_ = json.Unmarshal(b, &d)
			if d.PID != serve.Process.Pid || !strings.HasPrefix(d.URL, "http://127.0.0.1:") {
				t.Fatalf("bridge.json %s (serve pid %d)", b, serve.Process.Pid)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("serve never published bridge.json")
		}
		time.Sleep(20 * time.Millisecond)
	}
	transcript := filepath.Join(t.TempDir(), "s.jsonl")
	data, _ := os.ReadFile("../transcript/testdata/sample.jsonl")
	if err := os.WriteFile(transcript, data, 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runHook(t, home, payload("s-serve", transcript, t.TempDir(), false))
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d stdout %q", code, stdout)
	}
	// The running serve takes the turn over its bridge: the hook forwards, nothing detached,
	// and the session shows up for another process on the same home (the CLI).
	if log := readLog(home); !strings.Contains(log, "forwarded") || strings.Contains(log, "detached") {
		t.Fatalf("hook.log %s", log)
	}
	deadline = time.Now().Add(60 * time.Second)
	for {
		_, out, _ := runHook(t, home, "", "sessions", "--json")
		if strings.Contains(out, `"s-serve"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the forwarded session never appeared: %s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	_ = serve.Wait()
	if _, err := os.Stat(disc); !os.IsNotExist(err) {
		t.Fatalf("bridge.json left after serve stopped: %v", err)
	}
}

// transcriptLine is one Claude Code transcript entry.
func transcriptLine(t *testing.T, entry map[string]any) string {
	t.Helper()
	b, err := json.Marshal(entry)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// TestHookExtractsIntoTheRightScopeOnce: the hook end to end with no Engram running — a real
// transcript in Claude Code's format, the Stop payload on stdin, the detached `engram extract`
// writes the person's facts (unreviewed; the project-pinned one in the project of cwd); the
// same hook run again writes nothing more, and a later turn is extracted on the next run.
func TestHookExtractsIntoTheRightScopeOnce(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	transcript := filepath.Join(t.TempDir(), "s.jsonl")
	user := func(uuid, text string) string {
		return transcriptLine(t, map[string]any{"type": "user", "uuid": uuid, "sessionId": "s-e2e", "cwd": cwd,
			"isSidechain": false, "message": map[string]any{"role": "user", "content": text}})
	}
	assistant := func(uuid, file string) string {
		return transcriptLine(t, map[string]any{"type": "assistant", "uuid": uuid, "sessionId": "s-e2e", "cwd": cwd,
			"message": map[string]any{"role": "assistant", "content": []any{
				map[string]any{"type": "tool_use", "id": "toolu_" + uuid, "name": "Write", "input": map[string]any{"file_path": filepath.Join(cwd, file), "content": "x"}},
				map[string]any{"type": "text", "text": "Done."}}}})
	}
	write := func(s string) {
		f, err := os.OpenFile(transcript, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	list := func() []map[string]any {
		_, out, _ := runHook(t, home, "", "list", "--json")
		var res struct {
			Items []map[string]any `json:"items"`
		}
		_ = json.Unmarshal([]byte(out), &res)
		return res.Items
	}
	waitFor := func(what string, cond func([]map[string]any) bool) []map[string]any {
		t.Helper()
		deadline := time.Now().Add(90 * time.Second)
		for {
			items := list()
			if cond(items) {
				return items
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: memories %v; hook.log %s", what, items, readLog(home))
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	// The third turn comes within the session's least interval between runs, so extraction
	// defers it and runs it once the interval has passed: 2 s here instead of the default 30,
	// which this test used to wait out.
	h := newHome(t)
	h.dir = home
	var out, errb bytes.Buffer
	a, closeFn, err := h.env(&out, &errb).Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Call("extraction.updateSettings", json.RawMessage(`{"min_interval_seconds":2}`)); err != nil {
		t.Fatal(err)
	}
	closeFn()
	write(user("u1", "I always use pytest with the -q flag, never unittest.") + assistant("a1", "pytest.ini"))
	if code, stdout, _ := runHook(t, home, payload("s-e2e", transcript, cwd, false)); code != 0 || stdout != "" {
		t.Fatalf("exit %d stdout %q", code, stdout)
	}
	first := waitFor("the first turn's memory", func(items []map[string]any) bool { return len(items) > 0 })
	for _, it := range first {
		if it["reviewed"] != false {
			t.Fatalf("an extracted memory is reviewed: %v", it)
		}
	}
	// The same turn again: nothing new is forwarded, so nothing more is written.
	if code, _, _ := runHook(t, home, payload("s-e2e", transcript, cwd, false)); code != 0 {
		t.Fatalf("second run exit %d", code)
	}
	if !strings.Contains(readLog(home), "nothing_new") {
		t.Fatalf("the second run forwarded again: %s", readLog(home))
	}
	if again := list(); len(again) != len(first) {
		t.Fatalf("the same turn was written twice: %d then %d memories", len(first), len(again))
	}
	// A later turn that pins a fact to this project lands in the project of cwd.
	write(user("u2", "Remember for this project: the staging database is called kestrel.") + assistant("a2", "db.ini"))
	if code, _, _ := runHook(t, home, payload("s-e2e", transcript, cwd, false)); code != 0 {
		t.Fatalf("third run exit %d", code)
	}
	items := waitFor("the project memory", func(items []map[string]any) bool { return len(items) > len(first) })
	var project map[string]any
	for _, it := range items {
		if it["scope"] == "project" {
			project = it
		}
	}
	if project == nil || project["workdir"] != cwd {
		t.Fatalf("no project memory for %s: %v", cwd, items)
	}
}
