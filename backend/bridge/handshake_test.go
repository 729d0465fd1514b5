package bridge

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"unicode"

	"engram/backend/api"
)

// A request to /ws that is no websocket handshake (a browser tab opened on it, a client that
// left out a header), and a method a route does not take, were answered by the websocket
// library and the mux in English plain text ("WebSocket protocol violation: …", "Method Not
// Allowed"); every refusal is now the bridge's JSON error in the person's language.
func TestHandshakeAndMethodRefusalsAreTranslated(t *testing.T) {
	f := start(t, Config{})
	ui := f.mustDial(t)
	if r := call(t, ui, 1, "settings.update", `{"language":"zh-CN"}`); r.Error != nil {
		t.Fatal(r.Error)
	}
	tok := f.srv.Token()
	upgrade := map[string]string{"Connection": "keep-alive, Upgrade", "Upgrade": "websocket"}
	with := func(extra map[string]string) map[string]string {
		h := map[string]string{}
		for k, v := range upgrade {
			h[k] = v
		}
		for k, v := range extra {
			h[k] = v
		}
		return h
	}
	cases := []struct {
		name, method, path string
		header             map[string]string
		status             int
		code               string
		wantHeader         [2]string
	}{
		{"plain GET on /ws", "GET", "/ws?token=" + tok, nil, 426, "bridge_ws_upgrade_required", [2]string{"Upgrade", "websocket"}},
		{"Upgrade to something else", "GET", "/ws?token=" + tok, map[string]string{"Connection": "Upgrade", "Upgrade": "h2c"}, 426,
			"bridge_ws_upgrade_required", [2]string{"Upgrade", "websocket"}},
		{"old protocol version", "GET", "/ws?token=" + tok, with(map[string]string{"Sec-WebSocket-Version": "8",
			"Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}), 400, "bridge_ws_bad_handshake", [2]string{"Sec-WebSocket-Version", "13"}},
		{"no key", "GET", "/ws?token=" + tok, with(map[string]string{"Sec-WebSocket-Version": "13"}), 400, "bridge_ws_bad_handshake", [2]string{}},
		{"key not 16 bytes", "GET", "/ws?token=" + tok, with(map[string]string{"Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "c2hvcnQ="}),
			400, "bridge_ws_bad_handshake", [2]string{}},
		{"POST to /ws", "POST", "/ws?token=" + tok, nil, 405, "bridge_method_not_allowed", [2]string{"Allow", "GET"}},
		// Anywhere but /ws, /healthz and /mcp, a method the UI does not take names nothing
		// served there, and says where MCP is (a client set up for the wrong URL posts here).
		{"POST to the UI", "POST", "/", nil, 404, "bridge_no_route", [2]string{}},
		{"DELETE on a UI route", "DELETE", "/memories/x", nil, 404, "bridge_no_route", [2]string{}},
		{"PUT to /healthz", "PUT", "/healthz", nil, 405, "bridge_method_not_allowed", [2]string{"Allow", "GET, HEAD"}},
		// A wrong token is still refused first, whatever the handshake looks like.
		{"plain GET on /ws, wrong token", "GET", "/ws?token=wrong", nil, 401, "bridge_unauthorized", [2]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, f.base+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e api.Error
			derr := json.NewDecoder(resp.Body).Decode(&e)
			if resp.StatusCode != tc.status || derr != nil || e.Code != tc.code {
				t.Fatalf("%d %+v (%v), want %d %s", resp.StatusCode, e, derr, tc.status, tc.code)
			}
			if !strings.ContainsFunc(e.Message, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
				t.Fatalf("the refusal is not in the person's language: %q", e.Message)
			}
			if k := tc.wantHeader[0]; k != "" && resp.Header.Get(k) != tc.wantHeader[1] {
				t.Fatalf("%s: %q, want %q", k, resp.Header.Get(k), tc.wantHeader[1])
			}
		})
	}
	// HEAD still reaches the routes that take GET.
	for _, p := range []string{"/", "/healthz"} {
		resp, err := http.Head(f.base + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("HEAD %s: %d", p, resp.StatusCode)
		}
	}
}
