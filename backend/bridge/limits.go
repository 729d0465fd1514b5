package bridge

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// capListener counts open connections across the bridge's listeners and answers the ones
// beyond MaxConns with 503 instead of handing them to the server: idle keep-alives and quiet
// websockets hold a file descriptor each, and a local process could open them until the
// process runs out. At the cap, a keep-alive connection waiting for its next request is
// closed to make room first (evictIdle): a local process that filled the cap with idle
// keep-alives locked the person's own browser and agents out for as long as IdleTimeout.
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
		if l.s.takeSlot() || (l.s.evictIdle() && l.s.takeSlot()) {
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

// connState notes which connections sit idle between keep-alive requests (the server's
// ConnState hook): only those may be closed to make room. A connection reading or answering a
// request is active, a websocket is hijacked, and neither is ever in the idle set.
func (s *Server) connState(c net.Conn, st http.ConnState) {
	if cc, ok := c.(*countedConn); ok {
		s.idleMu.Lock()
		if st == http.StateIdle {
			s.idle[cc] = time.Now()
		} else {
			delete(s.idle, cc)
		}
		s.idleMu.Unlock()
	}
	if s.onConnState != nil {
		s.onConnState(c, st)
	}
}

// evictIdle closes the keep-alive connection idle the longest, reporting whether there was
// one; its slot is free when it returns. A request that reaches it just as it closes fails as
// one reaching a connection IdleTimeout closes does (HTTP clients send it again on a new one).
func (s *Server) evictIdle() bool {
	s.idleMu.Lock()
	var oldest *countedConn
	var since time.Time
	for c, t := range s.idle {
		if oldest == nil || t.Before(since) {
			oldest, since = c, t
		}
	}
	delete(s.idle, oldest)
	s.idleMu.Unlock()
	if oldest == nil {
		return false
	}
	s.cfg.Logger.Debug("bridge: at the connection cap; closed an idle keep-alive connection", "remote", oldest.RemoteAddr())
	_ = oldest.Close()
	return true
}

// countedConn gives its slot back when closed, however many times Close is called (the
// server and a hijacked websocket both may).
type countedConn struct {
	net.Conn
	s    *Server
	once sync.Once
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.s.open.Add(-1) })
	return err
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
