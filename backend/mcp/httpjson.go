package mcp

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"engram/backend/api"
)

// sessionTimeout is how long an HTTP session may sit idle — no request of it running, its
// event stream (GET) included — before it is closed. A var so tests can shorten it.
//
// The SDK's own idle timer counts only POSTs, so a client holding its event stream open and
// quiet for half an hour (a person away from an agent) had its session closed under it, and
// most clients (Claude Code, the TypeScript SDK) do not start a new one on the 404 that
// follows: every later call failed. The router keeps the time instead (reap).
var sessionTimeout = 30 * time.Minute

// The streamable HTTP transport asks a client to accept both application/json and
// text/event-stream, and the SDK refuses a POST that accepts only JSON with a 400. Clients that
// do exactly that exist (simple scripts, older SDKs, some agent CLIs' HTTP modes), and one
// that cannot read an event stream would not understand an answer in one anyway: such a
// client is served by a second handler that answers every POST with plain application/json,
// and keeps talking to it for the rest of its session. The two handlers keep their sessions
// apart, so each session is routed to the one that opened it; a request whose Accept does not
// take what its session answers with is refused in words (406), not sent to the other
// handler, which would answer 404 — and a 404 tells a client its session is gone.

// httpHandler routes each request to the handler that speaks what its client accepts, after
// checking its JSON-RPC (httpcheck.go).
type httpHandler struct {
	s             *Server
	stream, plain http.Handler

	mu    sync.Mutex
	owned map[string]session4HTTP // the open sessions, by id: which handler serves each
	// reviveMu lets one request at a time revive a session (httprevive.go).
	reviveMu sync.Mutex
	// ended are the sessions their clients ended (DELETE), here or before a restart
	// (ended.go): never revived, so a request naming one is answered 404 as the spec wants.
	ended *endedBook
}

// session4HTTP is one open session as the router knows it.
type session4HTTP struct {
	plain   bool   // answered in plain JSON (it was opened accepting only JSON)
	version string // the protocol version its initialize negotiated
	used    time.Time
	running int // its requests being served (an open event stream is one)
	// sdkID is the id the SDK knows it by: the client's is the signed one this handler gave
	// it (sessionid.go), or the SDK's own when there is no key to sign with.
	sdkID string
}

// Handler serves streamable HTTP sessions. The caller (the bridge) checks the token, Host and
// Origin before a request reaches it.
func (s *Server) Handler() http.Handler {
	opts := func(plain bool) *sdk.StreamableHTTPOptions {
		// No SessionTimeout: the router closes idle sessions (reap), counting open streams.
		return &sdk.StreamableHTTPOptions{Logger: s.cfg.Logger,
			MaxRequestBodyBytes: maxHTTPBody, JSONResponse: plain}
	}
	get := func(*http.Request) *sdk.Server { return s.srv }
	return &httpHandler{
		s:      s,
		stream: sdk.NewStreamableHTTPHandler(get, opts(false)),
		plain:  sdk.NewStreamableHTTPHandler(get, opts(true)),
		owned:  map[string]session4HTTP{},
		ended:  newEndedBook(s.cfg.Home, s.cfg.Logger),
	}
}

// sessionHeader names the session a request belongs to (the transport's header).
const sessionHeader = "Mcp-Session-Id"

// bothTypes is the Accept the SDK's handlers require of a POST.
const bothTypes = "application/json, text/event-stream"

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodPost, http.MethodDelete:
	default:
		// The SDK answers "Method Not Allowed" in English plain text.
		w.Header().Set("Allow", "GET, POST, DELETE")
		h.refuse(w, http.StatusMethodNotAllowed, "mcp_method_not_allowed", map[string]any{"Method": r.Method})
		return
	}
	if r.Method == http.MethodGet && len(r.Header.Values("Accept")) == 0 {
		r.Header.Set("Accept", "text/event-stream") // no Accept takes anything; a GET is the stream
	}
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" && !slices.Contains(protocolVersions, v) && v < firstStatelessVersion {
		// The SDK refuses it in English plain text; the same refusal in the person's language,
		// naming the versions this server speaks (the ones it hands the SDK).
		h.refuse(w, http.StatusBadRequest, "mcp_protocol_version", map[string]any{"Version": v,
			"Supported": strings.Join(protocolVersions, ", ")})
		return
	}
	id := r.Header.Get(sessionHeader)
	if id == "" && r.Method != http.MethodPost {
		// A GET (the event stream) or DELETE (the end) names its session; the SDK refuses one
		// that does not in English plain text.
		h.refuse(w, http.StatusBadRequest, "mcp_session_required", nil)
		return
	}
	// An id is this server's only when its signature verifies (sessionid.go); one that does
	// not is no session, whatever this process holds under it (its token was regenerated).
	key := api.SessionKey(r.Context())
	var claims sessionClaims
	signed := false
	if id != "" && len(key) > 0 {
		if claims, signed = readSessionID(key, id); !signed {
			h.revoke(id)
			h.refuse(w, http.StatusNotFound, "mcp_session_not_found", map[string]any{"Session": id})
			return
		}
	}
	known, sess := h.touch(id, r.Method == http.MethodDelete)
	var post posted
	checked := false
	if id != "" && !known && r.Method == http.MethodPost {
		// Checked first: a request that is refused anyway revives nothing.
		if checked, post = h.checkPost(w, r, id); !checked {
			return
		}
	}
	if id != "" && !known && r.Method != http.MethodDelete && !post.initialize && signed && h.revive(r, id, claims) {
		known, sess = h.touch(id, false)
	}
	if id != "" && !known && r.Method == http.MethodDelete && signed {
		if h.endUnheld(id) {
			w.WriteHeader(http.StatusNoContent) // as the SDK answers the end of a live session
			return
		}
		known, sess = h.touch(id, true) // revived meanwhile: it ends as a held one does
	}
	if id != "" && !known {
		// A session that never was and cannot be revived (its end, an initialize naming it, an
		// id without a key to verify it):
		// the SDK says "session not found" in English plain text. The 404 tells the client
		// to start a new one.
		h.refuse(w, http.StatusNotFound, "mcp_session_not_found", map[string]any{"Session": id})
		return
	}
	if known && sess.sdkID != "" && sess.sdkID != id {
		// A revived session: the SDK knows it by its own id; what the client saw on the
		// process before the restart means nothing here.
		r.Header.Set(sessionHeader, sess.sdkID)
		r.Header.Del(lastEventIDHeader)
	}
	if known {
		w = &sessionGone{ResponseWriter: w, h: h, id: id}
		if r.Method != http.MethodDelete {
			defer h.release(id)
		}
	}
	if r.Method != http.MethodPost {
		if known && sess.plain {
			h.plain.ServeHTTP(w, r)
		} else {
			h.stream.ServeHTTP(w, r)
		}
		return
	}
	if !checked {
		var ok bool
		if ok, post = h.checkPost(w, r, id); !ok {
			return
		}
	}
	if len(post.apart) > 0 {
		m := newBatchMerger(w, post.apart)
		defer m.finish()
		w = m
	}
	takesJSON, takesStream := accepts(r.Header.Values("Accept"))
	accept := strings.Join(r.Header.Values("Accept"), ", ")
	switch {
	case known && sess.plain && !takesJSON:
		h.refuse(w, http.StatusNotAcceptable, "mcp_session_json", map[string]any{"Accept": accept})
	case known && sess.plain:
		r.Header.Set("Accept", bothTypes)
		h.plain.ServeHTTP(w, r)
	case known && !takesStream:
		// The session answers as an event stream, which this request does not take. It is
		// alive: a 404 would tell the client to start again.
		h.refuse(w, http.StatusNotAcceptable, "mcp_session_streams", map[string]any{"Accept": accept})
	case !takesJSON && !takesStream:
		h.refuse(w, http.StatusNotAcceptable, "mcp_not_acceptable", map[string]any{"Accept": accept})
	case id != "":
		// A live session that streams (or one the SDK has just closed: sessionGone).
		r.Header.Set("Accept", bothTypes)
		if takesStream {
			h.stream.ServeHTTP(w, r)
		} else {
			h.plain.ServeHTTP(w, r)
		}
	case !takesStream:
		// A new client that cannot read an event stream: it is answered in plain JSON.
		r.Header.Set("Accept", bothTypes)
		h.plain.ServeHTTP(&sessionCatcher{ResponseWriter: w, h: h, plain: true, version: post.version, key: key, claims: post.claims}, r)
	default:
		// A new client that reads event streams (with JSON, or alone: it is answered in one).
		r.Header.Set("Accept", bothTypes)
		h.stream.ServeHTTP(&sessionCatcher{ResponseWriter: w, h: h, version: post.version, key: key, claims: post.claims}, r)
	}
}

// touch reports whether session id is open and how it is served, counting the request as
// running until release (or forgetting the session when the client ends it). Every request
// also closes the sessions idle past the timeout (reap).
func (h *httpHandler) touch(id string, ending bool) (bool, session4HTTP) {
	defer h.reap()
	if id == "" {
		return false, session4HTTP{}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	sess, ok := h.owned[id]
	if !ok {
		return false, sess
	}
	if ending {
		// Written down before the session leaves owned, under h.mu: a request of it cannot
		// find it neither open nor ended and revive it.
		h.ended.add(id)
		delete(h.owned, id)
	} else {
		sess.used = time.Now()
		sess.running++
		h.owned[id] = sess
	}
	return true, sess
}

// forget drops a session the SDK has closed without its client ending it: a later request
// naming it revives it (httprevive.go).
func (h *httpHandler) forget(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.owned, id)
}

// release ends a request touch counted: the session's idle time starts again from now.
func (h *httpHandler) release(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if sess, ok := h.owned[id]; ok {
		sess.used = time.Now()
		sess.running = max(sess.running-1, 0)
		h.owned[id] = sess
	}
}

// own records a session a handler started: id is the client's, sdkID the SDK's.
func (h *httpHandler) own(id, sdkID string, plain bool, version string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.owned[id] = session4HTTP{plain: plain, version: version, used: time.Now(), sdkID: sdkID}
}

// revoke closes the session id names, if it is open: its id no longer verifies (the bridge
// token was regenerated, and a regenerate revokes).
func (h *httpHandler) revoke(id string) {
	h.mu.Lock()
	sess, ok := h.owned[id]
	delete(h.owned, id)
	h.mu.Unlock()
	if !ok {
		return
	}
	for ss := range h.s.srv.Sessions() {
		if ss.ID() == sess.sdkID {
			go ss.Close()
		}
	}
}

// reap closes the sessions with nothing running, an event stream included, for longer than
// sessionTimeout: their clients have gone without ending them. A session whose client keeps
// its event stream open stays however quiet it is; the map stays as small as the open sessions.
func (h *httpHandler) reap() {
	h.mu.Lock()
	now := time.Now()
	var idle []string
	for id, sess := range h.owned {
		if sess.running == 0 && now.Sub(sess.used) > sessionTimeout {
			idle = append(idle, sess.sdkID)
			delete(h.owned, id)
		}
	}
	h.mu.Unlock()
	if len(idle) == 0 {
		return
	}
	for ss := range h.s.srv.Sessions() {
		if slices.Contains(idle, ss.ID()) {
			go ss.Close() // nothing of it runs; the SDK forgets it as it closes
		}
	}
}

// negotiated is the protocol version session id's initialize negotiated ("" for a session
// this handler does not know).
func (h *httpHandler) negotiated(id string) string {
	if id == "" {
		return ""
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.owned[id].version
}

// accepts reads an Accept header as the SDK does ("*/*", "application/*" and "text/*" take
// what they cover). None at all takes JSON only: HTTP reads a request without one as taking
// anything, the SDK as taking nothing, and a plain JSON answer suits every client.
func accepts(values []string) (takesJSON, takesStream bool) {
	if len(values) == 0 {
		return true, false
	}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			base, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				takesJSON = true
			case "text/event-stream", "text/*":
				takesStream = true
			case "*/*":
				takesJSON, takesStream = true, true
			}
		}
	}
	return takesJSON, takesStream
}

// sessionCatcher notes the session a handler's answer to an initialize opens, and gives its
// client an id signed with key carrying claims (sessionid.go) in place of the SDK's (without a
// key, the SDK's).
type sessionCatcher struct {
	http.ResponseWriter
	h       *httpHandler
	plain   bool
	version string // what the initialize negotiates
	key     []byte
	claims  sessionClaims
	done    bool
}

func (c *sessionCatcher) WriteHeader(code int) {
	if !c.done {
		c.done = true
		if sdkID := c.Header().Get(sessionHeader); sdkID != "" && code < 300 {
			id := sdkID
			if len(c.key) > 0 {
				id = mintSessionID(c.key, c.claims)
				c.Header().Set(sessionHeader, id)
			}
			c.h.own(id, sdkID, c.plain, c.version)
		}
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *sessionCatcher) Write(b []byte) (int, error) {
	if !c.done {
		c.WriteHeader(http.StatusOK)
	}
	return c.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (flushes, deadlines).
func (c *sessionCatcher) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// sessionGone answers in the person's language the SDK's plain-text 404 for a session this
// handler still knew but the SDK has closed, and forgets it; and its 409 for a second event
// stream of one session.
type sessionGone struct {
	http.ResponseWriter
	h    *httpHandler
	id   string
	done bool // the status is written
	gone bool // it was the SDK's 404 or 409: its text is dropped
}

func (g *sessionGone) WriteHeader(code int) {
	if g.done {
		return
	}
	g.done = true
	plain := strings.HasPrefix(g.Header().Get("Content-Type"), "text/plain")
	switch {
	case code == http.StatusNotFound && plain:
		g.gone = true
		g.h.forget(g.id)
		g.h.refuse(g.ResponseWriter, http.StatusNotFound, "mcp_session_not_found", map[string]any{"Session": g.id})
		return
	case code == http.StatusConflict && plain:
		// A second GET while the session's event stream is open (the SDK's "stream ID
		// conflicts with ongoing stream").
		g.gone = true
		g.h.refuse(g.ResponseWriter, http.StatusConflict, "mcp_stream_open", map[string]any{"Session": g.id})
		return
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *sessionGone) Write(b []byte) (int, error) {
	if !g.done {
		g.WriteHeader(http.StatusOK)
	}
	if g.gone {
		return len(b), nil
	}
	return g.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (flushes, deadlines).
func (g *sessionGone) Unwrap() http.ResponseWriter { return g.ResponseWriter }
