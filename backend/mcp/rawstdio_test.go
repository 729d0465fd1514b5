package mcp_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawProc is `engram mcp` driven line by line, as a client that writes its own JSON-RPC (and
// sometimes malformed lines) does; the SDK's client would refuse to send most of them.
type rawProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr syncBuffer

	mu    sync.Mutex
	lines []string // every line the server wrote, in order
	more  chan struct{}
	done  chan struct{} // closed when stdout ends
}

func startRaw(t *testing.T, home string, args ...string) *rawProc {
	t.Helper()
	return startRawLang(t, home, "en", args...)
}

// startRawLang is startRaw with the person's language lang.
func startRawLang(t *testing.T, home, lang string, args ...string) *rawProc {
	t.Helper()
	p := &rawProc{t: t, more: make(chan struct{}, 1), done: make(chan struct{})}
	p.cmd = exec.Command(binary, append([]string{"mcp"}, args...)...)
	p.cmd.Env = append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG="+lang)
	p.cmd.Stderr = &p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 32<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
			select {
			case p.more <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		_ = p.stdin.Close()
		select {
		case <-p.done:
		case <-time.After(40 * time.Second):
			_ = p.cmd.Process.Kill()
		}
		_ = p.cmd.Wait()
	})
	return p
}

// send writes raw lines as they are.
func (p *rawProc) send(lines ...string) {
	p.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(p.stdin, l+"\n"); err != nil {
			p.t.Fatalf("write %q: %v\nstderr: %s", l, err, p.stderr.String())
		}
	}
}

// msg is one JSON-RPC message the server wrote (an array's elements come one by one).
type msg struct {
	ID     any             `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64          `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	} `json:"error"`
	raw string
}

// messages decodes what the server wrote so far; batch answers are flattened and marked.
func (p *rawProc) messages() (out []msg) {
	p.mu.Lock()
	lines := append([]string(nil), p.lines...)
	p.mu.Unlock()
	for _, l := range lines {
		var one msg
		if strings.HasPrefix(l, "[") {
			var many []json.RawMessage
			if json.Unmarshal([]byte(l), &many) != nil {
				p.t.Fatalf("the server wrote a broken array: %s", l)
			}
			for _, m := range many {
				_ = json.Unmarshal(m, &one)
				one.raw = "[]" + string(m)
				out = append(out, one)
				one = msg{}
			}
			continue
		}
		if err := json.Unmarshal([]byte(l), &one); err != nil {
			p.t.Fatalf("the server wrote a line that is not JSON: %s", l)
		}
		one.raw = l
		out = append(out, one)
	}
	return out
}

// wait returns the first message that matches, waiting up to d.
func (p *rawProc) wait(what string, d time.Duration, match func(msg) bool) msg {
	p.t.Helper()
	return p.waitFrom(0, what, d, match)
}

// waitFrom is wait among the messages from the from-th on.
func (p *rawProc) waitFrom(from int, what string, d time.Duration, match func(msg) bool) msg {
	p.t.Helper()
	deadline := time.After(d)
	find := func() (msg, bool) {
		all := p.messages()
		for _, m := range all[min(from, len(all)):] {
			if match(m) {
				return m, true
			}
		}
		return msg{}, false
	}
	for {
		if m, ok := find(); ok {
			return m
		}
		select {
		case <-p.more:
		case <-p.done:
			if m, ok := find(); ok {
				return m
			}
			p.t.Fatalf("the server's output ended without %s\nstderr: %s", what, p.stderr.String())
		case <-deadline:
			p.t.Fatalf("no %s after %v; got:\n%s\nstderr: %s", what, d, strings.Join(p.rawLines(), "\n"), p.stderr.String())
		}
	}
}

func (p *rawProc) rawLines() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.lines...)
}

// answer waits for the answer to id (a JSON number id decodes as float64).
func (p *rawProc) answer(id any) msg {
	p.t.Helper()
	return p.wait("an answer to id "+toJSON(id), 60*time.Second, func(m msg) bool {
		return m.Method == "" && toJSON(m.ID) == toJSON(id)
	})
}

// has reports whether an answer to id was written.
func (p *rawProc) has(id any) bool {
	for _, m := range p.messages() {
		if m.Method == "" && toJSON(m.ID) == toJSON(id) {
			return true
		}
	}
	return false
}

// initialize opens the session at version and waits for the answer.
func (p *rawProc) initialize(version string, caps string) {
	p.t.Helper()
	if caps == "" {
		caps = "{}"
	}
	p.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version +
		`","capabilities":` + caps + `,"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := p.answer("init"); m.Error != nil {
		p.t.Fatalf("initialize: %s", m.raw)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// exit closes the input and waits for the process to end, returning its exit code.
func (p *rawProc) exit() int {
	p.t.Helper()
	_ = p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(60 * time.Second):
		p.t.Fatalf("the server did not end after its input closed\nstderr: %s", p.stderr.String())
	}
	err := p.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return 0
}

// wantError checks that m is a JSON-RPC error with code, catalog code key and a translated
// message.
func wantError(t *testing.T, m msg, code int64, key string) {
	t.Helper()
	if m.Error == nil || m.Error.Code != code || m.Error.Data["code"] != key {
		t.Fatalf("want error %d %s, got %s", code, key, m.raw)
	}
	if m.Error.Message == "" || strings.HasPrefix(m.Error.Message, "error.") {
		t.Fatalf("untranslated message: %s", m.raw)
	}
}
