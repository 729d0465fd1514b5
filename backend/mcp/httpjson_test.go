package mcp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"engram/backend/mcp"
)

// rawPost sends one JSON-RPC message to /mcp with the token and the headers given, and
// returns the status, the response's headers and its body.
func (e *httpEnv) rawPost(t *testing.T, body string, h map[string]string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+e.token)
	for k, v := range h {
		if v == "" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"json-only","version":"1"}}}`

// A client that accepts only application/json (or sends no Accept at all) is served in plain
// JSON for its whole session — initialize, tools, a write and a search — instead of the SDK's
// 400; ending the session ends it. A client that accepts both still gets its event stream.
func TestHTTPJSONOnlyClient(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	for _, accept := range []string{"application/json", ""} {
		t.Run("accept "+accept, func(t *testing.T) {
			h := map[string]string{"Content-Type": "application/json", "Accept": accept}
			code, hdr, body := e.rawPost(t, initialize, h)
			if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") || !strings.Contains(body, `"protocolVersion"`) {
				t.Fatalf("initialize: %d %s\n%s", code, hdr.Get("Content-Type"), body)
			}
			sid := hdr.Get("Mcp-Session-Id")
			if sid == "" {
				t.Fatal("no session id")
			}
			h["Mcp-Session-Id"] = sid
			if code, _, body := e.rawPost(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h); code != 202 {
				t.Fatalf("initialized: %d %s", code, body)
			}
			call := func(id int, name string, args string) map[string]any {
				t.Helper()
				code, hdr, body := e.rawPost(t, `{"jsonrpc":"2.0","id":`+string(rune('0'+id))+`,"method":"tools/call","params":{"name":"`+name+`","arguments":`+args+`}}`, h)
				if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
					t.Fatalf("%s: %d %s\n%s", name, code, hdr.Get("Content-Type"), body)
				}
				var msg struct {
					Result map[string]any `json:"result"`
				}
				if err := json.Unmarshal([]byte(body), &msg); err != nil || msg.Result == nil {
					t.Fatalf("%s: %v\n%s", name, err, body)
				}
				return msg.Result
			}
			slug := "json-only-" + map[string]string{"application/json": "a", "": "b"}[accept]
			if r := call(2, "memory_write", `{"slug":"`+slug+`","scope":"global","type":"reference","title":"Kiln schedule","body":"The kiln fires on Thursdays."}`); r["isError"] == true {
				t.Fatalf("write: %v", r)
			}
			// (a limit sent as a string, as models often send it, is read as the number)
			if r := call(3, "memory_search", `{"query":"kiln thursdays","limit":"3"}`); !strings.Contains(toJSON(r), slug) || r["isError"] == true {
				t.Fatalf("search did not find %s: %v", slug, r)
			}
			req, _ := http.NewRequest(http.MethodDelete, e.url, nil)
			req.Header.Set("Authorization", "Bearer "+e.token)
			req.Header.Set("Mcp-Session-Id", sid)
			res, err := http.DefaultClient.Do(req)
			if err != nil || res.StatusCode >= 300 {
				t.Fatalf("delete: %v %v", res, err)
			}
			res.Body.Close()
			if code, _, _ := e.rawPost(t, `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`, h); code != 404 {
				t.Fatalf("a call on an ended session: %d", code)
			}
		})
	}
	code, hdr, _ := e.rawPost(t, initialize, map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("a streaming client: %d %s", code, hdr.Get("Content-Type"))
	}
}

// A request of the wrong shape is refused with a coded, translated error, not the SDK's
// English text: a body that is not JSON, no Content-Type, an Accept that takes neither JSON
// nor an event stream, a GET that does not take the stream, a protocol version it does not speak.
func TestHTTPRequestShapeRefused(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	for _, tc := range []struct {
		name, method string
		h            map[string]string
		status       int
		code, words  string
	}{
		{"text body", http.MethodPost, map[string]string{"Content-Type": "text/plain", "Accept": "application/json"}, 415, "mcp_content_type", "text/plain"},
		{"no content type", http.MethodPost, map[string]string{"Content-Type": "", "Accept": "application/json"}, 415, "mcp_content_type_missing", "names no type"},
		{"html only", http.MethodPost, map[string]string{"Content-Type": "application/json", "Accept": "text/html"}, 406, "mcp_not_acceptable", "text/html"},
		{"get without the stream", http.MethodGet, map[string]string{"Accept": "application/json"}, 406, "mcp_get_not_acceptable", "application/json"},
		// The SDK answered an English text/plain 400.
		{"unknown protocol version", http.MethodPost, map[string]string{"Content-Type": "application/json", "Accept": "application/json", "Mcp-Protocol-Version": "1999-01-01"}, 400, "mcp_protocol_version", "2025-03-26"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, e.url, strings.NewReader(initialize))
			req.Header.Set("Authorization", "Bearer "+e.token)
			for k, v := range tc.h {
				if v != "" {
					req.Header.Set(k, v)
				}
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var got struct {
				Code, Message string
			}
			b, _ := io.ReadAll(res.Body)
			if err := json.Unmarshal(b, &got); err != nil || res.StatusCode != tc.status || got.Code != tc.code || !strings.Contains(got.Message, tc.words) {
				t.Fatalf("%d %s (%v)", res.StatusCode, b, err)
			}
		})
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
