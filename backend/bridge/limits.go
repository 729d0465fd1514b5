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
// process runs out.
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
		if l.s.open.Add(1) <= int64(l.s.cfg.MaxConns) {
			if l.s.onAccept != nil {
				l.s.onAccept(c)
			}
			return &countedConn{Conn: c, s: l.s}, nil
		}
		l.s.open.Add(-1)
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
