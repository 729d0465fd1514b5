package bridge

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// stalledOf reports whether c (the server's end) is in the stalled set as kind, and for how
// long it has been.
func (s *Server) stalledOf(kind stallKind) []time.Duration {
	s.stalledMu.Lock()
	defer s.stalledMu.Unlock()
	var out []time.Duration
	for _, st := range s.stalled {
		if st.kind == kind {
			out = append(out, time.Since(st.since))
		}
	}
	return out
}

// At the connection cap, a connection whose first request never finished (a slowloris client
// dribbling headers) is closed to make room, the one stalled the longest first; before, it
// held its slot until ReadHeaderTimeout and a local process reopening such connections kept
// the person's browser and agents out for good.
func TestCapEvictsStalledHeaders(t *testing.T) {
	newConns := make(chan net.Conn, 8)
	f := startWith(t, Config{MaxConns: 2, ReadHeaderTimeout: time.Hour}, nil, func(s *Server) {
		s.stallGrace = 0
		s.onConnState = func(c net.Conn, st http.ConnState) {
			if st == http.StateNew {
				newConns <- c
			}
		}
	})
	host := strings.TrimPrefix(f.base, "http://")
	partial := "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\nX-Slow: "
	first := dialRaw(t, host)
	first.send(t, partial)
	<-newConns
	second := dialRaw(t, host)
	second.send(t, partial)
	<-newConns

	// The cap is full of half-sent requests: the person's request still gets in.
	person := dialRaw(t, host)
	person.send(t, rawGet(host, "/healthz", ""))
	if code, body := person.answer(t); code != 200 || !strings.Contains(body, `"ok":true`) {
		t.Fatalf("at a cap full of stalled requests: %d %s", code, body)
	}
	if !first.closedByServer() {
		t.Fatal("the oldest stalled request was not closed to make room")
	}
	// The younger one was left alone: it finishes and is answered.
	second.send(t, "1\r\n\r\n")
	if code, _ := second.answer(t); code != 200 {
		t.Fatalf("the younger half-sent request: %d", code)
	}
}

// At the connection cap, a websocket whose peer stopped reading (its ping unanswered) is
// closed to make room once nothing cheaper is stalled; a reading websocket and a request in
// flight are kept. Before, it held its slot until its pong timed out. It is told why with a
// close frame (1013, try again later, in the person's language) once it reads again: its
// socket used to be cut without one, and a browser's saw only an abnormal closure (1006).
func TestCapEvictsWebsocketThatStoppedReading(t *testing.T) {
	entered := make(chan struct{}, 2)
	release := make(chan struct{})
	held := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		entered <- struct{}{}
		<-release
		_, _ = io.WriteString(w, "held")
	})
	f := startWith(t, Config{MaxConns: 3, MCP: held, PingInterval: 20 * time.Millisecond, PongTimeout: time.Hour}, nil,
		func(s *Server) { s.stallGrace, s.evictCloseWait = 0, time.Hour })
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	host := strings.TrimPrefix(f.base, "http://")

	deaf := f.mustDial(t) // never reads: its ping waits for a pong that does not come
	waitFor(t, "the deaf websocket's ping to wait", func() bool { return len(f.srv.stalledOf(stallWebsocket)) == 1 })
	ui := f.mustDial(t)
	uiMsgs := make(chan response, 16)
	go func() {
		for {
			_, data, err := ui.Read(context.Background())
			if err != nil {
				close(uiMsgs)
				return
			}
			if strings.Contains(string(data), `"id"`) {
				uiMsgs <- response{ID: []byte(data)}
			}
		}
	}()
	busy := dialRaw(t, host)
	busy.send(t, rawGet(host, "/mcp", f.srv.Token()))
	<-entered

	person := dialRaw(t, host)
	person.send(t, rawGet(host, "/healthz", ""))
	if code, _ := person.answer(t); code != 200 {
		t.Fatalf("at a cap held by a websocket that stopped reading: %d", code)
	}
	err := readUntilClosed(deaf)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("the websocket that stopped reading was not closed")
	}
	want := f.srv.api.Error("bridge_ws_evicted", nil).Message
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusTryAgainLater || ce.Reason != want || strings.HasPrefix(want, "error.") {
		t.Fatalf("the evicted websocket ended with %v, want a close frame 1013 %q", err, want)
	}
	free()
	if code, body := busy.answer(t); code != 200 || body != "held" {
		t.Fatalf("the request in flight: %d %s", code, body)
	}
	if err := ui.Write(context.Background(), websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":7,"method":"app.info"}`)); err != nil {
		t.Fatal(err)
	}
	if r, ok := <-uiMsgs; !ok || !strings.Contains(string(r.ID), `"id":7`) {
		t.Fatalf("the reading websocket: %s %v", r.ID, ok)
	}
}

// A close frame's reason holds 123 bytes: a longer message is cut there, never inside a
// character (a Chinese reason cut mid-character is not UTF-8, and the peer fails the close).
func TestCloseReasonFitsAFrame(t *testing.T) {
	for _, msg := range []string{"", "short", strings.Repeat("a", 123), strings.Repeat("a", 200),
		strings.Repeat("连", 41), strings.Repeat("连", 42), "a" + strings.Repeat("连", 60), "ab" + strings.Repeat("连", 60)} {
		got := closeReason(msg)
		if len(got) > 123 || !utf8.ValidString(got) || !strings.HasPrefix(msg, got) || (len(msg) <= 123 && got != msg) || len(got) < min(len(msg), 121) {
			t.Errorf("closeReason(%d bytes) = %d bytes %q", len(msg), len(got), got)
		}
	}
}
