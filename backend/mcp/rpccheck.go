package mcp

import (
	"bytes"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The SDK's decoder treats a message it cannot read as the end of the connection (stdio exits
// with the requests already sent unanswered), reads an id of 1.5 as 1 and an id of null as a
// notification. So every message is checked here first, on both transports: a malformed one is
// answered with the JSON-RPC error it deserves (JSON-RPC 2.0 §5: id null when the id itself
// cannot be read) in the person's language, and only well-formed messages reach the SDK.

// JSON-RPC 2.0 error codes this server answers with (§5.1).
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
	rpcInternalError  = -32603
	// rpcRejected is jsonrpc2's "rejected by transport": a write refused with it fails that one
	// outgoing call and leaves the session up.
	rpcRejected = -32005
)

// serverMethods are the requests the SDK's server answers in the handshake-era protocol this
// server speaks (go-sdk v1.8.0's serverMethodInfos, without server/discover and
// subscriptions/listen, which it serves only from 2026-07-28, and completion/complete, which
// it answers "method not found" without a completion handler; TestStdioKnownMethodsAreServed
// pins them). A call to any other method is answered -32601 here, the
// same way over stdio and HTTP (the SDK's HTTP handler answered a 400 in plain text).
var serverMethods = map[string]bool{
	"initialize": true, "ping": true, "tools/list": true, "tools/call": true, "resources/list": true,
	"resources/templates/list": true, "resources/read": true, "resources/subscribe": true,
	"resources/unsubscribe": true, "prompts/list": true, "prompts/get": true, "logging/setLevel": true,
}

// firstBatchlessVersion is the protocol version that removed JSON-RPC batches (2025-06-18);
// 2025-03-26 and 2024-11-05 sessions may send them.
const firstBatchlessVersion = "2025-06-18"

// firstStatelessVersion is where the SDK stops checking Mcp-Protocol-Version against its list
// (versions from it on are passed through to it): the same line for this server's refusal.
const firstStatelessVersion = "2026-07-28"

func batchAllowed(version string) bool { return version == "" || version < firstBatchlessVersion }

// negotiate is the version the SDK answers an initialize with: the client's when this server
// speaks it, else its newest.
func negotiate(requested string) string {
	for _, v := range protocolVersions {
		if v == requested {
			return v
		}
	}
	return protocolVersions[0]
}

// rpcRefusal is a message refused before the SDK saw it: the id to answer (a string, an int64,
// or nil for null), the JSON-RPC code, and the catalog code (error.<key>) of the message.
type rpcRefusal struct {
	id   any
	code int64
	key  string
	args map[string]any
	// want, when set, is the catalog key of the kind a field takes, translated into args' Want.
	want string
	// data is more of error.data beside the catalog code (the versions a client may fall back to).
	data map[string]any
}

// inbound is one well-formed message, decoded by the SDK's own decoder.
type inbound struct {
	msg    jsonrpc.Message
	method string     // "" for a response
	id     jsonrpc.ID // invalid for a notification
	idRaw  any        // the id as sent (string or int64), for a refusal that answers it
	call   bool       // a request with an id
	params json.RawMessage
}

// bom is the UTF-8 byte order mark some Windows tools put before a line: not JSON, and not
// worth ending a session over.
var bom = []byte("\xef\xbb\xbf")

// integerID is the grammar of an integer id: MCP ids are strings or integers, and JSON-RPC
// says numbers SHOULD NOT have fractions (the SDK read 1.5 as 1 and answered the wrong id).
var integerID = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// maxSafeID bounds integer ids to what a float64 holds exactly: the SDK decodes ids through
// one, so a larger id would be answered as another number.
const maxSafeID = 1<<53 - 1

// readID reads the id of a message: present reports that it has one, id is its value when it
// is a string or an integer, and bad names what is wrong with it otherwise.
func readID(raw json.RawMessage, present bool) (id any, bad string) {
	if !present {
		return nil, ""
	}
	raw = bytes.TrimSpace(raw)
	switch {
	case bytes.Equal(raw, []byte("null")):
		return nil, "mcp_rpc_id_null"
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, "mcp_rpc_id_type"
		}
		return s, ""
	case integerID.Match(raw):
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n > maxSafeID || n < -maxSafeID {
			return nil, "mcp_rpc_id_type"
		}
		return n, ""
	}
	return nil, "mcp_rpc_id_type"
}

// checkMessage reads one JSON value that is not a batch (valid JSON, checked by the caller) as
// a JSON-RPC 2.0 message, or names why it is not one.
func checkMessage(raw []byte) (*inbound, *rpcRefusal) {
	var f map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &f) != nil {
		return nil, &rpcRefusal{code: rpcInvalidRequest, key: "mcp_rpc_not_object"}
	}
	rawID, hasID := f["id"]
	id, badID := readID(rawID, hasID)
	// A refusal answers a request's id, never a response's: the id of a response is one of the
	// server's own calls, and the client would take the refusal for the answer to its call of
	// the same number (both sides count from 1).
	answer := id
	if _, request := f["method"]; !request {
		answer = nil
	}
	if v, ok := f["jsonrpc"]; !ok || !bytes.Equal(bytes.TrimSpace(v), []byte(`"2.0"`)) {
		return nil, &rpcRefusal{id: answer, code: rpcInvalidRequest, key: "mcp_rpc_version"}
	}
	if badID != "" {
		return nil, &rpcRefusal{code: rpcInvalidRequest, key: badID}
	}
	in := &inbound{idRaw: id, params: f["params"]}
	if rawMethod, ok := f["method"]; ok {
		if json.Unmarshal(rawMethod, &in.method) != nil || in.method == "" {
			return nil, &rpcRefusal{id: id, code: rpcInvalidRequest, key: "mcp_rpc_method"}
		}
		in.call = hasID
		if in.call && !serverMethods[in.method] {
			return nil, &rpcRefusal{id: id, code: rpcMethodNotFound, key: "mcp_rpc_method_not_found",
				args: map[string]any{"Method": cutEcho(in.method, maxEcho)}}
		}
		if in.call && in.method == "initialize" && !hasProtocolVersion(in.params) {
			return nil, &rpcRefusal{id: id, code: rpcInvalidParams, key: "mcp_protocol_version_required"}
		}
		if in.call && in.method == "logging/setLevel" {
			if level, ok := logLevel(in.params); !ok {
				return nil, &rpcRefusal{id: id, code: rpcInvalidParams, key: keyLogLevel,
					args: map[string]any{"Level": level, "Levels": strings.Join(logLevels, ", ")}}
			}
		}
		if in.call {
			if ref := checkParams(id, in.method, in.params); ref != nil {
				return nil, ref
			}
		}
	} else {
		// A response (the client answering one of the server's calls): an id and exactly one
		// of result and error.
		_, res := f["result"]
		_, fail := f["error"]
		if !hasID || res == fail {
			return nil, &rpcRefusal{code: rpcInvalidRequest, key: "mcp_rpc_not_object"}
		}
	}
	msg, err := jsonrpc.DecodeMessage(raw)
	if err != nil {
		return nil, &rpcRefusal{id: answer, code: rpcInvalidRequest, key: "mcp_rpc_not_object"}
	}
	in.msg = msg
	switch m := msg.(type) {
	case *jsonrpc.Request:
		in.id = m.ID
	case *jsonrpc.Response:
		in.id = m.ID
	}
	return in, nil
}

// logLevels are the levels logging/setLevel takes (the spec's, from RFC 5424), least severe
// first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// keyLogLevel is the catalog code of a logging/setLevel that names no level of logLevels.
const keyLogLevel = "mcp_log_level_invalid"

// logLevel reads the level a logging/setLevel names, and whether it is one of logLevels. The
// SDK took any string (and none at all) with an empty success, so a client that sent "loud" or
// "INFO" believed it was set; a number was refused in English. The level is given back as sent
// (JSON) for the refusal to quote.
func logLevel(params json.RawMessage) (string, bool) {
	var p struct {
		Level json.RawMessage `json:"level"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.Level) == 0 {
		return "", false
	}
	var level string
	if json.Unmarshal(p.Level, &level) != nil {
		return string(p.Level), false
	}
	return level, slices.Contains(logLevels, level)
}

// sessionGoesOn reports whether a refusal answers a well-formed call the session can carry on
// after (a method this server does not have, a log level it does not know, params it cannot
// read): over HTTP it is
// answered 200, and in a batch beside the other answers, not as a broken request (400).
func (r *rpcRefusal) sessionGoesOn() bool {
	switch r.key {
	case keyLogLevel, keyParamsRequired, keyParamsNotObject, keyParamsField:
		return true
	}
	return r.code == rpcMethodNotFound
}

// hasProtocolVersion reports whether initialize's params name a protocol version, which the
// protocol requires (the SDK answered one without it with its newest version).
func hasProtocolVersion(params json.RawMessage) bool {
	var p struct {
		ProtocolVersion *string `json:"protocolVersion"`
	}
	return json.Unmarshal(params, &p) == nil && p.ProtocolVersion != nil && *p.ProtocolVersion != ""
}

// requestedVersion is the protocolVersion an initialize's params ask for.
func requestedVersion(params json.RawMessage) string {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(params, &p)
	return p.ProtocolVersion
}

// cancelledID is the request a notifications/cancelled names, if it names one well.
func cancelledID(params json.RawMessage) (jsonrpc.ID, bool) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return jsonrpc.ID{}, false
	}
	v, bad := readID(p.RequestID, len(p.RequestID) > 0)
	if v == nil || bad != "" {
		return jsonrpc.ID{}, false
	}
	if n, ok := v.(int64); ok {
		v = float64(n) // the SDK's decoder reads ids as float64
	}
	id, err := jsonrpc.MakeID(v)
	return id, err == nil
}

// replyError is a JSON-RPC error object; data.code is the catalog code, as tool errors carry.
type replyError struct {
	Code    int64          `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data,omitempty"`
}

// reply encodes a refusal as a JSON-RPC response, id null when the refusal has none (the SDK's
// encoder leaves a missing id out, which is not a response).
func (s *Server) reply(r *rpcRefusal) json.RawMessage {
	args, _ := cutArgs(r.args)
	if r.want != "" {
		args = maps.Clone(args)
		if args == nil {
			args = map[string]any{}
		}
		args["Want"] = s.detail(r.want, nil)
	}
	data := map[string]any{"code": r.key}
	maps.Copy(data, r.data)
	return encodeReply(r.id, &replyError{Code: r.code, Message: s.api.Error(r.key, args).Message, Data: data})
}

// protocolError is a JSON-RPC error for a method handler to return, with the catalog's
// message for key and the key as data.code.
func (s *Server) protocolError(code int64, key string, args map[string]any) *jsonrpc.Error {
	data, _ := json.Marshal(map[string]any{"code": key})
	return &jsonrpc.Error{Code: code, Message: s.api.Error(key, args).Message, Data: data}
}

// toolProtocolError is a tool error where the protocol needs a JSON-RPC error (resources).
func toolProtocolError(code int64, e *toolError) *jsonrpc.Error {
	data, _ := json.Marshal(map[string]any{"code": e.Code})
	return &jsonrpc.Error{Code: code, Message: e.Message, Data: data}
}

func encodeReply(id any, e *replyError) json.RawMessage {
	b, _ := json.Marshal(struct {
		JSONRPC string      `json:"jsonrpc"`
		ID      any         `json:"id"`
		Error   *replyError `json:"error"`
	}{"2.0", id, e})
	return b
}
