package mcp_test

import (
	"strings"
	"testing"
)

// A cursor this server never handed out, on tools/list, prompts/list or
// resources/templates/list, is refused with mcp_invalid_cursor in the person's language naming
// the method, as resources/list's and the tools' cursors are (the SDK answered "invalid params"
// in English, without a code). A first page still lists every tool.
func TestStdioBadListCursorRefusedInWords(t *testing.T) {
	p := startRaw(t, t.TempDir(), "--agent", "tester")
	p.initialize("2025-06-18", "")
	for i, method := range []string{"tools/list", "prompts/list", "resources/templates/list"} {
		id := 10 + i
		p.send(`{"jsonrpc":"2.0","id":` + toJSON(id) + `,"method":"` + method + `","params":{"cursor":"not-a-cursor"}}`)
		m := p.answer(float64(id))
		wantError(t, m, -32602, "mcp_invalid_cursor")
		if !strings.Contains(m.Error.Message, method) {
			t.Fatalf("%s: the refusal does not name the method: %s", method, m.raw)
		}
	}
	p.send(`{"jsonrpc":"2.0","id":20,"method":"tools/list","params":{}}`)
	if m := p.answer(float64(20)); m.Error != nil || !strings.Contains(string(m.Result), "memory_search") {
		t.Fatalf("tools/list: %s", m.raw)
	}
}
