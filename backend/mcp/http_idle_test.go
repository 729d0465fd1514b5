package mcp_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"engram/backend/mcp"
)

// openStream opens session h's event stream (GET) and returns its response, kept open.
func (e *httpEnv) openStream(t *testing.T, h map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.url, nil)
	req.Header.Set("Authorization", "Bearer "+e.token)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", h["Mcp-Session-Id"])
	req.Header.Set("Mcp-Protocol-Version", h["Mcp-Protocol-Version"])
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("GET: %d", res.StatusCode)
	}
	return res
}

// A session whose client keeps its event stream open is not closed for being quiet: the SDK's
// idle timer counted only POSTs and closed it under the open stream, and its client's next call
// got a 404 — which Claude Code and the TypeScript SDK do not recover from (they do not start
// a new session), so every later call failed after a person left an agent alone for half an
// hour. A session with nothing open is still closed once idle; its client's next call is served
// in a session revived for it (httprevive.go), as the agent its signed id carries.
func TestHTTPSessionWithAnOpenStreamOutlivesTheIdleTimeout(t *testing.T) {
	defer mcp.SetSessionTimeout(mcp.SetSessionTimeout(300 * time.Millisecond))
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	for i, accept := range []string{"application/json, text/event-stream", "application/json"} {
		t.Run(accept, func(t *testing.T) {
			listening := e.batchSession(t, accept)
			quiet := e.batchSession(t, accept)
			stream := e.openStream(t, listening)
			defer stream.Body.Close()
			// The stream carries the session's notifications: a write by the quiet session
			// reaches it, so it is open on the server's side.
			write := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_write","arguments":{"slug":"idle-` +
				string(rune('a'+i)) + `","scope":"global","type":"reference","title":"Idle","body":"Written while the other session listened."}}}`
			if code, _, body := e.rawPost(t, write, quiet); code != 200 || strings.Contains(body, `"isError":true`) {
				t.Fatalf("write: %d %s", code, body)
			}
			lines := bufio.NewReader(stream.Body)
			for {
				l, err := lines.ReadString('\n')
				if err != nil {
					t.Fatalf("the stream ended before the notification: %v", err)
				}
				if strings.Contains(l, "notifications/resources/list_changed") {
					break
				}
			}
			// Both sessions sit idle past the timeout; the listening one with its stream open.
			time.Sleep(4 * 300 * time.Millisecond)
			ping := `{"jsonrpc":"2.0","id":3,"method":"ping"}`
			if code, _, body := e.rawPost(t, ping, listening); code != 200 || !strings.Contains(body, `"result":{}`) {
				t.Fatalf("the session with an open stream was closed for being idle: %d %s", code, body)
			}
			// The quiet one was closed: its client's next call is served in a session revived
			// for its id (a 404 is not recovered from), as the agent it was.
			code, _, body := e.rawPost(t, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"kv_list","arguments":{}}}`, quiet)
			if code != 200 || strings.Contains(body, `"isError":true`) || !strings.Contains(body, `\"agent\":\"json-only\"`) {
				t.Fatalf("the idle session without a stream: %d %s", code, body)
			}
		})
	}
}

// A GET or DELETE that names no session, and a second event stream of one session, are refused
// with coded errors in the person's language, as every other refusal of /mcp is (the SDK
// answered them in English plain text: "GET requires an Mcp-Session-Id header", "stream ID
// conflicts with ongoing stream"). The first stream is untouched by the refused second.
func TestHTTPStreamRefusalsAreCoded(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{Agent: "streamer"})
	send := func(method string, h map[string]string) (int, string, string) {
		t.Helper()
		req, _ := http.NewRequest(method, e.url, nil)
		req.Header.Set("Authorization", "Bearer "+e.token)
		req.Header.Set("Accept", "text/event-stream")
		for k, v := range h {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var refusal struct{ Code, Message string }
		_ = json.NewDecoder(res.Body).Decode(&refusal)
		return res.StatusCode, refusal.Code, refusal.Message
	}
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		code, key, msg := send(method, nil)
		if code != 400 || key != "mcp_session_required" || !strings.Contains(msg, "Mcp-Session-Id") {
			t.Fatalf("%s without a session: %d %s %q", method, code, key, msg)
		}
	}
	h := e.batchSession(t, "application/json, text/event-stream")
	stream := e.openStream(t, h)
	defer stream.Body.Close()
	code, key, msg := send(http.MethodGet, map[string]string{"Mcp-Session-Id": h["Mcp-Session-Id"], "Mcp-Protocol-Version": h["Mcp-Protocol-Version"]})
	if code != 409 || key != "mcp_stream_open" || !strings.Contains(msg, h["Mcp-Session-Id"]) {
		t.Fatalf("a second stream: %d %s %q", code, key, msg)
	}
	// The first stream still carries the session's notifications.
	write := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_write","arguments":{"slug":"after-refusal","scope":"global","type":"reference","title":"After","body":"Written after the second stream was refused."}}}`
	if code, _, body := e.rawPost(t, write, h); code != 200 || strings.Contains(body, `"isError":true`) {
		t.Fatalf("write: %d %s", code, body)
	}
	lines := bufio.NewReader(stream.Body)
	for {
		l, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("the first stream ended: %v", err)
		}
		if strings.Contains(l, "notifications/resources/list_changed") {
			break
		}
	}
}
