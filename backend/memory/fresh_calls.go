package memory

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// CallHandler answers a read-only api call that a one-shot CLI process forwarded to the
// process owning the watcher (see fresh.go): that process holds the vectors and the warm index,
// so a search there costs a few milliseconds where a fresh process would load every vector, and
// it ranks exactly as the app does because it is the app. The result is JSON; an error is
// returned as JSON too (errJSON), the caller's layer knows its shape.
type CallHandler func(ctx context.Context, method string, params json.RawMessage) (result json.RawMessage, errJSON json.RawMessage)

// SetCallHandler makes this process answer forwarded calls once its watcher owns the socket
// (wire sets it for long-running processes). Only the methods in allow are answered.
func (s *Store) SetCallHandler(h CallHandler, allow []string) {
	m := map[string]bool{}
	for _, a := range allow {
		m[a] = true
	}
	s.callMu.Lock()
	s.calls, s.callAllow = h, m
	s.callMu.Unlock()
}

func (s *Store) callHandler(method string) CallHandler {
	s.callMu.Lock()
	defer s.callMu.Unlock()
	if !s.callAllow[method] {
		return nil
	}
	return s.calls
}

// ErrNotForwarded says no watching process took the call: the caller opens the home itself.
var ErrNotForwarded = errors.New("memory: no watching process took the call")

// maxCallLine bounds one forwarded request or answer line (a search's hits fit many times).
const maxCallLine = 8 << 20

// ForwardCall hands method(params) to the process that owns home's watcher, after it has made
// the index current (the same round as Open's freshness question). It returns ErrNotForwarded
// when no process answers, is not fresh, or does not take that method; the call did not run
// then and the caller runs it itself. A result or a coded error (errJSON) means it ran there.
func ForwardCall(ctx context.Context, home, method string, params any) (result, errJSON json.RawMessage, err error) {
	root := filepath.Join(home, "memory")
	if _, err := os.Lstat(filepath.Join(root, watchSockName)); err != nil {
		return nil, nil, ErrNotForwarded
	}
	p, err := json.Marshal(params)
	if err != nil {
		return nil, nil, fmt.Errorf("memory: unable to encode the call: %w", err)
	}
	addr, done, err := sockAddr(root)
	if err != nil {
		return nil, nil, ErrNotForwarded
	}
	defer done()
	d := net.Dialer{Timeout: 200 * time.Millisecond}
	conn, err := d.DialContext(ctx, "unix", addr)
	if err != nil {
		return nil, nil, ErrNotForwarded
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(WatchAnswerTimeout + 10*time.Second))
	if _, err := fmt.Fprintf(conn, "call %s %s\n", method, p); err != nil {
		return nil, nil, ErrNotForwarded
	}
	rd := bufio.NewReaderSize(conn, 64<<10)
	line, err := readLine(rd)
	if err != nil {
		return nil, nil, ErrNotForwarded
	}
	kind, rest, _ := strings.Cut(line, " ")
	switch kind {
	case "ok":
		return json.RawMessage(rest), nil, nil
	case "err":
		return nil, json.RawMessage(rest), nil
	}
	return nil, nil, ErrNotForwarded // "stale" or "refused": run it here
}

func readLine(rd *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		chunk, err := rd.ReadSlice('\n')
		b.Write(chunk)
		if b.Len() > maxCallLine {
			return "", errors.New("memory: forwarded line too long")
		}
		if err == nil {
			return strings.TrimSuffix(b.String(), "\n"), nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return "", err
		}
	}
}

// serveConn answers one connection: "sync" (fresh | stale) or "call METHOD PARAMS" (ok RESULT
// | err ERROR | stale | refused). A call waits for the same freshness round as a sync first.
func (v *vouch) serveConn(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(WatchAnswerTimeout + time.Second))
	line, err := readLine(bufio.NewReaderSize(c, 64<<10))
	if err != nil {
		return
	}
	verb, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	var h CallHandler
	var method, params string
	switch verb {
	case watchSyncAsk:
	case "call":
		method, params, _ = strings.Cut(rest, " ")
		if h = v.s.callHandler(method); h == nil {
			_, _ = c.Write([]byte("refused\n"))
			return
		}
	default:
		return
	}
	if !v.fresh() {
		_, _ = c.Write([]byte(watchStale + "\n"))
		return
	}
	if h == nil {
		_, _ = c.Write([]byte(watchFresh + "\n"))
		return
	}
	// The call may take longer than a sync (a search over 100k memories, a cold vector load).
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, errJSON := h(ctx, method, json.RawMessage(params))
	if errJSON != nil {
		_, _ = fmt.Fprintf(c, "err %s\n", compactJSON(errJSON))
		return
	}
	_, _ = fmt.Fprintf(c, "ok %s\n", compactJSON(res))
}

// fresh asks Watch's loop for a freshness round and waits for its answer.
func (v *vouch) fresh() bool {
	reply := make(chan bool, 1)
	select {
	case v.asks <- reply:
	case <-time.After(WatchAnswerTimeout):
		return false
	}
	select {
	case ok := <-reply:
		return ok
	case <-time.After(WatchAnswerTimeout):
		return false
	}
}

// compactJSON keeps an answer on one line whatever the handler produced.
func compactJSON(b json.RawMessage) []byte {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return []byte("null")
	}
	return out.Bytes()
}
