package api

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBuildSnippets(t *testing.T) {
	for _, tc := range []struct {
		bin, wantCmd string
	}{
		{"/usr/local/bin/engram", "claude mcp add engram -- /usr/local/bin/engram mcp --agent claude-code"},
		{"/Applications/My Apps/engram", "claude mcp add engram -- '/Applications/My Apps/engram' mcp --agent claude-code"},
		{"/tmp/it's/engram", `claude mcp add engram -- '/tmp/it'\''s/engram' mcp --agent claude-code`},
	} {
		s := BuildSnippets(tc.bin, "http://127.0.0.1:47821/mcp", "/home/ada/.engram/bridge.token")
		if s.ClaudeCode != tc.wantCmd {
			t.Errorf("claude: %s", s.ClaudeCode)
		}
		for name, js := range map[string]string{"cursor": s.Cursor, "stdio": s.Stdio, "http": s.HTTP, "hook": s.Hook} {
			var v map[string]any
			if err := json.Unmarshal([]byte(js), &v); err != nil {
				t.Fatalf("%s is not JSON: %v\n%s", name, err, js)
			}
		}
		var cur struct {
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		}
		_ = json.Unmarshal([]byte(s.Cursor), &cur)
		if e := cur.MCPServers["engram"]; e.Command != tc.bin || strings.Join(e.Args, " ") != "mcp --agent cursor" {
			t.Errorf("cursor %+v", cur)
		}
		var hook struct {
			Hooks struct {
				Stop []struct {
					Hooks []struct{ Type, Command string }
				}
			}
		}
		_ = json.Unmarshal([]byte(s.Hook), &hook)
		if len(hook.Hooks.Stop) != 1 || hook.Hooks.Stop[0].Hooks[0].Type != "command" ||
			!strings.HasSuffix(hook.Hooks.Stop[0].Hooks[0].Command, " hook claude-code") {
			t.Errorf("hook %s", s.Hook)
		}
		if !strings.Contains(s.HTTP, TokenPlaceholder) || strings.Contains(s.HTTP, "?token=") {
			t.Errorf("http %s", s.HTTP)
		}
	}
}
