package mcp_test

import (
	"strings"
	"testing"
	"time"

	"engram/backend/mcp"
)

// bigCall is a kv_set call of a value of n bytes with the given id, its keys in the order a
// client writes them ("jsonrpc", "id", "method", then the params), or the params first.
func bigCall(id string, n int, paramsFirst bool) string {
	params := `"params":{"name":"kv_set","arguments":{"key":"big","value":"` + strings.Repeat("a", n) + `"}}`
	if paramsFirst {
		return `{"jsonrpc":"2.0",` + params + `,"id":` + id + `,"method":"tools/call"}`
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call",` + params + `}`
}

// A call over the size limit is refused with its own id when the id (and the method) come
// before what makes it large, as clients write them: it was answered with id null only, and a
// client over stdio waited for the answer to its call until its own timeout. When the id comes
// after the cut, or the message is no call, the refusal still says id null.
func TestOversizedCallIsAnsweredWithItsID(t *testing.T) {
	p := startRaw(t, t.TempDir(), "--agent", "tester")
	p.initialize("2025-06-18", "")
	const over = 17 << 20 // over stdio's 16 MiB line
	p.send(bigCall(`"big-1"`, over, false))
	wantError(t, p.answer("big-1"), -32600, "mcp_rpc_too_large")
	before := len(p.messages())
	p.send(bigCall(`7`, over, true))
	got := p.waitFrom(before, "the refusal", 30*time.Second, func(m msg) bool { return m.Error != nil })
	if got.ID != nil {
		t.Fatalf("an id after the cut is not read: %s", got.raw)
	}
	wantError(t, got, -32600, "mcp_rpc_too_large")
	p.send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	if m := p.answer(float64(8)); m.Error != nil {
		t.Fatalf("ping after: %s", m.raw)
	}
	if code := p.exit(); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr.String())
	}

	e := newHTTP(t, t.TempDir(), mcp.Config{})
	h := initSessionAccepting(t, e, "alpha", "application/json")
	for _, tc := range []struct {
		body string
		id   any
	}{
		{bigCall(`42`, 2<<20, false), float64(42)},
		{bigCall(`"x"`, 2<<20, false), "x"},
		{bigCall(`43`, 2<<20, true), nil},
		{bigCall(`1.5`, 2<<20, false), nil},
	} {
		status, _, body := e.rawPost(t, tc.body, h)
		if id, code, key, _ := rpcBody(t, body); status != 413 || code != -32600 || key != "mcp_rpc_too_large" || toJSON(id) != toJSON(tc.id) {
			t.Fatalf("want id %v: %d %s", tc.id, status, body)
		}
	}
}

// nested is a kv_set call whose value nests lists n deep (the message itself 3 more).
func nested(id string, n int) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"kv_set","arguments":{"key":"deep","value":` +
		strings.Repeat("[", n) + "1" + strings.Repeat("]", n) + `}}}`
}

// A message nested deeper than the SDK reads (1000 levels) is refused as such, with its id,
// over stdio and HTTP: it was answered "a JSON-RPC message is an object with \"jsonrpc\" …"
// (past 10,000 levels "this is not one JSON value"), true of it and no help. One within the
// limit is served.
func TestTooDeepMessagesSaySo(t *testing.T) {
	p := startRaw(t, t.TempDir(), "--agent", "tester")
	p.initialize("2025-06-18", "")
	for i, n := range []int{1500, 20000} {
		id := float64(10 + i)
		p.send(nested(toJSON(id), n))
		wantError(t, p.answer(id), -32600, "mcp_rpc_too_deep")
	}
	p.send(nested("12", 990))
	if m := p.answer(float64(12)); m.Error != nil || !strings.Contains(string(m.Result), `\"created\":true`) {
		t.Fatalf("a value 990 deep: %s", m.raw)
	}
	if code := p.exit(); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr.String())
	}

	e := newHTTP(t, t.TempDir(), mcp.Config{})
	h := initSessionAccepting(t, e, "alpha", "application/json")
	status, _, body := e.rawPost(t, nested(`"d"`, 1500), h)
	if id, code, key, _ := rpcBody(t, body); status != 400 || code != -32600 || key != "mcp_rpc_too_deep" || id != "d" {
		t.Fatalf("%d %s", status, body)
	}
}
