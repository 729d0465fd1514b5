package memory

import (
	"reflect"
	"testing"
)

// Rows put by one process are listed by another on the same home, by prefix only ("_" and
// "%" are plain characters in a prefix, not patterns).
func TestSettingsWithPrefixAcrossStores(t *testing.T) {
	e := newEnv(t)
	other := e.open()
	defer other.Close()
	for k, v := range map[string]string{"mcp.agent.stdio.a": "1", "mcp.agent.http.b": "2", "mcp.agentx": "3", "mcp_agent.c": "4", "app.settings": "5", "é.x": "6"} {
		if err := other.PutSetting(e.ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		prefix string
		want   map[string]string
	}{
		{"mcp.agent.", map[string]string{"mcp.agent.stdio.a": "1", "mcp.agent.http.b": "2"}},
		{"mcp_", map[string]string{"mcp_agent.c": "4"}},
		{"none.", map[string]string{}},
		{"é", map[string]string{"é.x": "6"}},
	} {
		got, err := e.s.SettingsWithPrefix(e.ctx, tc.prefix)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %v %v", tc.prefix, got, err)
		}
	}
}
