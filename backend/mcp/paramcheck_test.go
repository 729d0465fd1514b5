package mcp_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"engram/backend/mcp"
)

// goWords are what the SDK's refusals of params said: Go's decoder and the SDK's types.
var goWords = []string{"unmarshal", "Go struct", "Go value", "mcp.", "handling '", "missing required"}

// stateless is a call's _meta in the stateless protocol (2026-07-28), naming another client.
const stateless = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"other","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

// paramCases are calls whose params the SDK cannot read, and a call of the stateless protocol.
var paramCases = []struct {
	name, line string
	code       int64
	key        string
	says       string // what the message names
}{
	{"params not an object", `{"jsonrpc":"2.0","id":21,"method":"tools/call","params":5}`, -32602, "mcp_rpc_params_not_object", "tools/call"},
	{"params a list", `{"jsonrpc":"2.0","id":22,"method":"ping","params":[]}`, -32602, "mcp_rpc_params_not_object", "ping"},
	{"tool name a number", `{"jsonrpc":"2.0","id":23,"method":"tools/call","params":{"name":5}}`, -32602, "mcp_rpc_params_field", "name"},
	{"uri a number", `{"jsonrpc":"2.0","id":24,"method":"resources/read","params":{"uri":5}}`, -32602, "mcp_rpc_params_field", "uri"},
	{"cursor a number", `{"jsonrpc":"2.0","id":25,"method":"tools/list","params":{"cursor":5}}`, -32602, "mcp_rpc_params_field", "cursor"},
	{"_meta a string", `{"jsonrpc":"2.0","id":26,"method":"ping","params":{"_meta":"x"}}`, -32602, "mcp_rpc_params_field", "_meta"},
	{"no params", `{"jsonrpc":"2.0","id":27,"method":"tools/call"}`, -32602, "mcp_rpc_params_required", "tools/call"},
	{"params null", `{"jsonrpc":"2.0","id":28,"method":"resources/read","params":null}`, -32602, "mcp_rpc_params_required", "resources/read"},
	{"stateless _meta", `{"jsonrpc":"2.0","id":29,"method":"tools/call","params":{"name":"kv_get","arguments":{"key":"k"},` + stateless + `}}`,
		-32022, "mcp_protocol_version_unsupported", "2025-11-25"},
}

// wantWords checks a refusal names what it is about and says nothing of Go.
func wantWords(t *testing.T, message, says string) {
	t.Helper()
	if !strings.Contains(message, says) {
		t.Fatalf("the message does not name %q: %s", says, message)
	}
	for _, w := range goWords {
		if strings.Contains(message, w) {
			t.Fatalf("the message speaks Go (%q): %s", w, message)
		}
	}
}

// Over stdio, params of the wrong shape are refused with -32602 naming the method or the field
// and the kind it takes, in the person's language — the SDK's message was Go's decoder
// ("unmarshaling \"5\" into a *mcp.CallToolParamsRaw: json: cannot unmarshal …"), and a call
// without the params it needs got "invalid request: missing required \"params\"". A call of the
// stateless protocol gets the protocol's -32022 with the versions this server speaks in its
// data (the SDK said "unsupported protocol version" in English). The session goes on.
func TestStdioParamsOfTheWrongShape(t *testing.T) {
	p := startRaw(t, t.TempDir())
	p.initialize("2025-06-18", "")
	for i, tc := range paramCases {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			before := len(p.messages())
			p.send(tc.line)
			got := p.waitFrom(before, "the refusal", 30*time.Second, func(m msg) bool { return m.Error != nil })
			wantError(t, got, tc.code, tc.key)
			wantWords(t, got.Error.Message, tc.says)
			if tc.code == -32022 && (got.Error.Data["requested"] != "2026-07-28" || !strings.Contains(toJSON(got.Error.Data["supported"]), "2024-11-05")) {
				t.Fatalf("the data a client falls back on: %s", got.raw)
			}
			ping := float64(100 + i)
			p.send(`{"jsonrpc":"2.0","id":` + toJSON(ping) + `,"method":"ping"}`)
			if m := p.answer(ping); m.Error != nil {
				t.Fatalf("ping after %s: %s", tc.name, m.raw)
			}
		})
	}
	p.t = t
	if code := p.exit(); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr.String())
	}
}

// Over HTTP the same params are refused the same way (200: the session goes on), and so is a
// call whose Mcp-Protocol-Version header names a stateless version (400 -32022): the SDK named
// 2025-03-26 as the version it did not speak when a call's _meta said 2026-07-28 without the
// header, beside a list of supported versions that held it.
func TestHTTPParamsOfTheWrongShape(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	h := initSessionAccepting(t, e, "alpha", "application/json")
	delete(h, "Mcp-Protocol-Version")
	for _, tc := range paramCases {
		t.Run(tc.name, func(t *testing.T) {
			status, _, body := e.rawPost(t, tc.line, h)
			want := map[bool]int{true: 400, false: 200}[tc.code == -32022]
			_, code, key, message := rpcBody(t, body)
			if status != want || code != tc.code || key != tc.key {
				t.Fatalf("%d %s", status, body)
			}
			wantWords(t, message, tc.says)
			if tc.code == -32022 && !strings.Contains(body, `"requested":"2026-07-28"`) {
				t.Fatalf("the version the call asked for: %s", body)
			}
		})
	}
	newer := withSession(h, h["Mcp-Session-Id"])
	newer["Mcp-Protocol-Version"] = "2099-01-01"
	status, _, body := e.rawPost(t, `{"jsonrpc":"2.0","id":30,"method":"tools/list"}`, newer)
	if _, code, key, message := rpcBody(t, body); status != http.StatusBadRequest || code != -32022 || key != "mcp_protocol_version_unsupported" ||
		!strings.Contains(message, "2099-01-01") || !strings.Contains(body, `"supported":["2025-11-25"`) {
		t.Fatalf("a stateless version in the header: %d %s", status, body)
	}
	if status, _, body := e.rawPost(t, `{"jsonrpc":"2.0","id":31,"method":"tools/list"}`, h); status != 200 || !strings.Contains(body, "memory_search") {
		t.Fatalf("the session went on: %d %s", status, body)
	}
}

// A malformed answer from the client (to one of the server's calls) is refused with id null:
// it was refused with the answer's id, which the client — whose calls count from 1 as the
// server's do — took for the answer to its own call of that number. A malformed request is
// still answered with its id.
func TestMalformedResponsesAreNotAnsweredByTheirID(t *testing.T) {
	p := startRaw(t, t.TempDir(), "--agent", "tester")
	p.initialize("2025-06-18", "")
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":2,"error":{"code":"x"}}`,
		`{"id":3,"result":{}}`,
		`{"jsonrpc":"2.0","id":4,"result":{},"error":{"code":1,"message":"m"}}`,
	} {
		before := len(p.messages())
		p.send(line)
		got := p.waitFrom(before, "the refusal", 30*time.Second, func(m msg) bool { return m.Error != nil })
		if got.ID != nil {
			t.Fatalf("%s was answered by its id: %s", line, got.raw)
		}
	}
	p.send(`{"id":5,"method":"ping"}`)
	if m := p.answer(float64(5)); m.Error == nil || m.Error.Data["code"] != "mcp_rpc_version" {
		t.Fatalf("a request without jsonrpc: %s", m.raw)
	}
	if code := p.exit(); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr.String())
	}
}
