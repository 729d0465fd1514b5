package mcp

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"slices"
)

// An HTTP session lives in the process that opened it: after Engram restarts (the desktop app
// updated, `engram serve` restarted) every client still holds a session id the new process has
// never seen. The spec tells such a client to initialize again on the 404 it gets, but Claude
// Code and other clients over the TypeScript SDK do not: every later call failed until the
// person restarted the client. So a request naming a session this process does not know is
// served in a session revived for it: a new session of the SDK's, opened by an initialize this
// handler makes itself, which the old id then names (the SDK's own id stays behind this
// router). The bridge has checked the request's token as it checks every request, and the
// revived session is given nothing the old one had: no client name, hence no agent (unless
// --agent names one) — agent-scope calls are refused until the client reconnects, in words
// that say so — and no roots (the project is --workdir's, if any). A client that initializes
// again gets a whole session of its own, as before.

// lastEventIDHeader names the last event a client saw on a stream it reopens.
const lastEventIDHeader = "Last-Event-ID"

// reviveVersion is the protocol version of a revived session whose request names none: the
// streamable HTTP spec's assumption for a request without Mcp-Protocol-Version.
const reviveVersion = "2025-03-26"

// revivable reports whether a session id a client sent may name a revived session: the spec's
// visible ASCII, at most 128 characters (the SDK's own are 26).
func revivable(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

// revive opens a session for the unknown id of r (a GET or a non-initialize POST) and records
// it under that id, reporting whether it did. Concurrent requests of one id revive it once.
func (h *httpHandler) revive(r *http.Request, id string) bool {
	h.reviveMu.Lock()
	defer h.reviveMu.Unlock()
	h.mu.Lock()
	_, done := h.owned[id]
	ended := h.ended[id]
	h.mu.Unlock()
	if done || ended || !revivable(id) {
		return done
	}
	version := r.Header.Get("Mcp-Protocol-Version")
	if version == "" {
		version = reviveVersion
	}
	if !slices.Contains(protocolVersions, version) {
		return false
	}
	_, takesStream := accepts(r.Header.Values("Accept"))
	plain := r.Method == http.MethodPost && !takesStream
	handler := h.stream
	if plain {
		handler = h.plain
	}
	// No capabilities: whether the client answers a roots request is not known (one that does
	// not would hold each first project call for the roots timeout).
	init := mustJSON(map[string]any{"jsonrpc": "2.0", "id": "engram-revive", "method": "initialize",
		"params": map[string]any{"protocolVersion": version, "capabilities": map[string]any{},
			"clientInfo": map[string]any{"name": "", "version": ""}}})
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, h.innerPost(r, init, "", version))
	sdkID := rec.Header().Get(sessionHeader)
	if rec.Code != http.StatusOK || sdkID == "" || !bytes.Contains(rec.Body.Bytes(), []byte(`"result"`)) {
		h.s.cfg.Logger.Warn("mcp: could not revive a session", "status", rec.Code)
		return false
	}
	h.s.revived.Store(sdkID, true)
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

// resumed reports whether ss is a session this process revived (it knows nothing of its
// client).
func (s *Server) resumed(sdkID string) bool {
	_, ok := s.revived.Load(sdkID)
	return ok
}
