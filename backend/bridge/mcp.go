package bridge

import (
	"context"
	"mime"
	"net/http"
	"strings"
	"time"

	"engram/backend/api"
)

// mcpGuard admits an MCP request only with the bridge token as a Bearer header (never in the
// URL, where logs and histories keep it) and an Origin of this bridge or none: a web page the
// person visits can neither reach the agents' tools nor read their answers. Host was checked
// by guard already.
func (s *Server) mcpGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.originAllowed(r.Header.Get("Origin"), r.Host) {
			s.httpError(w, http.StatusForbidden, "bridge_bad_origin", map[string]any{"Origin": r.Header.Get("Origin")})
			return
		}
		tok := ""
		if a := r.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "Bearer ") {
			tok = strings.TrimSpace(a[7:])
		}
		current := s.Token()
		if !tokenEqual(tok, current) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="engram"`)
			// Its own words: the browser's ("Copy the URL from engram serve") sent an MCP
			// client's user to put the token in the URL, which is refused here.
			s.httpError(w, http.StatusUnauthorized, s.refusalCode(tok, "mcp_unauthorized"), nil)
			return
		}
		if status, code, args := mcpRefusal(r); code != "" {
			s.httpError(w, status, code, args)
			return
		}
		if r.Method == http.MethodGet {
			// The standalone event stream stays open for notifications: the plain-HTTP write
			// deadline would cut it every minute. It ends when its token is replaced (it kept
			// hearing the session's notifications after a regenerate).
			_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			defer s.openStream(current, cancel)()
			r = r.WithContext(ctx)
		}
		// The session ids are signed with a key made of the home's secret and this token.
		next.ServeHTTP(w, r.WithContext(api.WithSessionKey(r.Context(), s.sessionKey(current))))
	})
}

// mcpRefusal names what is wrong with the shape of an MCP request, in the person's language,
// before the SDK would answer it in English: a POST must carry JSON and accept a JSON (or
// event-stream) answer, a GET opens the event stream and must accept one. The two are told
// apart: a client whose GET is refused needs to hear what a GET is for (the session's event
// stream; its calls go in POSTs), not the rules of both methods. A request without an Accept
// header takes anything, as HTTP reads it, and a POST that takes only JSON is served too
// (mcp.Handler answers it in JSON).
func mcpRefusal(r *http.Request) (int, string, map[string]any) {
	accept := strings.Join(r.Header.Values("Accept"), ",")
	switch r.Method {
	case http.MethodPost:
		if r.Header.Get("Content-Type") == "" {
			return http.StatusUnsupportedMediaType, "mcp_content_type_missing", nil
		}
		if ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || ct != "application/json" {
			return http.StatusUnsupportedMediaType, "mcp_content_type", map[string]any{"Type": r.Header.Get("Content-Type")}
		}
		if accept != "" && !acceptsAny(accept, "application/json", "application/*", "text/event-stream", "text/*", "*/*") {
			return http.StatusNotAcceptable, "mcp_not_acceptable", map[string]any{"Accept": accept}
		}
	case http.MethodGet:
		if accept != "" && !acceptsAny(accept, "text/event-stream", "text/*", "*/*") {
			return http.StatusNotAcceptable, "mcp_get_not_acceptable", map[string]any{"Accept": accept}
		}
	}
	return 0, "", nil
}

// acceptsAny reports whether an Accept header names one of the media ranges.
func acceptsAny(accept string, ranges ...string) bool {
	for _, part := range strings.Split(accept, ",") {
		base, _, _ := strings.Cut(part, ";")
		for _, want := range ranges {
			if strings.EqualFold(strings.TrimSpace(base), want) {
				return true
			}
		}
	}
	return false
}
