package bridge

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// capListener counts open connections across the bridge's listeners and answers the ones
// beyond MaxConns with 503 instead of handing them to the server: idle keep-alives and quiet
// websockets hold a file descriptor each, and a local process could open them until the
// process runs out. At the cap, a connection that is holding its slot without moving is
// closed to make room first (evictStalled): a local process that filled the cap with idle
// keep-alives, with requests it never finished, or with websockets it stopped reading locked
// the person's own browser and agents out for as long as the timeouts let it.
type capListener struct {
	net.Listener
	s *Server
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.s.takeSlot() || (l.s.evictStalled() && l.s.takeSlot()) {
			if l.s.onAccept != nil {
				l.s.onAccept(c)
			}
			return &countedConn{Conn: c, s: l.s}, nil
		}
		select {
		case l.s.refusers <- struct{}{}:
			go func() {
				defer func() { <-l.s.refusers }()
				l.s.refuseBusy(c)
			}()
		default:
			// Already answering many refusals: this one is just closed.
			c.Close()
		}
	}
}

// takeSlot counts one more open connection, reporting whether it fits under MaxConns.
func (s *Server) takeSlot() bool {
	if s.open.Add(1) <= int64(s.cfg.MaxConns) {
		return true
	}
	s.open.Add(-1)
	return false
}

// stallKind is why a connection may be closed to make room at the cap, in the order they are
// closed: the cheapest for its owner to redo first.
type stallKind int

const (
	// stallIdle: a keep-alive connection between requests (a client sends its next request on
	// a new connection, as when IdleTimeout closes it).
	stallIdle stallKind = iota
	// stallHeaders: accepted, and its first request not read in full. A slowloris client
	// dribbles headers and starts again at ReadHeaderTimeout; the oldest such connection is
	// the one that has been stalled the longest, a browser's own finishes in a moment.
	stallHeaders
	// stallWebsocket: a websocket whose peer has not taken a message written to it, or not
	// answered a ping, yet (it stopped reading). One that reads is marked only for the moment
	// a write takes.
	stallWebsocket
)

// defaultStallGrace is how long headers or a websocket write may wait on the client before
// the connection counts as stalled (Server.stallGrace).
const defaultStallGrace = time.Second

// stall is what a connection is waiting for, and since when.
type stall struct {
	kind  stallKind
	since time.Time
}

// connState notes which connections wait on their client (the server's ConnState hook): only
// those may be closed to make room. A connection answering a request is active, a websocket
// is hijacked (its writer marks it while a write or ping waits, markStalled), and neither is
// in the stalled set otherwise.
func (s *Server) connState(c net.Conn, st http.ConnState) {
	if cc, ok := c.(*countedConn); ok {
		switch st {
		case http.StateIdle:
			s.markStalled(cc, stallIdle)
		case http.StateNew:
			s.markStalled(cc, stallHeaders)
		default:
			s.unmarkStalled(cc)
		}
	}
	if s.onConnState != nil {
		s.onConnState(c, st)
	}
}

// markStalled notes that cc now waits on its client for kind's reason. A connection already
// closed is left out: it holds no slot, and closing it again would free none.
func (s *Server) markStalled(cc *countedConn, kind stallKind) {
	s.stalledMu.Lock()
	if !cc.closed.Load() {
		s.stalled[cc] = stall{kind: kind, since: time.Now()}
	}
	s.stalledMu.Unlock()
}

// unmarkStalled notes that cc no longer waits on its client.
func (s *Server) unmarkStalled(cc *countedConn) {
	s.stalledMu.Lock()
	delete(s.stalled, cc)
	s.stalledMu.Unlock()
}

// evictStalled closes the connection that has waited on its client the longest, of the first
// kind that has one (stallKind's order), reporting whether there was one. Headers and
// websocket writes count once they have waited stallGrace: a client that reads and sends
// takes far less, so a browser opening a connection or taking an event is never the one
// closed. The slot is free when it returns. A request that reaches it just as it closes fails
// as one reaching a connection a timeout closes does (HTTP clients send it again on a new
// one; the web UI reconnects its websocket).
func (s *Server) evictStalled() bool {
	now := time.Now()
	s.stalledMu.Lock()
	var oldest *countedConn
	var best stall
	for c, st := range s.stalled {
		if st.kind != stallIdle && now.Sub(st.since) < s.stallGrace {
			continue // a client in the middle of sending its headers or taking a write
		}
		if oldest == nil || st.kind < best.kind || (st.kind == best.kind && st.since.Before(best.since)) {
			oldest, best = c, st
		}
	}
	delete(s.stalled, oldest)
	s.stalledMu.Unlock()
	if oldest == nil {
		return false
	}
	s.cfg.Logger.Debug("bridge: at the connection cap; closed a connection waiting on its client", "remote", oldest.RemoteAddr(),
		"kind", int(best.kind), "since", best.since)
	if c := oldest.ws.Load(); c != nil {
		s.evictWebsocket(c, oldest)
		return true
	}
	_ = oldest.Close()
	return true
}

// defaultEvictCloseWait is how long an evicted websocket's close frame may take before its
// socket is closed without it (Server.evictCloseWait).
const defaultEvictCloseWait = time.Second

// evictWebsocket frees c's slot at once and closes it with a close frame saying why (1013, try
// again later, and the translated reason), which the browser's socket was never sent: the
// socket was just cut. The frame is written on its own goroutine, so a peer that reads nothing
// cannot hold up the connection that is let in; after evictCloseWait (or at once, when
// maxClosing evictions are already being closed) the socket is closed without it.
func (s *Server) evictWebsocket(c *client, cc *countedConn) {
	cc.release()
	select {
	case s.closing <- struct{}{}:
	default:
		_ = cc.Conn.Close()
		return
	}
	reason := closeReason(s.api.Error("bridge_ws_evicted", nil).Message)
	go func() {
		defer func() { <-s.closing }()
		cut := time.AfterFunc(s.evictCloseWait, func() { _ = cc.Conn.Close() })
		defer cut.Stop()
		c.closeWith(websocket.StatusTryAgainLater, reason, "evicted at the connection cap")
		_ = cc.Conn.Close()
	}()
}

// closeReason cuts msg to what a close frame carries (123 bytes), at a character boundary.
func closeReason(msg string) string {
	const max = 123
	if len(msg) <= max {
		return msg
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut]
}

// countedConn gives its slot back when closed, however many times Close is called (the
// server and a hijacked websocket both may).
type countedConn struct {
	net.Conn
	s      *Server
	once   sync.Once
	closed atomic.Bool // set before it leaves the stalled set for good
	// ws is the websocket served on it, once upgraded (evictWebsocket closes it with a frame).
	ws atomic.Pointer[client]
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}

// release gives the slot back (once), the socket itself left to whoever closes it.
func (c *countedConn) release() {
	c.once.Do(func() {
		c.closed.Store(true)
		c.s.unmarkStalled(c)
		c.s.open.Add(-1)
	})
}

// connKey carries a request's connection in its context (the server's ConnContext), so a
// websocket's writer can mark its own connection stalled.
type connKey struct{}

func withConn(ctx context.Context, c net.Conn) context.Context {
	if cc, ok := c.(*countedConn); ok {
		return context.WithValue(ctx, connKey{}, cc)
	}
	return ctx
}

// connOf is the request's connection, nil when it was not accepted by a capListener.
func connOf(r *http.Request) *countedConn {
	cc, _ := r.Context().Value(connKey{}).(*countedConn)
	return cc
}

// openConns is the number of connections holding a slot.
func (s *Server) openConns() int64 { return s.open.Load() }

// refuseBusy reads the request (closing with it unread would reset the connection before the
// client reads the answer), answers 503 with the translated reason, and closes.
func (s *Server) refuseBusy(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if req, err := http.ReadRequest(bufio.NewReader(io.LimitReader(c, 16<<10))); err == nil && req.Body != nil {
		req.Body.Close()
	}
	body, _ := json.Marshal(s.api.Error("bridge_too_many_connections", map[string]any{"Max": s.cfg.MaxConns}))
	fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"+
		"X-Content-Type-Options: nosniff\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		_ = tc.CloseWrite()
		_, _ = io.Copy(io.Discard, io.LimitReader(c, 64<<10))
	}
}
