package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"golang.org/x/sys/unix"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"engram/backend/extraction"
	"engram/backend/memory"
)

// TestMain lets the test binary stand in for `engram extract -` in the detach tests: with
// HOOK_TEST_CHILD set it records what a detached extraction receives and exits.
func TestMain(m *testing.M) {
	if out := os.Getenv("HOOK_TEST_CHILD"); out != "" {
		os.Exit(runChild(out))
	}
	os.Exit(m.Run())
}

// childReport is what the stand-in extraction saw.
type childReport struct {
	Stdin string   `json:"stdin"`
	PID   int      `json:"pid"`
	SID   int      `json:"sid"`
	Home  string   `json:"home"`
	Args  []string `json:"args"`
}

func runChild(out string) int {
	data, _ := io.ReadAll(os.Stdin)
	sid, _ := unix.Getsid(0)
	rep, _ := json.Marshal(childReport{Stdin: string(data), PID: os.Getpid(), SID: sid, Home: os.Getenv("ENGRAM_HOME"), Args: os.Args[1:]})
	os.Stdout.WriteString("child ran\n") // lands in hook.log
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, rep, 0o600); err != nil {
		return 1
	}
	if err := os.Rename(tmp, out); err != nil {
		return 1
	}
	return 0
}

// waitFile waits (generously) for path to appear and returns its content.
func waitFile(t *testing.T, path string) []byte {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(path); err == nil {
			return data
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", path)
	return nil
}

// fixture is one temporary home with a store and a transcript.
type fixture struct {
	t          *testing.T
	home       string
	store      *memory.Store
	transcript string
	workdir    string
	childOut   string
	svc        *Service
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{t: t, home: t.TempDir(), workdir: t.TempDir()}
	st, err := memory.Open(context.Background(), f.home, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f.store = st
	f.transcript = filepath.Join(t.TempDir(), "session.jsonl")
	f.childOut = filepath.Join(t.TempDir(), "child.json")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f.svc = New(Options{Store: st, Home: f.home, Command: []string{exe, "extract", "-"},
		Env: []string{"HOOK_TEST_CHILD=" + f.childOut}, Logger: quiet})
	return f
}

func (f *fixture) append(lines ...string) {
	f.t.Helper()
	fh, err := os.OpenFile(f.transcript, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		f.t.Fatal(err)
	}
	defer fh.Close()
	for _, l := range lines {
		if _, err := fh.WriteString(l); err != nil {
			f.t.Fatal(err)
		}
	}
}

func (f *fixture) payload() Payload {
	return Payload{SessionID: "sess-1", TranscriptPath: f.transcript, Cwd: f.workdir, HookEventName: "Stop"}
}

func (f *fixture) run() (Result, error) {
	return f.svc.ClaudeCode(context.Background(), f.payload())
}

// rpcCall is one JSON-RPC call a recorder received.
type rpcCall struct {
	Method string             `json:"method"`
	Params extraction.Request `json:"params"`
	Auth   string             `json:"-"`
}

// recorder is a websocket JSON-RPC server on 127.0.0.1 that records the calls it receives and
// answers each with result (or rpcErr), after pushing an event first, as the bridge does.
type recorder struct {
	srv    *httptest.Server
	mu     sync.Mutex
	calls  []rpcCall
	rpcErr string
	silent bool // read calls and never answer
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path != "/ws" {
			http.NotFound(w, req)
			return
		}
		c, err := websocket.Accept(w, req, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := req.Context()
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			var call struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			}
			_ = json.Unmarshal(data, &call)
			rc := rpcCall{Method: call.Method, Auth: req.Header.Get("Authorization")}
			dec := json.NewDecoder(bytes.NewReader(call.Params))
			dec.DisallowUnknownFields()
			_ = dec.Decode(&rc.Params)
			r.mu.Lock()
			r.calls = append(r.calls, rc)
			rpcErr, silent := r.rpcErr, r.silent
			r.mu.Unlock()
			if silent {
				continue
			}
			_ = c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"event","params":{"name":"memory.changed","data":{}}}`))
			reply := map[string]any{"jsonrpc": "2.0", "id": call.ID, "result": map[string]any{"accepted": true}}
			if rpcErr != "" {
				reply = map[string]any{"jsonrpc": "2.0", "id": call.ID, "error": map[string]any{"code": -32601, "message": rpcErr,
					"data": map[string]any{"code": "unknown_method", "message": rpcErr}}}
			}
			b, _ := json.Marshal(reply)
			_ = c.Write(ctx, websocket.MessageText, b)
		}
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) got() []rpcCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]rpcCall{}, r.calls...)
}

// publish makes the recorder the home's running bridge (bridge.json and bridge.token).
func (r *recorder) publish(t *testing.T, home string) {
	t.Helper()
	if err := WriteDiscovery(home, Discovery{URL: r.srv.URL, PID: os.Getpid()}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, TokenFile), []byte("tok-0123456789abcdef0123456789abcdef\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func waitShort() { time.Sleep(20 * time.Millisecond) }

// deadPID is the pid of a process that has ended (and was reaped).
func deadPID(t *testing.T) int {
	t.Helper()
	exe, _ := os.Executable()
	p, err := os.StartProcess(exe, []string{exe, "-test.run=^$"}, &os.ProcAttr{Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	pid := p.Pid
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	return pid
}
