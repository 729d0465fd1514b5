package mcp_test

import (
	"bufio"
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
// hour. A session with nothing open is still closed once idle, and its client told so (404).
func TestHTTPSessionWithAnOpenStreamOutlivesTheIdleTimeout(t *testing.T) {
	defer mcp.SetSessionTimeout(mcp.SetSessionTimeout(300 * time.Millisecond))
	e := newHTTP(t, t.TempDir(), mcp.Config{Agent: "idler"})
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
			code, _, body := e.rawPost(t, ping, quiet)
			if code != 404 || !strings.Contains(body, "mcp_session_not_found") {
				t.Fatalf("the idle session without a stream: %d %s", code, body)
			}
		})
	}
}
