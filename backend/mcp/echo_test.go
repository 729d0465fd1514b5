package mcp_test

import (
	"strings"
	"testing"
)

// A refusal quotes what it refused at most 200 characters long (a detail 2,000), so that a
// hostile argument cannot make a refusal past --max-tokens or the 25,000 tokens Claude Code
// takes from a tool: a 300 KB slug made a 600 KB refusal, a 300 KB entity name 900 KB, and the
// agent saw its client's error instead of the refusal. The code and the words stay.
func TestRefusalsQuoteAtMostAShortPartOfTheInput(t *testing.T) {
	p := startRaw(t, t.TempDir(), "--agent", "tester")
	p.initialize("2025-06-18", "")
	x := strings.Repeat("x", 300_000)
	for i, tc := range []struct{ line, code string }{
		{callLine(10, "graph_neighbors", `{"entity":"`+x+`"}`), "graph_entity_not_found"},
		{callLine(11, "memory_read", `{"slug":"`+x+`"}`), "not_found"},
		{callLine(12, "memory_search", `{"query":"q","scope":"`+x+`"}`), "mcp_argument_not_allowed"},
		{callLine(13, "memory_list", `{"workdir":"/`+x+`"}`), "workdir_not_allowed"},
		{callLine(14, "memory_write", `{"slug":"`+x+`","scope":"global","type":"user","title":"t","body":"b"}`), "invalid_slug"},
		{callLine(15, "memory_list", `{"`+x+`":1}`), "mcp_invalid_arguments"},
		{callLine(16, x, `{}`), "mcp_unknown_tool"},
		{`{"jsonrpc":"2.0","id":17,"method":"` + x + `"}`, "mcp_rpc_method_not_found"},
		{`{"jsonrpc":"2.0","id":18,"method":"resources/read","params":{"uri":"engram://memory/` + x + `"}}`, "mcp_resource_not_found"},
		{`{"jsonrpc":"2.0","id":19,"method":"logging/setLevel","params":{"level":"` + x + `"}}`, "mcp_log_level_invalid"},
		{callLine(20, "kv_list", `{"prefix":"`+x+`"}`), ""},
	} {
		id := float64(10 + i)
		p.send(tc.line)
		m := p.answer(id)
		if len(m.raw) > 8<<10 {
			t.Fatalf("answer %v is %d bytes: %.300s", id, len(m.raw), m.raw)
		}
		if tc.code != "" && !strings.Contains(m.raw, tc.code) {
			t.Fatalf("answer %v lost its code %s: %s", id, tc.code, m.raw)
		}
		if !strings.Contains(m.raw, "xxx…") {
			t.Fatalf("answer %v does not mark the cut: %s", id, m.raw)
		}
	}
	if code := p.exit(); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr.String())
	}
}

// callLine is a tools/call line.
func callLine(id int, tool, args string) string {
	return `{"jsonrpc":"2.0","id":` + toJSON(id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
}
