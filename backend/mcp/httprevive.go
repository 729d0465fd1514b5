package mcp

import (
	"bytes"
	"net/http"
	"net/http/httptest"
)

// An HTTP session lives in the process that opened it: after Engram restarts (the desktop app
// updated, `engram serve` restarted) every client still holds a session id the new process has
// never seen. The spec tells such a client to initialize again on the 404 it gets, but Claude
// Code and other clients over the TypeScript SDK do not: every later call failed until the
// person restarted the client. So a request naming a session this process does not know, by an
// id this server signed (sessionid.go), is served in a session revived for it: a new session of
// the SDK's, opened by an initialize this handler makes itself, which the old id then names
// (the SDK's own id stays behind this router). The bridge has checked the request's token as it
// checks every request, and the revived session has what the id carries and nothing else: the
// agent its client's initialize named (--agent still wins), the client's name, the protocol
// version, and the roots capability, so that the client is asked for its roots again. An id
// that does not verify was answered 404 before this (the client starts a new session); one its
// client ended, in this process or before a restart (ended.go), is not revived. A client that initializes again gets a whole session of
// its own, as before.

// lastEventIDHeader names the last event a client saw on a stream it reopens.
const lastEventIDHeader = "Last-Event-ID"

// revive opens a session for the unknown id of r (a GET or a non-initialize POST), which was
// signed with claims, and records it under that id, reporting whether it did. Concurrent
// requests of one id revive it once.
func (h *httpHandler) revive(r *http.Request, id string, claims sessionClaims) bool {
	h.reviveMu.Lock()
	defer h.reviveMu.Unlock()
	h.mu.Lock()
	_, done := h.owned[id]
	h.mu.Unlock()
	if done || h.ended.has(id) {
		return done
	}
	version := claims.version
	_, takesStream := accepts(r.Header.Values("Accept"))
	plain := r.Method == http.MethodPost && !takesStream
	handler := h.stream
	if plain {
		handler = h.plain
	}
	// The roots capability only when the client declared it: one that did not may never answer
	// a roots request, and each first project call would wait for the roots timeout.
	caps := map[string]any{}
	if claims.roots {
		caps["roots"] = map[string]any{}
	}
	init := mustJSON(map[string]any{"jsonrpc": "2.0", "id": "engram-revive", "method": "initialize",
		"params": map[string]any{"protocolVersion": version, "capabilities": caps,
			"clientInfo": map[string]any{"name": "", "version": ""}}})
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, h.innerPost(r, init, "", version))
	sdkID := rec.Header().Get(sessionHeader)
	if rec.Code != http.StatusOK || sdkID == "" || !bytes.Contains(rec.Body.Bytes(), []byte(`"result"`)) {
		h.s.cfg.Logger.Warn("mcp: could not revive a session", "status", rec.Code)
		return false
	}
	h.s.revived.Store(sdkID, claims)
	rec = httptest.NewRecorder()
	handler.ServeHTTP(rec, h.innerPost(r, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), sdkID, version))
	if rec.Code != http.StatusAccepted {
		h.s.cfg.Logger.Warn("mcp: a revived session was not initialized", "status", rec.Code)
	}
	h.mu.Lock()
	h.owned[id] = session4HTTP{plain: plain, version: version, sdkID: sdkID}
	h.mu.Unlock()
	h.s.cfg.Logger.Info("mcp: revived a session unknown to this process", "session", id)
	return true
}

// endUnheld ends the session of id, which verified but this process does not hold (from
// before a restart, or closed for being idle), reporting whether it did: it is written down as
// ended, as a held session's end is, so that the id is not revived later — before, such a
// DELETE was 404 and the next request revived the session the client had ended. False when it
// was ended already (404, as a second DELETE of a held session is) or a request revived it
// meanwhile (it is held: it ends as one).
func (h *httpHandler) endUnheld(id string) bool {
	h.reviveMu.Lock()
	defer h.reviveMu.Unlock()
	h.mu.Lock()
	_, held := h.owned[id]
	h.mu.Unlock()
	if held || h.ended.has(id) {
		return false
	}
	h.ended.add(id)
	return true
}

// innerPost is a POST of body this handler makes to the SDK's handler for r's client: r's
// context and Host (the SDK checks that the Host is local), the Accept the SDK wants.
func (h *httpHandler) innerPost(r *http.Request, body []byte, session, version string) *http.Request {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, r.URL.String(), bytes.NewReader(body))
	req.Host = r.Host
	req.RemoteAddr = r.RemoteAddr
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", bothTypes)
	if session != "" {
		req.Header.Set(sessionHeader, session)
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	return req
}

// resumed returns what the id of a session this process revived carries.
func (s *Server) resumed(sdkID string) (sessionClaims, bool) {
	v, ok := s.revived.Load(sdkID)
	if !ok {
		return sessionClaims{}, false
	}
	return v.(sessionClaims), true
}
