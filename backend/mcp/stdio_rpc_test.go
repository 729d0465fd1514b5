package mcp_test

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// A malformed line is answered with its JSON-RPC error (id null when the id itself is what is
// wrong) and the session goes on: the call sent before it is answered, and so is the one
// after. The SDK's transport ended the process at the first such line (exit 1), losing the
// answers to what was already sent; it read an id of 1.5 as 1 and ignored an id of null.
func TestStdioMalformedLinesKeepTheSession(t *testing.T) {
	p := startRaw(t, t.TempDir(), "--agent", "tester")
	p.initialize("2025-06-18", "")
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_list","arguments":{}}}`, `{not json}`)
	if m := p.answer(2); m.Error != nil || !strings.Contains(string(m.Result), "total") {
		t.Fatalf("the call sent before the malformed line: %s", m.raw)
	}
	for i, tc := range []struct {
		name, line string
		id         any // the id the refusal answers (nil: null)
		code       int64
		key        string
	}{
		{"not json", `{not json}`, nil, -32700, "mcp_rpc_parse_error"},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":11,"method":"ping"}`, float64(11), -32600, "mcp_rpc_version"},
		{"no jsonrpc", `{"id":12,"method":"ping"}`, float64(12), -32600, "mcp_rpc_version"},
		{"id object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, nil, -32600, "mcp_rpc_id_type"},
		{"id fraction", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, nil, -32600, "mcp_rpc_id_type"},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, nil, -32600, "mcp_rpc_id_null"},
		{"a number", `42`, nil, -32600, "mcp_rpc_not_object"},
		{"trailing data", `{"jsonrpc":"2.0","id":13,"method":"ping"} xyz`, nil, -32700, "mcp_rpc_parse_error"},
		{"two messages", `{"jsonrpc":"2.0","id":14,"method":"ping"}{"jsonrpc":"2.0","id":15,"method":"ping"}`, nil, -32700, "mcp_rpc_parse_error"},
		{"empty batch", `[]`, nil, -32600, "mcp_rpc_batch_empty"},
		{"batch in 2025-06-18", `[{"jsonrpc":"2.0","id":16,"method":"ping"}]`, float64(16), -32600, "mcp_rpc_batch_unsupported"},
		{"unknown method", `{"jsonrpc":"2.0","id":17,"method":"memory.accept"}`, float64(17), -32601, "mcp_rpc_method_not_found"},
		{"second initialize", `{"jsonrpc":"2.0","id":18,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
			float64(18), -32600, "mcp_already_initialized"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			before := len(p.messages())
			p.send(tc.line)
			got := p.waitFrom(before, "the refusal", 30*time.Second, func(m msg) bool { return m.Error != nil })
			if toJSON(got.ID) != toJSON(tc.id) {
				t.Fatalf("answered id %v, want %v: %s", got.ID, tc.id, got.raw)
			}
			wantError(t, got, tc.code, tc.key)
			ping := float64(100 + i)
			p.send(`{"jsonrpc":"2.0","id":` + toJSON(ping) + `,"method":"ping"}`)
			if m := p.answer(ping); m.Error != nil {
				t.Fatalf("ping after %s: %s", tc.name, m.raw)
			}
		})
	}
	p.t = t
	// A byte order mark before a message is not worth a refusal.
	p.send("\ufeff" + `{"jsonrpc":"2.0","id":"bom","method":"ping"}`)
	if m := p.answer("bom"); m.Error != nil {
		t.Fatalf("after a byte order mark: %s", m.raw)
	}
	for _, m := range p.messages() {
		if toJSON(m.ID) == "1" {
			t.Fatalf("the id 1.5 was answered as 1: %s", m.raw)
		}
	}
	if code := p.exit(); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr.String())
	}
}

// A 2025-03-26 session may send batches: its calls are answered as one array, a malformed
// element with its own error in it.
func TestStdioBatchIn20250326(t *testing.T) {
	p := startRaw(t, t.TempDir(), "--agent", "tester")
	p.initialize("2025-03-26", "")
	p.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1.5,"method":"ping"},` +
		`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`)
	p.wait("the batch's answer", 60*time.Second, func(m msg) bool { return strings.HasPrefix(m.raw, "[]") && toJSON(m.ID) == "2" })
	var ids []string
	for _, m := range p.messages() {
		if strings.HasPrefix(m.raw, "[]") {
			ids = append(ids, toJSON(m.ID))
		}
	}
	// A batch's answers may come in any order (JSON-RPC 2.0 §6; a client matches them by id):
	// the calls run side by side, and under load tools/list can finish before ping.
	slices.Sort(ids)
	if strings.Join(ids, " ") != "1 2 null" {
		t.Fatalf("batch answers for %v:\n%s", ids, strings.Join(p.rawLines(), "\n"))
	}
}

// Calls already received when the input ends are finished and answered before the process
// exits, and a call piped right behind initialize waits for it: the whole exchange sent at
// once answers both, and the memory is written exactly when its answer says so. (The SDK's
// transport dropped the answers, wrote the memory in some runs, and logged "initialized before
// initialize".)
func TestStdioAnswersWhatCameBeforeTheInputEnded(t *testing.T) {
	home := t.TempDir()
	for run := 0; run < 3; run++ {
		p := startRaw(t, home, "--agent", "tester")
		slug := "piped-" + string(rune('a'+run))
		p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_write","arguments":{"slug":"`+slug+
				`","scope":"global","type":"reference","title":"Piped","body":"Written by a piped call."}}}`)
		if code := p.exit(); code != 0 {
			t.Fatalf("exit %d\nstderr: %s", code, p.stderr.String())
		}
		if m := p.answer(2); m.Error != nil || !strings.Contains(string(m.Result), slug) {
			t.Fatalf("run %d: %s", run, m.raw)
		}
		if strings.Contains(p.stderr.String(), "before") {
			t.Fatalf("run %d: %s", run, p.stderr.String())
		}
		if out := cli(t, home, "show", slug, "--json"); !strings.Contains(out, "Written by a piped call.") {
			t.Fatalf("run %d: the memory: %s", run, out)
		}
	}
	// After the exchange has settled: a call, then the end of input at once.
	p := startRaw(t, home, "--agent", "tester")
	p.initialize("2025-06-18", "")
	p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"piped call"}}}`)
	if code := p.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if m := p.answer(3); m.Error != nil || !strings.Contains(string(m.Result), "piped-a") {
		t.Fatalf("the last call: %s", m.raw)
	}
}

// A call before initialize is refused with a JSON-RPC code (it was error code 0), and so is an
// initialize that names no protocol version (it was answered with the newest).
func TestStdioHandshakeRefusals(t *testing.T) {
	p := startRaw(t, t.TempDir(), "--agent", "tester")
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	wantError(t, p.answer(1), -32600, "mcp_not_initialized")
	p.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	wantError(t, p.answer(2), -32602, "mcp_protocol_version_required")
	p.initialize("2025-06-18", "")
	p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if m := p.answer(3); m.Error != nil {
		t.Fatalf("after initialize: %s", m.raw)
	}
}

// Each method this server lets through is one the SDK serves: none is answered "method not
// found" (the list in rpccheck.go is pinned to the SDK's).
func TestStdioKnownMethodsAreServed(t *testing.T) {
	p := startRaw(t, t.TempDir(), "--agent", "tester")
	p.initialize("2025-06-18", "")
	methods := []string{"ping", "tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read",
		"resources/subscribe", "resources/unsubscribe", "prompts/list", "prompts/get", "logging/setLevel"}
	for _, m := range methods {
		p.send(`{"jsonrpc":"2.0","id":"` + m + `","method":"` + m + `","params":{"level":"info"}}`)
	}
	for _, m := range methods {
		if a := p.answer(m); a.Error != nil && a.Error.Code == -32601 {
			t.Errorf("%s: %s", m, a.raw)
		}
	}
}

// A call cancelled while the server waits for the client's roots is not answered (the spec:
// the receiver SHOULD NOT respond), and the roots fetch it cancelled is not kept as "no roots":
// the next call asks again and may use the root. (The cancelled call was answered
// workdir_not_allowed, and every later call in the session was refused the same way.)
func TestStdioCancelledRootsFetchIsNotKept(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	p := startRaw(t, home, "--agent", "tester")
	p.initialize("2025-06-18", `{"roots":{"listChanged":true}}`)
	list := func(id int) {
		p.send(`{"jsonrpc":"2.0","id":` + toJSON(id) + `,"method":"tools/call","params":{"name":"memory_list","arguments":{"workdir":` + toJSON(root) + `}}}`)
	}
	roots := func(ask msg) {
		p.send(`{"jsonrpc":"2.0","id":` + toJSON(ask.ID) + `,"result":{"roots":[{"uri":"file://` + root + `","name":"r"}]}}`)
	}
	isAsk := func(m msg) bool { return m.Method == "roots/list" }
	list(5)
	ask := p.wait("roots/list", 30*time.Second, isAsk)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"changed my mind"}}`)
	time.Sleep(300 * time.Millisecond)
	roots(ask) // too late: the call it was for is gone
	before := len(p.messages())
	list(6)
	roots(p.waitFrom(before, "roots/list asked again", 30*time.Second, isAsk))
	m := p.answer(6)
	if m.Error != nil || strings.Contains(string(m.Result), "workdir_not_allowed") || strings.Contains(string(m.Result), `"isError":true`) {
		t.Fatalf("the call after the cancelled one: %s", m.raw)
	}
	p.send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	p.answer(7)
	if p.has(5) {
		t.Fatalf("the cancelled call was answered:\n%s", strings.Join(p.rawLines(), "\n"))
	}
}
