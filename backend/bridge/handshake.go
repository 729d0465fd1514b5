package bridge

import (
	"encoding/base64"
	"net/http"
	"strings"
)

// handshakeRefused answers a request to /ws that is not a websocket handshake the library
// would accept, reporting whether it did. The library's own refusals were English plain text
// ("WebSocket protocol violation: …"), the only untranslated answers of the bridge: a person
// who opened /ws in a browser tab, or a client that left out a header, got them. The checks
// are the library's (accept.go: verifyClientRequest), so what passes here it accepts.
func (s *Server) handshakeRefused(w http.ResponseWriter, r *http.Request) bool {
	if !r.ProtoAtLeast(1, 1) || !headerHasToken(r.Header, "Connection", "upgrade") || !headerHasToken(r.Header, "Upgrade", "websocket") {
		w.Header().Set("Connection", "Upgrade")
		w.Header().Set("Upgrade", "websocket")
		s.httpError(w, http.StatusUpgradeRequired, "bridge_ws_upgrade_required", map[string]any{"Path": r.URL.Path})
		return true
	}
	if r.Header.Get("Sec-WebSocket-Version") != "13" {
		w.Header().Set("Sec-WebSocket-Version", "13")
		s.httpError(w, http.StatusBadRequest, "bridge_ws_bad_handshake", map[string]any{"Header": "Sec-WebSocket-Version", "Want": "13"})
		return true
	}
	keys := r.Header.Values("Sec-WebSocket-Key")
	if len(keys) != 1 {
		s.httpError(w, http.StatusBadRequest, "bridge_ws_bad_handshake", map[string]any{"Header": "Sec-WebSocket-Key", "Want": "1 × base64(16 bytes)"})
		return true
	}
	if v, err := base64.StdEncoding.DecodeString(strings.TrimSpace(keys[0])); err != nil || len(v) != 16 {
		s.httpError(w, http.StatusBadRequest, "bridge_ws_bad_handshake", map[string]any{"Header": "Sec-WebSocket-Key", "Want": "1 × base64(16 bytes)"})
		return true
	}
	return false
}

// headerHasToken reports whether one of the comma-separated values of header name is token,
// in any case.
func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// methods serves next for the methods in allowed ("GET, HEAD"; GET takes HEAD too, as the
// mux's GET patterns did) and refuses any other, naming the ones it takes.
func (s *Server) methods(allowed string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := r.Method
		if m == http.MethodHead {
			m = http.MethodGet
		}
		for _, a := range strings.Split(allowed, ",") {
			if strings.TrimSpace(a) == m {
				next.ServeHTTP(w, r)
				return
			}
		}
		w.Header().Set("Allow", allowed)
		s.httpError(w, http.StatusMethodNotAllowed, "bridge_method_not_allowed",
			map[string]any{"Path": r.URL.Path, "Allowed": allowed, "Method": r.Method})
	})
}
