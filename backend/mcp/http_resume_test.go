package mcp_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"engram/backend/bridge"
	"engram/backend/mcp"
)

// initSession opens a streaming session as the client name and returns its headers.
func initSession(t *testing.T, e *httpEnv, name string) map[string]string {
	t.Helper()
	return initSessionAccepting(t, e, name, "application/json, text/event-stream")
}

// initSessionAccepting opens a session as the client name whose requests send accept (a
// plain-JSON client sends "application/json" alone) and returns its headers.
func initSessionAccepting(t *testing.T, e *httpEnv, name, accept string) map[string]string {
	t.Helper()
	h := map[string]string{"Content-Type": "application/json", "Accept": accept}
	code, hdr, body := e.rawPost(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",`+
		`"capabilities":{},"clientInfo":{"name":"`+name+`","version":"1"}}}`, h)
	if code != 200 || hdr.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	h["Mcp-Session-Id"], h["Mcp-Protocol-Version"] = hdr.Get("Mcp-Session-Id"), "2025-06-18"
	if code, _, body := e.rawPost(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h); code != 202 {
		t.Fatalf("initialized: %d %s", code, body)
	}
	return h
}

// lastBits is id with the bits its last base64 character does not use set: an id that decodes
// to the same bytes, which must not name the session too.
func lastBits(id string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	unused := map[int]int{2: 0xf, 3: 0x3}[len(id)%4] // 1 or 2 bytes in the last group
	last := strings.IndexByte(alphabet, id[len(id)-1])
	if unused == 0 || last < 0 {
		return id + "=" // no unused bits: padding where the raw encoding has none
	}
	return id[:len(id)-1] + string(alphabet[last|unused])
}

// withSession is h naming the session id.
func withSession(h map[string]string, id string) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		out[k] = v
	}
	out["Mcp-Session-Id"] = id
	return out
}

// unknownSession checks that a POST and a GET naming h's session are answered 404
// mcp_session_not_found (the client starts a new session).
func unknownSession(t *testing.T, e *httpEnv, what string, h map[string]string) {
	t.Helper()
	if code, _, body := e.rawPost(t, callBody(50, "kv_get", `{"key":"note"}`), h); code != 404 || !strings.Contains(body, `"code":"mcp_session_not_found"`) {
		t.Errorf("%s, POST: %d %s", what, code, body)
	}
	req, _ := http.NewRequest(http.MethodGet, e.url, nil)
	for k, v := range map[string]string{"Authorization": "Bearer " + e.token, "Accept": "text/event-stream",
		"Mcp-Session-Id": h["Mcp-Session-Id"], "Mcp-Protocol-Version": "2025-06-18"} {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Errorf("%s, GET: %d", what, res.StatusCode)
	}
}

// A session id is taken back only when this home signed it under the current token: one made
// up, altered anywhere (an agent name swapped in above all), from another home, or from
// before the bridge token was regenerated — a live session's too, since a regenerate revokes —
// names no session: 404 mcp_session_not_found, and the client starts a new one. An unsigned
// id was served in a session revived for it, and a signed id that did not verify would have
// handed its bearer another agent's notes. The home's secret is made on first use, readable by
// its owner alone.
func TestHTTPUnverifiedSessionIDsAreUnknown(t *testing.T) {
	home := t.TempDir()
	secret := filepath.Join(home, bridge.SessionSecretFile)
	e := newHTTP(t, home, mcp.Config{})
	addr := fmt.Sprintf("127.0.0.1:%d", e.srv.Port())
	if _, err := os.Stat(secret); !os.IsNotExist(err) {
		t.Fatalf("the session secret exists before any MCP request: %v", err)
	}
	alpha := initSession(t, e, "alpha")
	if fi, err := os.Stat(secret); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Fatalf("the session secret after the first session: %v %v", fi, err)
	}
	if out, isErr := e.tool(t, callBody(2, "kv_set", `{"key":"note","value":"alpha only"}`), alpha); isErr {
		t.Fatalf("kv_set: %v", out)
	}
	beta := initSession(t, e, "beta")
	id := alpha["Mcp-Session-Id"]
	raw, err := base64.RawURLEncoding.DecodeString(id)
	if err != nil || !strings.Contains(string(raw), "alpha") {
		t.Fatalf("the id does not carry its agent: %q %v", id, err)
	}
	altered := func(i int) string {
		b := []byte(id)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	// beta's id with alpha's name where beta's was (the same length): the crafted widening.
	braw, _ := base64.RawURLEncoding.DecodeString(beta["Mcp-Session-Id"])
	swapped := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(braw), "\x04beta", "\x04omeg", 1)))
	swappedAlpha := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), "\x05alpha", "\x05omega", 1)))
	other := newHTTP(t, t.TempDir(), mcp.Config{})
	fromOther := initSession(t, other, "alpha")["Mcp-Session-Id"]

	for _, tc := range []struct{ name, id string }{
		{"made up", "bogus"},
		{"made up like the SDK's", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
		{"outside visible ASCII", "has a space"},
		{"first character altered", altered(0)},
		{"a middle character altered", altered(len(id) / 2)},
		{"last character altered", altered(len(id) - 1)},
		{"last character's unused bits set", lastBits(id)},
		{"cut short", id[:len(id)-2]},
		{"lengthened", id + "AA"},
		{"its agent swapped", swappedAlpha},
		{"another agent's name swapped in", swapped},
		{"from another home", fromOther},
	} {
		if tc.id == id {
			t.Fatalf("%s: the id is unchanged", tc.name)
		}
		unknownSession(t, e, tc.name, withSession(alpha, tc.id))
	}
	if out, isErr := e.tool(t, callBody(3, "kv_get", `{"key":"note"}`), alpha); isErr || out["value"] != "alpha only" {
		t.Fatalf("alpha's own session: %v", out)
	}

	// After a restart the signed id is alpha's again; the others still name nothing.
	e.stop()
	e = newHTTPAt(t, home, mcp.Config{}, addr)
	if out, isErr := e.tool(t, callBody(4, "kv_get", `{"key":"note"}`), alpha); isErr || out["value"] != "alpha only" {
		t.Fatalf("alpha after a restart: %v", out)
	}
	unknownSession(t, e, "altered, after a restart", withSession(alpha, altered(len(id)/2)))
	unknownSession(t, e, "from another home, after a restart", withSession(alpha, fromOther))

	// A regenerated token revokes: the live session is gone, and after a restart too.
	tok, err := e.srv.RegenerateToken()
	if err != nil {
		t.Fatal(err)
	}
	e.token = tok
	unknownSession(t, e, "live, from before the regenerate", alpha)
	e.stop()
	e = newHTTPAt(t, home, mcp.Config{}, addr)
	unknownSession(t, e, "from before the regenerate, after a restart", alpha)
	// A new session (with the new token) is alpha again.
	fresh := initSession(t, e, "alpha")
	if out, isErr := e.tool(t, callBody(5, "kv_get", `{"key":"note"}`), fresh); isErr || out["value"] != "alpha only" {
		t.Fatalf("alpha's new session: %v", out)
	}
	// One its client ended is not taken back.
	req, _ := http.NewRequest(http.MethodDelete, e.url, nil)
	req.Header.Set("Authorization", "Bearer "+e.token)
	req.Header.Set("Mcp-Session-Id", fresh["Mcp-Session-Id"])
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode >= 300 {
		t.Fatalf("delete: %v %v", res, err)
	}
	unknownSession(t, e, "ended", fresh)
}
