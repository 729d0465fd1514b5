package bridge

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"engram/backend/settings"
)

// mcpStub stands for mcp.Handler: what reaches it was let through.
var mcpStub = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	_, _ = w.Write([]byte("reached"))
})

// mcpDo sends one request to /mcp with the token and returns the status and body.
func (f *fixture) mcpDo(t *testing.T, method string, h map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, f.base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Authorization", "Bearer "+f.srv.Token())
	for k, v := range h {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// A GET that does not accept the event stream is told what a GET is for (the session's event
// stream) and what to send, under its own code; a POST that accepts neither JSON nor a stream
// keeps its code and message. What either method accepts reaches the MCP handler.
func TestMCPNotAcceptableByMethod(t *testing.T) {
	f := start(t, Config{MCP: mcpStub})
	for _, tc := range []struct {
		name, method string
		h            map[string]string
		status       int
		code         string
		words        []string
	}{
		{"get taking json", http.MethodGet, map[string]string{"Accept": "application/json"}, 406, "mcp_get_not_acceptable",
			[]string{"GET", "event stream", "Accept: text/event-stream", "“application/json”", "POST"}},
		{"get taking html", http.MethodGet, map[string]string{"Accept": "text/html"}, 406, "mcp_get_not_acceptable", []string{"“text/html”"}},
		{"post taking html", http.MethodPost, map[string]string{"Content-Type": "application/json", "Accept": "text/html"}, 406, "mcp_not_acceptable",
			[]string{"“text/html”", "a POST must accept application/json or text/event-stream"}},
		{"get taking the stream", http.MethodGet, map[string]string{"Accept": "text/event-stream"}, 200, "", nil},
		{"get taking anything", http.MethodGet, map[string]string{"Accept": "*/*"}, 200, "", nil},
		{"post taking json", http.MethodPost, map[string]string{"Content-Type": "application/json", "Accept": "application/json"}, 200, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := f.mcpDo(t, tc.method, tc.h)
			if tc.code == "" {
				if status != tc.status || body != "reached" {
					t.Fatalf("%d %s", status, body)
				}
				return
			}
			var got struct{ Code, Message string }
			if err := json.Unmarshal([]byte(body), &got); err != nil || status != tc.status || got.Code != tc.code {
				t.Fatalf("%d %s (%v)", status, body, err)
			}
			for _, w := range tc.words {
				if !strings.Contains(got.Message, w) {
					t.Fatalf("message lacks %q: %s", w, got.Message)
				}
			}
		})
	}
}

// The GET's refusal is in the person's language.
func TestMCPGetRefusalIsTranslated(t *testing.T) {
	f := start(t, Config{MCP: mcpStub})
	zh := "zh-CN"
	if _, err := f.srv.api.Settings.Update(settings.Patch{Language: &zh}); err != nil {
		t.Fatal(err)
	}
	status, body := f.mcpDo(t, http.MethodGet, map[string]string{"Accept": "application/json"})
	var got struct{ Code, Message string }
	if err := json.Unmarshal([]byte(body), &got); err != nil || status != 406 || got.Code != "mcp_get_not_acceptable" ||
		!strings.Contains(got.Message, "事件流") || !strings.Contains(got.Message, "GET") {
		t.Fatalf("%d %s (%v)", status, body, err)
	}
}

// What no route takes is refused in the person's language, naming /mcp: a POST to another
// path (a client with the URL of the older HTTP+SSE transport, /sse or /messages, or /mcp/)
// and an OPTIONS of /mcp got the mux's English "Method Not Allowed"; a GET for an event stream
// at /sse got the web UI's page with 200, which such a client read as a broken stream. A
// browser's GET of any path still gets the web UI.
func TestMCPWrongRoutesAreRefusedInWords(t *testing.T) {
	f := start(t, Config{MCP: mcpStub})
	for _, tc := range []struct {
		method, path, accept string
		status               int
		code                 string
	}{
		{http.MethodPost, "/sse", "application/json, text/event-stream", 404, "bridge_no_route"},
		{http.MethodPost, "/messages?sessionId=1", "application/json", 404, "bridge_no_route"},
		{http.MethodPost, "/mcp/", "application/json", 404, "bridge_no_route"},
		{http.MethodGet, "/sse", "text/event-stream", 404, "bridge_no_route"},
		{http.MethodOptions, "/mcp", "", 405, "mcp_method_not_allowed"},
		// OAuth discovery, which the TypeScript SDK's clients (Claude Code, VS Code, Cursor) run
		// after a 401, read the web UI's page and failed on "Unexpected token '<'".
		{http.MethodGet, "/.well-known/oauth-protected-resource/mcp", "application/json", 404, "bridge_no_route"},
		{http.MethodGet, "/.well-known/oauth-protected-resource", "application/json", 404, "bridge_no_route"},
		{http.MethodGet, "/.well-known/oauth-authorization-server", "", 404, "bridge_no_route"},
		{http.MethodGet, "/.well-known/openid-configuration", "*/*", 404, "bridge_no_route"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, f.base+tc.path, strings.NewReader(`{}`))
			req.Header.Set("Authorization", "Bearer "+f.srv.Token())
			req.Header.Set("Content-Type", "application/json")
			if tc.accept != "" {
				req.Header.Set("Accept", tc.accept)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var e struct{ Code, Message string }
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tc.status || json.Unmarshal(body, &e) != nil || e.Code != tc.code || e.Message == "" ||
				(tc.code == "bridge_no_route" && !strings.Contains(e.Message, "/mcp")) {
				t.Fatalf("%d %s", res.StatusCode, body)
			}
		})
	}
	req, _ := http.NewRequest(http.MethodGet, f.base+"/sse", nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("a browser's GET: %d %s", res.StatusCode, ct)
	}
}
