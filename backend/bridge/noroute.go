package bridge

import (
	"net/http"
	"strings"
	"unicode/utf8"
)

// What the route table has no handler for was answered by the mux in English plain text
// ("Method Not Allowed", 405, for a POST anywhere but /mcp, an OPTIONS of /mcp), and a GET of
// any path by the web UI's index.html with 200 — also for an MCP client set up for the older
// HTTP+SSE transport (`"type": "sse"`, `http://127.0.0.1:47821/sse`), which read a web page
// where it wanted its event stream and failed with a parse error of its own. Both are now
// refused in the person's language, naming /mcp.

// handleNoRoute answers a request no route takes: a method /mcp does not take (405, with
// Allow), anything else (404).
func (s *Server) handleNoRoute(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/mcp":
		w.Header().Set("Allow", "GET, POST, DELETE")
		s.httpError(w, http.StatusMethodNotAllowed, "mcp_method_not_allowed", map[string]any{"Method": r.Method})
		return
	}
	s.noRoute(w, r)
}

// noRoute refuses r as naming nothing this bridge serves, and says where MCP is.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	for len(p) > 200 {
		_, size := utf8.DecodeLastRuneInString(p)
		p = p[:len(p)-size]
	}
	s.httpError(w, http.StatusNotFound, "bridge_no_route", map[string]any{"Method": r.Method, "Path": p})
}

// wantsEventStream reports whether r is a client asking for an event stream (its Accept takes
// text/event-stream and not a page): not a browser opening the web UI.
func wantsEventStream(r *http.Request) bool {
	accept := strings.Join(r.Header.Values("Accept"), ",")
	return acceptsAny(accept, "text/event-stream") && !acceptsAny(accept, "text/html", "*/*")
}
