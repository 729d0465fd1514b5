package mcp_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"engram/backend/mcp"
)

// rpcBody reads a JSON-RPC error answer.
func rpcBody(t *testing.T, body string) (id any, code int64, key, message string) {
	t.Helper()
	var m struct {
		ID    any `json:"id"`
		Error struct {
			Code    int64          `json:"code"`
			Message string         `json:"message"`
			Data    map[string]any `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("not a JSON-RPC answer: %v\n%s", err, body)
	}
	key, _ = m.Error.Data["code"].(string)
	return m.ID, m.Error.Code, key, m.Error.Message
}

// Over HTTP, what is not a request this server can take is answered in JSON-RPC, coded and
// translated as over stdio: an unknown method -32601 (the SDK answered 400 "JSON RPC not
// handled" in plain text), a request outside a session 400 -32600 (the SDK opened a session
// and answered error code 0), malformed ids and JSON -32600/-32700, an initialize without a
// protocol version -32602, a second initialize -32600.
func TestHTTPJSONRPCRefusals(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	jsonOnly := map[string]string{"Content-Type": "application/json", "Accept": "application/json"}
	code, hdr, body := e.rawPost(t, initialize, jsonOnly)
	sid := hdr.Get("Mcp-Session-Id")
	if code != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	inSession := map[string]string{"Content-Type": "application/json", "Accept": "application/json", "Mcp-Session-Id": sid}
	e.rawPost(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, inSession)
	for _, tc := range []struct {
		name, body string
		h          map[string]string
		status     int
		id         any
		code       int64
		key        string
	}{
		{"unknown method", `{"jsonrpc":"2.0","id":7,"method":"memory.accept","params":{}}`, inSession, 200, float64(7), -32601, "mcp_rpc_method_not_found"},
		{"unknown method with a slash", `{"jsonrpc":"2.0","id":"x","method":"foo/bar"}`, inSession, 200, "x", -32601, "mcp_rpc_method_not_found"},
		{"no session", `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`, jsonOnly, 400, float64(8), -32600, "mcp_session_required"},
		{"id with a fraction", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, inSession, 400, nil, -32600, "mcp_rpc_id_type"},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, inSession, 400, nil, -32600, "mcp_rpc_id_null"},
		{"not json", `{"jsonrpc":`, inSession, 400, nil, -32700, "mcp_rpc_parse_error"},
		{"no protocol version", `{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
			jsonOnly, 400, float64(9), -32602, "mcp_protocol_version_required"},
		{"second initialize", strings.Replace(initialize, `"id":1`, `"id":10`, 1), inSession, 200, float64(10), -32600, "mcp_already_initialized"},
		// The session negotiated 2025-03-26: a header naming another version refuses the batch
		// (TestHTTPBatchFollowsTheNegotiatedVersion has a 2025-06-18 session's).
		{"batch saying 2025-06-18 in a 2025-03-26 session", `[{"jsonrpc":"2.0","id":11,"method":"ping"}]`,
			map[string]string{"Content-Type": "application/json", "Accept": "application/json", "Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-06-18"},
			400, float64(11), -32600, "mcp_protocol_version_mismatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, hdr, body := e.rawPost(t, tc.body, tc.h)
			if status != tc.status || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
				t.Fatalf("%d %s\n%s", status, hdr.Get("Content-Type"), body)
			}
			body = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(body), "["), "]")
			id, code, key, message := rpcBody(t, body)
			if toJSON(id) != toJSON(tc.id) || code != tc.code || key != tc.key || message == "" || strings.HasPrefix(message, "error.") {
				t.Fatalf("got id %v code %d key %s message %q", id, code, key, message)
			}
		})
	}
	// The session went on through all of it.
	if status, _, body := e.rawPost(t, `{"jsonrpc":"2.0","id":12,"method":"tools/list"}`, inSession); status != 200 || !strings.Contains(body, "memory_search") {
		t.Fatalf("tools/list: %d %s", status, body)
	}
}

// A session is served by the handler that opened it, whatever a later request's Accept says:
// one that asks for what its session does not answer with is refused in words (406), never
// 404 (which tells a client its session has ended). A client that takes only event streams is
// served (it got the SDK's English 400).
func TestHTTPAcceptPerSession(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	streamOnly := map[string]string{"Content-Type": "application/json", "Accept": "text/event-stream"}
	code, hdr, body := e.rawPost(t, initialize, streamOnly)
	sid := hdr.Get("Mcp-Session-Id")
	if code != 200 || sid == "" || !strings.HasPrefix(hdr.Get("Content-Type"), "text/event-stream") || !strings.Contains(body, "protocolVersion") {
		t.Fatalf("initialize accepting only the stream: %d %s\n%s", code, hdr.Get("Content-Type"), body)
	}
	streamOnly["Mcp-Session-Id"] = sid
	e.rawPost(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, streamOnly)
	if code, _, body := e.rawPost(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, streamOnly); code != 200 || !strings.Contains(body, "memory_search") {
		t.Fatalf("tools/list: %d %s", code, body)
	}
	refused := func(h map[string]string, key, words string) {
		t.Helper()
		code, _, body := e.rawPost(t, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, h)
		var got struct{ Code, Message string }
		if err := json.Unmarshal([]byte(body), &got); err != nil || code != http.StatusNotAcceptable || got.Code != key || !strings.Contains(got.Message, words) {
			t.Fatalf("%d %s", code, body)
		}
	}
	refused(map[string]string{"Content-Type": "application/json", "Accept": "application/json", "Mcp-Session-Id": sid},
		"mcp_session_streams", "application/json, text/event-stream")
	// The session is still there.
	if code, _, _ := e.rawPost(t, `{"jsonrpc":"2.0","id":4,"method":"ping"}`, streamOnly); code != 200 {
		t.Fatalf("ping after the refusal: %d", code)
	}
	// And the other way round: a plain-JSON session asked for a stream only.
	_, hdr, _ = e.rawPost(t, initialize, map[string]string{"Content-Type": "application/json", "Accept": "application/json"})
	refused(map[string]string{"Content-Type": "application/json", "Accept": "text/event-stream", "Mcp-Session-Id": hdr.Get("Mcp-Session-Id")},
		"mcp_session_json", "Accept: application/json")
	// A GET that does not take the stream is told what a GET must accept (the message said
	// the endpoint answers in JSON, which the request had asked for).
	req, _ := http.NewRequest(http.MethodGet, e.url, nil)
	req.Header.Set("Authorization", "Bearer "+e.token)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Mcp-Session-Id", sid)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got struct{ Code, Message string }
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || got.Code != "mcp_get_not_acceptable" ||
		!strings.Contains(got.Message, "GET") || strings.Contains(got.Message, "answers in JSON") {
		t.Fatalf("GET: %d %+v %v", res.StatusCode, got, err)
	}
}
