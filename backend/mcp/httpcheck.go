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
//   - a logging/setLevel naming no level the spec has: -32602, 200 (the same);
//   - a request outside a session that is not an initialize: -32600, 400 (the streamable
//     HTTP spec: "SHOULD respond … with HTTP 400 Bad Request"; the SDK made a session of it
//     and answered error code 0);
//   - params the SDK cannot read: -32602, 200 (paramcheck.go);
//   - a call of the stateless protocol (2026-07-28 on, in the header or the call's _meta): the
//     protocol's -32022 naming the versions this server speaks, 400;
//   - a batch in a version without batches: each call refused with its id, 400;
//   - a batch in which two calls share an id: each call refused with its id, 400.
//
// A notification nobody handles is accepted (202) and dropped, alone or from a batch. It
// reports whether the request goes on to the SDK, with its body restored (a byte order mark
// before it removed, and in a batch the dropped notifications), and what it learned of it.
func (h *httpHandler) checkPost(w http.ResponseWriter, r *http.Request, session string) (bool, posted) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxHTTPBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.rpcAnswer(w, http.StatusRequestEntityTooLarge, h.s.reply(&rpcRefusal{id: headID(body[:min(len(body), headBytes)]), code: rpcInvalidRequest,
				key: "mcp_rpc_too_large", args: map[string]any{"Max": maxHTTPBody}}))
			return false, posted{}
		}
		h.rpcAnswer(w, http.StatusBadRequest, h.s.reply(&rpcRefusal{code: rpcParseError, key: "mcp_rpc_parse_error"}))
		return false, posted{}
	}
	body = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(body), bom))
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	if ref := tooDeep(body); ref != nil {
		h.rpcAnswer(w, http.StatusBadRequest, h.s.reply(ref))
		return false, posted{}
	}
	switch {
	case len(body) == 0 || !json.Valid(body):
		h.rpcAnswer(w, http.StatusBadRequest, h.s.reply(&rpcRefusal{code: rpcParseError, key: "mcp_rpc_parse_error"}))
		return false, posted{}
	case body[0] == '[':
		ok, apart := h.checkBatch(w, r, body, session)
		return ok, posted{apart: apart}
	}
	in, ref := checkMessage(body)
	switch {
	case ref != nil && ref.sessionGoesOn():
		h.rpcAnswer(w, http.StatusOK, h.s.reply(ref))
		return false, posted{}
	case ref != nil:
		h.rpcAnswer(w, http.StatusBadRequest, h.s.reply(ref))
		return false, posted{}
	case in.call && r.Header.Get("Mcp-Protocol-Version") >= firstStatelessVersion:
		// A call of the stateless protocol (the SDK answered it in English, naming the version
		// the header said or, with none, 2025-03-26 as the one it did not speak).
		h.rpcAnswer(w, http.StatusBadRequest, h.s.reply(newerVersion(in.idRaw, r.Header.Get("Mcp-Protocol-Version"))))
		return false, posted{}
	case session == "" && !(in.call && in.method == "initialize"):
		h.rpcAnswer(w, http.StatusBadRequest, h.s.reply(&rpcRefusal{id: in.idRaw, code: rpcInvalidRequest, key: "mcp_session_required"}))
		return false, posted{}
	case !in.call && in.method != "" && !serverNotifications[in.method]:
		w.WriteHeader(http.StatusAccepted)
		return false, posted{}
	case in.call && in.method == "initialize":
		v := negotiate(requestedVersion(in.params))
		return true, posted{version: v, initialize: true, claims: claimsOf(in.params, v)}
	}
	return true, posted{}
}

// posted is what checkPost learned of a POST it hands on to the SDK.
type posted struct {
	// apart are answers (-32601) to send beside those the SDK gives a batch.
	apart []json.RawMessage
	// version is, for an initialize, the protocol version its answer negotiates.
	version string
	// initialize: the POST is an initialize (never served in a revived session).
	initialize bool
	// claims are, for an initialize, what the session's id will carry.
	claims sessionClaims
}

// checkBatch admits a batch only inside a session whose version has batches and whose every
// element is well formed; otherwise none of it runs, and each call is answered with its own
// error so that the client's waiting calls end. The version is the one the session's
// initialize negotiated: the Mcp-Protocol-Version header alone let a 2025-06-18 session run a
// batch by leaving the header out (the SDK then reads 2025-03-26) or by naming an older
// version, so a header that disagrees with the session's version is refused (stdio knows
// its version from the initialize it saw). Only a session this handler did not see open falls
// back to the header.
//
// Two calls with one id are refused the same way, each with its id: the SDK keeps one of them
// and drops the other unanswered, and had both run, the client could not tell their answers
// apart. A notification nobody handles is dropped, as a lone one is (the SDK refused the
// whole batch with a 400 in plain text), and the SDK sees the batch without it — or nothing
// at all, answered 202, when nothing else is left.
func (h *httpHandler) checkBatch(w http.ResponseWriter, r *http.Request, body []byte, session string) (bool, []json.RawMessage) {
	var elems []json.RawMessage
	if json.Unmarshal(body, &elems) != nil || len(elems) == 0 {
		h.rpcAnswer(w, http.StatusBadRequest, h.s.reply(&rpcRefusal{code: rpcInvalidRequest, key: "mcp_rpc_batch_empty"}))
		return false, nil
	}
	version := r.Header.Get("Mcp-Protocol-Version")
	if negotiated := h.negotiated(session); negotiated != "" {
		if version != "" && version != negotiated {
			h.rpcAnswer(w, http.StatusBadRequest, mustJSON(h.s.refuseEach(elems, "mcp_protocol_version_mismatch",
				map[string]any{"Version": version, "Negotiated": negotiated})))
			return false, nil
		}
		version = negotiated
	}
	if !batchAllowed(version) {
		h.rpcAnswer(w, http.StatusBadRequest, mustJSON(h.s.refuseBatch(elems, version)))
		return false, nil
	}
	type checked struct {
		raw json.RawMessage
		in  *inbound
		ref *rpcRefusal
	}
	msgs := make([]checked, len(elems))
	uses := map[string]int{} // call ids, as canonical JSON (1 and "1" are two ids), by use
	for i, e := range elems {
		raw := bytes.TrimSpace(e)
		in, ref := checkMessage(raw)
		msgs[i] = checked{raw, in, ref}
		if ref == nil && in.call {
			uses[string(mustJSON(in.idRaw))]++
		}
	}
	var refusals, apart []json.RawMessage
	var kept [][]byte
	var calls []any
	for _, m := range msgs {
		in, ref := m.in, m.ref
		switch {
		case ref != nil && ref.sessionGoesOn() && session != "":
			// Answered -32601 beside the rest, as over stdio (the whole batch was refused).
			apart = append(apart, h.s.reply(ref))
			continue
		case ref != nil:
		case in.call && uses[string(mustJSON(in.idRaw))] > 1:
			ref = &rpcRefusal{id: in.idRaw, code: rpcInvalidRequest, key: "mcp_rpc_batch_duplicate_id",
				args: map[string]any{"ID": string(mustJSON(in.idRaw))}}
		case in.call && in.method == "initialize":
			ref = &rpcRefusal{id: in.idRaw, code: rpcInvalidRequest, key: "mcp_rpc_initialize_in_batch"}
		case session == "":
			ref = &rpcRefusal{id: in.idRaw, code: rpcInvalidRequest, key: "mcp_session_required"}
		case !in.call && in.method != "" && !serverNotifications[in.method]:
			continue // answered by nothing, so dropped
		case in.call:
			calls = append(calls, in.idRaw)
		}
		if ref != nil {
			refusals = append(refusals, h.s.reply(ref))
			continue
		}
		kept = append(kept, m.raw)
	}
	if len(refusals) > 0 {
		refusals = append(refusals, apart...)
		for _, id := range calls {
			refusals = append(refusals, h.s.reply(&rpcRefusal{id: id, code: rpcInvalidRequest, key: "mcp_rpc_batch_malformed"}))
		}
		h.rpcAnswer(w, http.StatusBadRequest, mustJSON(refusals))
		return false, nil
	}
	switch {
	case len(kept) == 0 && len(apart) > 0:
		h.rpcAnswer(w, http.StatusOK, mustJSON(apart))
		return false, nil
	case len(kept) == 0:
		w.WriteHeader(http.StatusAccepted)
		return false, nil
	case len(kept) < len(elems):
		// Still an array, even of one: a batch is answered with an array in plain JSON.
		body = append(append([]byte{'['}, bytes.Join(kept, []byte{','})...), ']')
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	return true, apart
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
	args, _ = cutArgs(args) // a header is quoted at most maxEcho characters long
	_ = json.NewEncoder(w).Encode(h.s.api.Error(code, args))
}
