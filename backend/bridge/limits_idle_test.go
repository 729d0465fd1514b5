package bridge

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawConn is one real TCP connection to the bridge, read as HTTP/1.1.
type rawConn struct {
	net.Conn
	br *bufio.Reader
}

func dialRaw(t *testing.T, host string) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// The deadline only bounds a failing test; no assertion depends on it.
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	return &rawConn{Conn: c, br: bufio.NewReader(c)}
}

func (c *rawConn) send(t *testing.T, req string) {
	t.Helper()
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
}

// answer reads one response, body included.
func (c *rawConn) answer(t *testing.T) (int, string) {
	t.Helper()
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		t.Fatalf("reading an answer: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, string(body)
}

// closedByServer reads what is left until the server closes the connection, reporting whether
// it did (and not the test's deadline).
func (c *rawConn) closedByServer() bool {
	_, err := io.Copy(io.Discard, c.br)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// rawGet is a GET of path on host, with the token as a Bearer header unless it is "".
func rawGet(host, path, token string) string {
	req := "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n"
	if token != "" {
		req += "Authorization: Bearer " + token + "\r\n"
	}
	return req + "\r\n"
}

// At the connection cap a keep-alive connection waiting for its next request is closed to make
// room for a new one; a websocket and a request being served are never closed that way, and
// when nothing is idle the new connection is refused as before. (A local process holding idle
// keep-alives locked the person's browser and agents out for a minute.)
func TestCapEvictsIdleKeepAlive(t *testing.T) {
	entered := make(chan struct{}, 4)
	release := make(chan struct{})
	held := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		entered <- struct{}{}
		<-release
		_, _ = io.WriteString(w, "held")
	})
	var mu sync.Mutex
	idle := map[string]bool{} // the client ends (local addresses) of idle connections
	idleNow := make(chan struct{}, 16)
	f := startWith(t, Config{MaxConns: 3, MCP: held}, nil, func(s *Server) {
		s.onConnState = func(c net.Conn, st http.ConnState) {
			mu.Lock()
			idle[c.RemoteAddr().String()] = st == http.StateIdle
			mu.Unlock()
			if st == http.StateIdle {
				idleNow <- struct{}{}
			}
		}
	})
	host := strings.TrimPrefix(f.base, "http://")
	get := func(path string) string { return rawGet(host, path, f.srv.Token()) }
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)

	ws := f.mustDial(t) // hijacked
	busy := dialRaw(t, host)
	busy.send(t, get("/mcp")) // in flight until released
	<-entered
	keep := dialRaw(t, host)
	keep.send(t, get("/healthz"))
	if code, _ := keep.answer(t); code != 200 {
		t.Fatalf("healthz: %d", code)
	}
	for {
		<-idleNow
		mu.Lock()
		done := idle[keep.LocalAddr().String()]
		mu.Unlock()
		if done {
			break
		}
	}

	// The cap is full (websocket, request in flight, idle keep-alive): the idle one makes room.
	second := dialRaw(t, host)
	second.send(t, get("/mcp"))
	if !keep.closedByServer() {
		t.Fatal("the idle keep-alive connection was not closed to make room at the cap")
	}
	<-entered
	// Now nothing is idle: a new connection is refused, and nothing held is closed.
	refused := dialRaw(t, host)
	refused.send(t, get("/healthz"))
	if code, body := refused.answer(t); code != http.StatusServiceUnavailable || !strings.Contains(body, "bridge_too_many_connections") {
		t.Fatalf("over the cap with nothing idle: %d %s", code, body)
	}
	free()
	for _, c := range []*rawConn{busy, second} {
		if code, body := c.answer(t); code != 200 || body != "held" {
			t.Fatalf("a request in flight at the cap: %d %s", code, body)
		}
	}
	if r := call(t, ws, 1, "app.info", `{}`); r.Error != nil {
		t.Fatalf("the websocket at the cap: %+v", r.Error)
	}
}
