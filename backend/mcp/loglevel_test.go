package mcp_test

import (
	"strings"
	"testing"

	"engram/backend/mcp"
)

// logging/setLevel takes only the spec's eight levels: anything else (a level the spec does not
// name, a number, none at all) is invalid params, -32602, in words; the SDK answered {} and
// kept the nonsense as the session's level. Each valid level is accepted, in any session.
func TestStdioSetLevelChecksTheLevel(t *testing.T) {
	p := startRaw(t, t.TempDir(), "--agent", "tester")
	p.initialize("2025-06-18", "")
	for _, tc := range []struct{ id, params string }{
		{"loud", `{"level":"loud"}`},
		{"upper", `{"level":"INFO"}`},
		{"number", `{"level":3}`},
		{"empty", `{"level":""}`},
		{"missing", `{}`},
		{"no params", ``},
		{"null", `{"level":null}`},
	} {
		params := ""
		if tc.params != "" {
			params = `,"params":` + tc.params
		}
		p.send(`{"jsonrpc":"2.0","id":"` + tc.id + `","method":"logging/setLevel"` + params + `}`)
		wantError(t, p.answer(tc.id), -32602, "mcp_log_level_invalid")
	}
	for _, level := range []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"} {
		p.send(`{"jsonrpc":"2.0","id":"` + level + `","method":"logging/setLevel","params":{"level":"` + level + `"}}`)
		if m := p.answer(level); m.Error != nil || string(m.Result) != "{}" {
			t.Errorf("setLevel %s: %s", level, m.raw)
		}
	}
}

// Over HTTP the refusal is a JSON-RPC answer (200: the session goes on), alone and in a
// 2025-03-26 batch beside the other calls' answers.
func TestHTTPSetLevelChecksTheLevel(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{Agent: "tester"})
	h := e.batchSession(t, "application/json")
	code, _, body := e.rawPost(t, `{"jsonrpc":"2.0","id":5,"method":"logging/setLevel","params":{"level":"loud"}}`, h)
	if id, c, key, msg := rpcBody(t, body); code != 200 || toJSON(id) != "5" || c != -32602 || key != "mcp_log_level_invalid" || !strings.Contains(msg, "warning") {
		t.Fatalf("setLevel loud: %d %s", code, body)
	}
	code, _, body = e.rawPost(t, `[{"jsonrpc":"2.0","id":6,"method":"logging/setLevel","params":{"level":7}},`+
		`{"jsonrpc":"2.0","id":7,"method":"logging/setLevel","params":{"level":"notice"}}]`, h)
	got := map[string]map[string]any{}
	for _, a := range batchAnswers(t, "application/json", body) {
		got[toJSON(a["id"])] = a
	}
	if code != 200 || len(got) != 2 || got["6"]["error"] == nil || got["7"]["result"] == nil {
		t.Fatalf("batch: %d %s", code, body)
	}
	if e, _ := got["6"]["error"].(map[string]any); e["code"] != -32602.0 {
		t.Fatalf("batch: level 7 answered %v", got["6"])
	}
}
