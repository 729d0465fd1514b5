package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"engram/backend/api"
	"engram/backend/bridge/jsonrpc"
)

// client is one websocket connection: a reader loop that dispatches requests, and exactly
// one writer goroutine that owns every write to the socket, fed by a bounded queue.
type client struct {
	id   int64
	s    *Server
	conn *websocket.Conn
	// tcp is the connection's slot, marked stalled while a write or ping waits on the peer
	// (nil when not accepted by a capListener).
	tcp       *countedConn
	ctx       context.Context
	cancel    context.CancelFunc
	out       chan outMsg
	sem       chan struct{}
	remote    string
	userAgent string
	// token is the one this connection was accepted with; once the bridge's token is another
	// (regenerated, here or by another process), the connection is revoked (current).
	token     string
	connected time.Time
	requests  atomic.Int64
	lastRead  atomic.Int64 // unix nanos of the last message received
	received  atomic.Int64 // messages read
	refusals  atomic.Int64 // rate-limit replies queued and not yet written
	// suppressed counts rate-limit replies left out because the budget was spent.
	suppressed atomic.Int64
	dropOnce   sync.Once

	mu      sync.Mutex
	filter  map[string]bool // nil: every event
	tokens  float64
	lastTok time.Time
}

func (c *client) info() ClientInfo {
	return ClientInfo{ID: c.id, RemoteAddr: c.remote, UserAgent: c.userAgent, ConnectedAt: c.connected, Requests: c.requests.Load()}
}

func (c *client) wants(event string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.filter == nil || c.filter[event]
}

// allow is a token bucket: RatePerSec refill, Burst capacity.
func (c *client) allow() bool { return c.allowN(1) }

// allowN takes n tokens at once (a JSON-RPC batch pays for every call in it).
func (c *client) allowN(n int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	c.tokens += now.Sub(c.lastTok).Seconds() * c.s.cfg.RatePerSec
	if c.tokens > float64(c.s.cfg.Burst) {
		c.tokens = float64(c.s.cfg.Burst)
	}
	c.lastTok = now
	if c.tokens < float64(n) {
		return false
	}
	c.tokens -= float64(n)
	return true
}

// outMsg is one message for the writer; refusal marks a rate-limit reply.
type outMsg struct {
	b       []byte
	refusal bool
}

// send queues b without ever blocking: a client that cannot keep up is dropped so it cannot
// hold back events for everyone else.
func (c *client) send(b []byte) {
	select {
	case <-c.ctx.Done():
	case c.out <- outMsg{b: b}:
	default:
		c.drop("slow client")
	}
}

// refuse answers a request the rate limit turned away, within RefusalBudget replies waiting
// to be written. A flooding client reads its replies slower than it sends; past the budget
// its refused requests get no reply at all rather than filling the queue, which would drop
// the connection and the answers to its accepted calls with it.
func (c *client) refuse(data []byte) {
	if c.refusals.Add(1) > int64(c.s.cfg.RefusalBudget) {
		c.refusals.Add(-1)
		c.suppressed.Add(1)
		return
	}
	b, _ := json.Marshal(c.errorResponse(idOf(data), rpcRateLimited, "bridge_rate_limited", nil))
	select {
	case c.out <- outMsg{b: b, refusal: true}:
	default: // the queue is full of real answers: leave this one out, never drop the client
		c.refusals.Add(-1)
		c.suppressed.Add(1)
	}
}

func (c *client) drop(reason string) {
	c.dropOnce.Do(func() {
		c.s.cfg.Logger.Info("bridge: dropping client", "id", c.id, "reason", reason)
		c.cancel()
		go c.conn.Close(websocket.StatusPolicyViolation, reason)
	})
}

// closeWith closes the connection with code and reason (the peer's words), the close frame
// written before the connection's context ends: a cancelled read or write closes the socket
// at once, and the frame raced it (drop's does). It waits for the close handshake, within
// the library's own bounds.
func (c *client) closeWith(code websocket.StatusCode, reason, why string) {
	first := false
	c.dropOnce.Do(func() { first = true }) // not held across the handshake: drop returns at once
	if !first {
		return
	}
	c.s.cfg.Logger.Info("bridge: dropping client", "id", c.id, "reason", why)
	_ = c.conn.Close(code, reason)
	c.cancel()
}

func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	if !s.originAllowed(r.Header.Get("Origin"), r.Host) {
		s.httpError(w, 403, "bridge_bad_origin", map[string]any{"Origin": r.Header.Get("Origin")})
		return
	}
	tok := s.Token()
	if got := requestToken(r); !tokenEqual(got, tok) {
		s.httpError(w, 401, s.refusalCode(got, "bridge_unauthorized"), nil)
		return
	}
	if s.handshakeRefused(w, r) {
		return
	}
	s.conns.Add(1)
	defer s.conns.Done()
	// Origin was checked above against this bridge's own hosts.
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	defer conn.CloseNow() // the connection's slot is free once the handler is done
	conn.SetReadLimit(s.cfg.MaxMessage)
	if s.beforeRegister != nil {
		s.beforeRegister()
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{s: s, conn: conn, tcp: connOf(r), ctx: ctx, cancel: cancel, out: make(chan outMsg, s.cfg.SendQueue),
		sem: make(chan struct{}, s.cfg.Concurrency), remote: r.RemoteAddr, userAgent: r.UserAgent(), token: tok,
		connected: time.Now(), tokens: float64(s.cfg.Burst), lastTok: time.Now()}
	if c.tcp != nil {
		c.tcp.ws.Store(c)
	}
	s.mu.Lock()
	s.nextID++
	c.id = s.nextID
	s.clients[c.id] = c
	n := len(s.clients)
	s.mu.Unlock()
	// A token replaced between the check above and this registration (another process's
	// regenerate, seen by a concurrent handshake) dropped every client registered then, but
	// not this one: it was accepted with the old token and is closed here.
	if s.token.Load().(string) != tok {
		c.drop("token regenerated")
	}
	s.clientsChanged(n)
	defer func() {
		s.mu.Lock()
		delete(s.clients, c.id)
		n := len(s.clients)
		s.mu.Unlock()
		cancel()
		s.clientsChanged(n)
	}()
	go c.writer()
	c.reader()
}

// clientsChanged tells every window (Settings → Remote access) that the client list moved.
func (s *Server) clientsChanged(n int) {
	if s.hub != nil {
		s.hub.Publish(api.EventRemoteChanged, map[string]any{"clients": n})
	}
}

func (c *client) writer() {
	every := c.s.cfg.PingInterval
	ping := time.NewTicker(every)
	defer ping.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case m := <-c.out:
			wctx, cancel := context.WithTimeout(c.ctx, 10*time.Second)
			c.waiting(true)
			err := c.conn.Write(wctx, websocket.MessageText, m.b)
			c.waiting(false)
			cancel()
			if m.refusal {
				c.refusals.Add(-1)
			}
			if err != nil {
				c.drop("write failed")
				return
			}
		case <-ping.C:
			// A token replaced by another process (`engram bridge token --regenerate`) is
			// noticed here too, so a connection that only listens is closed as well.
			if !c.current(c.s.liveToken()) {
				return
			}
			// A client that is talking is alive; probe only quiet ones. A browser answers a
			// ping by itself, so an idle UI stays; a peer that holds the socket open without
			// answering is closed. A busy reader may take a while to reach the pong, so the
			// probe is patient.
			if time.Since(time.Unix(0, c.lastRead.Load())) < every {
				continue
			}
			pctx, cancel := context.WithTimeout(c.ctx, c.s.cfg.PongTimeout)
			c.waiting(true)
			err := c.conn.Ping(pctx)
			c.waiting(false)
			cancel()
			if c.s.onPing != nil {
				c.s.onPing(c.id, err)
			}
			if err != nil {
				c.drop("ping failed")
				return
			}
		}
	}
}

// current reports whether the connection's token is still the bridge's (tok, its token now),
// dropping it when not. It is asked on every message, event and ping (with liveToken, which
// looks at the file once a second): a connection made with a token the person replaced from
// the CLI kept working, and kept hearing every event, until some other client happened to
// connect and the bridge noticed.
func (c *client) current(tok string) bool {
	if tokenEqual(c.token, tok) {
		return true
	}
	c.drop("token regenerated")
	return false
}

// waiting marks the connection as waiting on its peer (a write or a ping under way) or not:
// at the connection cap, the websocket waiting the longest is closed to make room when nothing
// cheaper is (evictStalled), so clients that stop reading cannot hold the cap until their
// write or pong times out.
func (c *client) waiting(on bool) {
	if c.tcp == nil {
		return
	}
	if on {
		c.s.markStalled(c.tcp, stallWebsocket)
	} else {
		c.s.unmarkStalled(c.tcp)
	}
}

func (c *client) reader() {
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		typ, data, err := c.conn.Read(c.ctx)
		c.lastRead.Store(time.Now().UnixNano())
		if err != nil {
			// Too-large messages end here: the library has already closed with 1009.
			c.cancel()
			return
		}
		c.received.Add(1)
		if !c.current(c.s.liveToken()) {
			return // revoked: nothing it sends is run any more
		}
		// Every message pays, binary ones too: each reply below is then bounded by the
		// rate, and refusals by their budget.
		if !c.allow() {
			c.refuse(data)
			continue
		}
		if typ != websocket.MessageText {
			c.sendError(nil, rpcInvalidRequest, "bridge_binary_message", nil)
			continue
		}
		c.requests.Add(1)
		select {
		case c.sem <- struct{}{}:
		case <-c.ctx.Done():
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-c.sem }()
			if out := c.handle(data); out != nil {
				c.send(out)
			}
		}()
	}
}

// idOf digs the id out of a request so even a refused one gets a matching response.
func idOf(data []byte) json.RawMessage {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(data, &probe) != nil || !validID(probe.ID) {
		return nil
	}
	return probe.ID
}

// validID: see jsonrpc.ValidID.
func validID(id json.RawMessage) bool { return jsonrpc.ValidID(id) }

func (c *client) sendError(id json.RawMessage, code int, key string, args map[string]any) {
	b, _ := json.Marshal(c.errorResponse(id, code, key, args))
	c.send(b)
}

func (c *client) errorResponse(id json.RawMessage, code int, key string, args map[string]any) rpcResponse {
	e := c.s.api.Error(key, args)
	return rpcResponse{JSONRPC: "2.0", ID: nullID(id), Error: &rpcError{Code: code, Message: e.Message, Data: e}}
}

// handle answers one message: a request, a notification, or a batch of them. Reading the
// message (batch, version, id, method) is jsonrpc's; what runs is the api table's.
func (c *client) handle(data []byte) []byte {
	items, batch, p := jsonrpc.Split(data, maxBatch)
	if p != nil {
		b, _ := json.Marshal(c.errorResponse(p.ID, p.Code, p.Key, p.Args))
		return b
	}
	if batch {
		// The message already paid for one call; the rest of the batch pays too.
		if !c.allowN(len(items) - 1) {
			b, _ := json.Marshal(c.errorResponse(nil, rpcRateLimited, "bridge_rate_limited", nil))
			return b
		}
		var out []rpcResponse
		for _, item := range items {
			if r, ok := c.one(item); ok {
				out = append(out, r)
			}
		}
		if len(out) == 0 {
			return nil
		}
		b, _ := json.Marshal(out)
		return b
	}
	r, ok := c.one(items[0])
	if !ok {
		return nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		b, _ = json.Marshal(c.errorResponse(r.ID, rpcInternal, "internal", map[string]any{"Detail": err.Error()}))
	}
	return b
}

// maxBatch is the most calls one message may carry.
const maxBatch = 50

// one runs a single request; ok is false for notifications (no id), which get no response.
func (c *client) one(data []byte) (rpcResponse, bool) {
	req, p := jsonrpc.Decode(data)
	if p != nil {
		return c.errorResponse(p.ID, p.Code, p.Key, p.Args), true
	}
	notify := len(req.ID) == 0
	res, err := c.dispatch(req)
	if notify {
		return rpcResponse{}, false
	}
	if err != nil {
		var ae *api.Error
		if !errors.As(err, &ae) {
			ae = c.s.api.Error("internal", map[string]any{"Detail": err.Error()})
		}
		return rpcResponse{JSONRPC: "2.0", ID: req.ID, Error: &rpcError{Code: rpcCodeFor(ae), Message: ae.Message, Data: ae}}, true
	}
	if res == nil {
		res = struct{}{}
	}
	return rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: res}, true
}

// dispatch runs the protocol's own rpc.* methods, else the api table: the allow-list is the
// table itself, so a method exists on the bridge exactly when it exists in api/.
func (c *client) dispatch(req rpcRequest) (any, error) {
	switch req.Method {
	case "rpc.subscribe", "rpc.unsubscribe":
		var p struct {
			Events []string `json:"events"`
		}
		if len(req.Params) > 0 {
			if err := json.Unmarshal(req.Params, &p); err != nil {
				return nil, c.s.api.Error(api.CodeInvalidParams, map[string]any{"Method": req.Method, "Detail": err.Error()})
			}
		}
		// Only events that exist: the filter is per connection and lives as long as it, and
		// made-up names sent by the megabyte grew it without bound.
		for _, e := range p.Events {
			if !slices.Contains(api.EventNames, e) {
				return nil, c.s.api.Error(api.CodeInvalidParams, map[string]any{"Method": req.Method,
					"Detail": "unknown event " + strconv.Quote(truncateRunes(e, 80))})
			}
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if req.Method == "rpc.subscribe" {
			if len(p.Events) == 0 {
				c.filter = nil
			} else {
				if c.filter == nil {
					c.filter = map[string]bool{}
				}
				for _, e := range p.Events {
					c.filter[e] = true
				}
			}
		} else {
			switch {
			case len(p.Events) == 0:
				c.filter = map[string]bool{}
			case c.filter == nil:
				// Subscribed to everything: keep everything known but the listed events.
				c.filter = map[string]bool{}
				for _, e := range api.EventNames {
					c.filter[e] = true
				}
				fallthrough
			default:
				for _, e := range p.Events {
					delete(c.filter, e)
				}
			}
		}
		return map[string]any{"ok": true}, nil
	case "rpc.methods":
		names := []string{}
		for _, m := range c.s.api.Methods() {
			names = append(names, m.Name)
		}
		return map[string]any{"methods": names}, nil
	}
	return c.s.api.Call(req.Method, req.Params)
}

// truncateRunes cuts s to at most n runes, marking a cut with "…".
func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
