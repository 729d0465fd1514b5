package mcp_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"engram/backend/mcp"
)

// toolAnswer reads the answer to a tools/call (plain JSON or an event stream): the tool's JSON
// text and whether it is an error.
func toolAnswer(t *testing.T, code int, hdr http.Header, body string) (map[string]any, bool) {
	t.Helper()
	if code != 200 {
		t.Fatalf("tools/call: %d %s", code, body)
	}
	for _, a := range batchAnswers(t, hdr.Get("Content-Type"), body) {
		res, _ := a["result"].(map[string]any)
		content, _ := res["content"].([]any)
		if len(content) != 1 {
			continue
		}
		text, _ := content[0].(map[string]any)["text"].(string)
		var out map[string]any
		if err := json.Unmarshal([]byte(text), &out); err != nil {
			t.Fatalf("not JSON: %s", text)
		}
		return out, res["isError"] == true
	}
	t.Fatalf("no tool result in %s", body)
	return nil, false
}

// tool posts a tools/call and reads its answer.
func (e *httpEnv) tool(t *testing.T, body string, h map[string]string) (map[string]any, bool) {
	t.Helper()
	code, hdr, text := e.rawPost(t, body, h)
	return toolAnswer(t, code, hdr, text)
}

func callBody(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

// A client that keeps its session id across a restart of Engram (Claude Code does: it never
// initializes again on the 404) goes on working: its calls, its event stream and its JSON-only
// sibling are served in a session revived for the old id, as the agent it was — the id is
// signed and carries it (alpha's notes were refused as mcp_agent_resumed, and the person had to
// reconnect the client). The token is checked again (a wrong one is 401). An initialize naming
// the old id and a session its client ended are 404; ids that do not verify are
// TestHTTPUnverifiedSessionIDsAreUnknown's.
func TestHTTPStaleSessionAfterRestart(t *testing.T) {
	home := t.TempDir()
	e := newHTTP(t, home, mcp.Config{})
	addr := fmt.Sprintf("127.0.0.1:%d", e.srv.Port())
	stream := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	open := func(e *httpEnv, accept string) map[string]string {
		t.Helper()
		return initSessionAccepting(t, e, "alpha", accept)
	}
	h, plain, ended := open(e, stream["Accept"]), open(e, "application/json"), open(e, stream["Accept"])
	if out, isErr := e.tool(t, callBody(2, "kv_set", `{"key":"note","value":"alpha only"}`), h); isErr {
		t.Fatalf("kv_set: %v", out)
	}
	if out, isErr := e.tool(t, callBody(3, "memory_write", `{"slug":"kiln","scope":"global","type":"reference",`+
		`"title":"Kiln","body":"The kiln fires on Thursdays."}`), h); isErr {
		t.Fatalf("memory_write: %v", out)
	}
	req, _ := http.NewRequest(http.MethodDelete, e.url, nil)
	req.Header.Set("Authorization", "Bearer "+e.token)
	req.Header.Set("Mcp-Session-Id", ended["Mcp-Session-Id"])
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode >= 300 {
		t.Fatalf("delete: %v %v", res, err)
	}

	e.stop()
	e = newHTTPAt(t, home, mcp.Config{}, addr)

	// The old sessions' calls are served.
	if out, isErr := e.tool(t, callBody(4, "memory_search", `{"query":"kiln thursdays"}`), h); isErr || !strings.Contains(toJSON(out), "kiln") {
		t.Fatalf("memory_search after the restart: %v", out)
	}
	code, hdr, body := e.rawPost(t, callBody(5, "memory_list", `{}`), plain)
	if out, isErr := toolAnswer(t, code, hdr, body); isErr || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
		t.Fatalf("a JSON-only client after the restart: %s %v", hdr.Get("Content-Type"), out)
	}
	if code, _, body := e.rawPost(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`, h); code != 200 || !strings.Contains(body, `"result"`) {
		t.Fatalf("ping after the restart: %d %s", code, body)
	}
	// … as alpha, whose id it is: its agent's notes are there, in both kinds of session.
	for i, hh := range []map[string]string{h, plain} {
		if out, isErr := e.tool(t, callBody(7+i*100, "kv_get", `{"key":"note"}`), hh); isErr || out["value"] != "alpha only" {
			t.Fatalf("kv_get in a revived session: %v", out)
		}
	}
	if out, isErr := e.tool(t, callBody(8, "memory_search", `{"query":"kiln","scope":"agent"}`), h); isErr {
		t.Fatalf("an agent-scope search in a revived session: %v", out)
	}
	// Its event stream opens again.
	get, _ := http.NewRequest(http.MethodGet, e.url, nil)
	for k, v := range map[string]string{"Authorization": "Bearer " + e.token, "Accept": "text/event-stream",
		"Mcp-Session-Id": h["Mcp-Session-Id"], "Mcp-Protocol-Version": "2025-06-18", "Last-Event-ID": "0_3"} {
		get.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET after the restart: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	res.Body.Close()
	// The token is checked as ever.
	bad := map[string]string{"Authorization": "Bearer wrong"}
	for k, v := range h {
		bad[k] = v
	}
	if code, _, _ := e.rawPost(t, callBody(9, "memory_list", `{}`), bad); code != 401 {
		t.Fatalf("a wrong token on a stale session: %d", code)
	}
	// Not revived: a session its client ended (before the restart: TestHTTPEndedSessionsStayEnded),
	// an initialize naming an old id.
	if code, _, body := e.rawPost(t, callBody(10, "memory_list", `{}`), ended); code != 404 || !strings.Contains(body, "mcp_session_not_found") {
		t.Fatalf("a session ended before the restart: %d %s", code, body)
	}
	stale := map[string]string{"Mcp-Session-Id": "stale-initialize"}
	for k, v := range stream {
		stale[k] = v
	}
	if code, _, _ := e.rawPost(t, `{"jsonrpc":"2.0","id":12,"method":"initialize","params":{"protocolVersion":"2025-06-18",`+
		`"capabilities":{},"clientInfo":{"name":"alpha","version":"1"}}}`, stale); code != 404 {
		t.Fatalf("an initialize naming an unknown session: %d", code)
	}
	// A client that starts again is alpha again.
	fresh := open(e, stream["Accept"])
	if out, isErr := e.tool(t, callBody(13, "kv_get", `{"key":"note"}`), fresh); isErr || out["value"] != "alpha only" {
		t.Fatalf("kv_get in a new session: %v", out)
	}
}

// The official Go SDK's client, connected before a restart, goes on calling tools after it, as
// the agent it was and in the project its roots name (the revived session asks for them again).
func TestHTTPSDKClientAcrossRestart(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	e := newHTTP(t, home, mcp.Config{})
	addr := fmt.Sprintf("127.0.0.1:%d", e.srv.Port())
	c, err := e.connect(t, clientOpts{name: "alpha", roots: []string{project}}, e.bearer())
	if err != nil {
		t.Fatal(err)
	}
	c.ok("memory_write", map[string]any{"slug": "kiln", "scope": "global", "type": "reference", "title": "Kiln",
		"body": "The kiln fires on Thursdays."})
	c.ok("memory_write", map[string]any{"slug": "glaze", "scope": "project", "type": "project", "title": "Glaze",
		"body": "The glaze recipe lives in this project."})
	c.ok("kv_set", map[string]any{"key": "note", "value": "alpha only"})
	e.stop()
	newHTTPAt(t, home, mcp.Config{}, addr)
	if out := c.ok("memory_search", map[string]any{"query": "kiln thursdays"}); !strings.Contains(toJSON(out), "kiln") {
		t.Fatalf("memory_search after the restart: %v", out)
	}
	if out := c.ok("kv_get", map[string]any{"key": "note"}); out["value"] != "alpha only" {
		t.Fatalf("kv_get after the restart: %v", out)
	}
	if out := c.ok("memory_list", map[string]any{"scope": "project"}); !strings.Contains(toJSON(out), "glaze") {
		t.Fatalf("the project's memories after the restart: %v", out)
	}
}
