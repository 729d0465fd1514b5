package mcp

import (
	"net/http"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionTimeout is how long an HTTP session may sit idle before it is closed.
const sessionTimeout = 30 * time.Minute

// The streamable HTTP transport asks a client to accept both application/json and
// text/event-stream, and the SDK refuses a POST that accepts only JSON with a 400. Clients that
// do exactly that exist (simple scripts, older SDKs, some agent CLIs' HTTP modes), and one
// that cannot read an event stream would not understand an answer in one anyway: such a
// client is served by a second handler that answers every POST with plain application/json,
// and keeps talking to it for the rest of its session.

// httpHandler routes each request to the handler that speaks what its client accepts.
type httpHandler struct {
	stream, plain http.Handler

	mu    sync.Mutex
	owned map[string]time.Time // sessions the plain handler started, and when last used
}

// Handler serves streamable HTTP sessions. The caller (the bridge) checks the token, Host and
// Origin before a request reaches it.
func (s *Server) Handler() http.Handler {
	opts := func(plain bool) *sdk.StreamableHTTPOptions {
		return &sdk.StreamableHTTPOptions{SessionTimeout: sessionTimeout, Logger: s.cfg.Logger,
			MaxRequestBodyBytes: 1 << 20, JSONResponse: plain}
	}
	get := func(*http.Request) *sdk.Server { return s.srv }
	return &httpHandler{
		stream: sdk.NewStreamableHTTPHandler(get, opts(false)),
		plain:  sdk.NewStreamableHTTPHandler(get, opts(true)),
		owned:  map[string]time.Time{},
	}
}

// sessionHeader names the session a request belongs to (the transport's header).
const sessionHeader = "Mcp-Session-Id"

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && len(r.Header.Values("Accept")) == 0 {
		r.Header.Set("Accept", "text/event-stream") // no Accept takes anything; a GET is the stream
	}
	id := r.Header.Get(sessionHeader)
	switch {
	case id != "" && h.touch(id, r.Method == http.MethodDelete):
		if r.Method == http.MethodPost {
			r.Header.Set("Accept", "application/json, text/event-stream")
		}
		h.plain.ServeHTTP(w, r)
	case r.Method == http.MethodPost && jsonOnly(r.Header.Values("Accept")):
		// A new client, or one whose session has ended (the plain handler says so, in JSON).
		r.Header.Set("Accept", "application/json, text/event-stream")
		h.plain.ServeHTTP(&sessionCatcher{ResponseWriter: w, h: h}, r)
	default:
		h.stream.ServeHTTP(w, r)
	}
}

// touch reports whether the plain handler owns session id, marking it used (or forgetting it
// when the client ends it).
func (h *httpHandler) touch(id string, ending bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.owned[id]; !ok {
		return false
	}
	if ending {
		delete(h.owned, id)
	} else {
		h.owned[id] = time.Now()
	}
	return true
}

// own records a session the plain handler started, forgetting those idle past the timeout
// (the SDK has closed them): the map stays as small as the open sessions.
func (h *httpHandler) own(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := time.Now()
	for k, t := range h.owned {
		if now.Sub(t) > sessionTimeout {
			delete(h.owned, k)
		}
	}
	h.owned[id] = now
}

// jsonOnly reports an Accept header that takes JSON and no event stream (the SDK reads
// "*/*", "application/*" and "text/*" the same way), or none at all: HTTP reads a request
// without one as taking anything, the SDK as taking nothing.
func jsonOnly(values []string) bool {
	if len(values) == 0 {
		return true
	}
	json, stream := false, false
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			base, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				json = true
			case "text/event-stream", "text/*", "*/*":
				stream = true
			}
		}
	}
	return json && !stream
}

// sessionCatcher notes the session the plain handler's answer to an initialize opens.
type sessionCatcher struct {
	http.ResponseWriter
	h    *httpHandler
	done bool
}

func (c *sessionCatcher) WriteHeader(code int) {
	if !c.done {
		c.done = true
		if id := c.Header().Get(sessionHeader); id != "" && code < 300 {
			c.h.own(id)
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
