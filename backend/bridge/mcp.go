package bridge

import (
	"net/http"
	"strings"
	"time"
)

// mcpGuard admits an MCP request only with the bridge token as a Bearer header (never in the
// URL, where logs and histories keep it) and an Origin of this bridge or none: a web page the
// person visits can neither reach the agents' tools nor read their answers. Host was checked
// by guard already.
func (s *Server) mcpGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.originAllowed(r.Header.Get("Origin")) {
			s.httpError(w, http.StatusForbidden, "bridge_bad_origin", map[string]any{"Origin": r.Header.Get("Origin")})
			return
		}
		tok := ""
		if a := r.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "Bearer ") {
			tok = strings.TrimSpace(a[7:])
		}
		if !tokenEqual(tok, s.Token()) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="engram"`)
			s.httpError(w, http.StatusUnauthorized, "bridge_unauthorized", nil)
			return
		}
		if r.Method == http.MethodGet {
			// The standalone event stream stays open for notifications: the plain-HTTP write
			// deadline would cut it every minute.
			_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
		}
		next.ServeHTTP(w, r)
	})
}
