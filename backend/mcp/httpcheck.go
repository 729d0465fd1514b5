package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// maxHTTPBody bounds one POST, as the bridge bounds its messages.
const maxHTTPBody = 1 << 20

// serverNotifications are the notifications the SDK's server takes from a client; any other
// is accepted and dropped (JSON-RPC answers no notification; the SDK answered a 400).
var serverNotifications = map[string]bool{
	"notifications/initialized": true, "notifications/cancelled": true,
	"notifications/roots/list_changed": true, "notifications/progress": true,
}

// checkPost reads a POST's JSON-RPC before the SDK does, and answers what the SDK would
// answer with an English 400 in plain text, with error code 0, or not at all — in JSON-RPC,
// in the person's language, as stdio does:
//   - a body that is not JSON: -32700, 400;
//   - a message of the wrong shape (version, id of null, 1.5 or an object): -32600, 400;
//   - a call to a method this server does not have: -32601, 200 (the session goes on);
//   - a request outside a session that is not an initialize: -32600, 400 (the streamable
//     HTTP spec: "SHOULD respond … with HTTP 400 Bad Request"; the SDK made a session of it
//     and answered error code 0);
//   - a batch in a version without batches: each call refused with its id, 400.
//
// A notification nobody handles is accepted (202) and dropped. It reports whether the request
// goes on to the SDK, with its body restored (a byte order mark before it removed).
func (h *httpHandler) checkPost(w http.ResponseWriter, r *http.Request, session string) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxHTTPBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.rpcAnswer(w, http.StatusRequestEntityTooLarge, h.s.reply(&rpcRefusal{code: rpcInvalidRequest,
				key: "mcp_rpc_too_large", args: map[string]any{"Max": maxHTTPBody}}))
			return false
		}
		h.rpcAnswer(w, http.StatusBadRequest, h.s.reply(&rpcRefusal{code: rpcParseError, key: "mcp_rpc_parse_error"}))
		return false
	}
	body = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(body), bom))
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	switch {
	case len(body) == 0 || !json.Valid(body):
		h.rpcAnswer(w, http.StatusBadRequest, h.s.reply(&rpcRefusal{code: rpcParseError, key: "mcp_rpc_parse_error"}))
		return false
	case body[0] == '[':
		return h.checkBatch(w, r, body, session)
	}
	in, ref := checkMessage(body)
	switch {
	case ref != nil && ref.code == rpcMethodNotFound:
		h.rpcAnswer(w, http.StatusOK, h.s.reply(ref))
		return false
	case ref != nil:
		h.rpcAnswer(w, http.StatusBadRequest, h.s.reply(ref))
		return false
	case session == "" && !(in.call && in.method == "initialize"):
		h.rpcAnswer(w, http.StatusBadRequest, h.s.reply(&rpcRefusal{id: in.idRaw, code: rpcInvalidRequest, key: "mcp_session_required"}))
		return false
	case !in.call && in.method != "" && !serverNotifications[in.method]:
		w.WriteHeader(http.StatusAccepted)
		return false
	}
	return true
}

// checkBatch admits a batch only inside a session whose version has batches (the
// Mcp-Protocol-Version header; without one the SDK reads 2025-03-26, which has them) and
// whose every element is well formed; otherwise none of it runs, and each call is answered
// with its own error so that the client's waiting calls end.
func (h *httpHandler) checkBatch(w http.ResponseWriter, r *http.Request, body []byte, session string) bool {
	var elems []json.RawMessage
	if json.Unmarshal(body, &elems) != nil || len(elems) == 0 {
		h.rpcAnswer(w, http.StatusBadRequest, h.s.reply(&rpcRefusal{code: rpcInvalidRequest, key: "mcp_rpc_batch_empty"}))
		return false
	}
	version := r.Header.Get("Mcp-Protocol-Version")
	if !batchAllowed(version) {
		h.rpcAnswer(w, http.StatusBadRequest, mustJSON(h.s.refuseBatch(elems, version)))
		return false
	}
	var refusals []json.RawMessage
	var calls []any
	for _, e := range elems {
		in, ref := checkMessage(bytes.TrimSpace(e))
		switch {
		case ref == nil && in.call && in.method == "initialize":
			ref = &rpcRefusal{id: in.idRaw, code: rpcInvalidRequest, key: "mcp_rpc_initialize_in_batch"}
		case ref == nil && session == "":
			ref = &rpcRefusal{id: in.idRaw, code: rpcInvalidRequest, key: "mcp_session_required"}
		case ref == nil && in.call:
			calls = append(calls, in.idRaw)
		}
		if ref != nil {
			refusals = append(refusals, h.s.reply(ref))
		}
	}
	if len(refusals) == 0 {
		return true
	}
	for _, id := range calls {
		refusals = append(refusals, h.s.reply(&rpcRefusal{id: id, code: rpcInvalidRequest, key: "mcp_rpc_batch_malformed"}))
	}
	h.rpcAnswer(w, http.StatusBadRequest, mustJSON(refusals))
	return false
}

// rpcAnswer writes a JSON-RPC answer (or an array of them) the handler made itself.
func (h *httpHandler) rpcAnswer(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// refuse answers a request of the wrong shape for HTTP (not for JSON-RPC) the way the bridge
// does: its code and message in the person's language.
func (h *httpHandler) refuse(w http.ResponseWriter, status int, code string, args map[string]any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(h.s.api.Error(code, args))
}
