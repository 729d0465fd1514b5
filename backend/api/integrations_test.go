package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestBuildSnippets(t *testing.T) {
	for _, tc := range []struct {
		bin, wantCmd string
	}{
		{"/usr/local/bin/engram", "claude mcp add engram -- /usr/local/bin/engram mcp --agent claude-code"},
		{"/Applications/My Apps/engram", "claude mcp add engram -- '/Applications/My Apps/engram' mcp --agent claude-code"},
		{"/tmp/it's/engram", `claude mcp add engram -- '/tmp/it'\''s/engram' mcp --agent claude-code`},
		{`/tmp/a "quoted" \dir/engram`, `claude mcp add engram -- '/tmp/a "quoted" \dir/engram' mcp --agent claude-code`},
	} {
		s := BuildSnippets(tc.bin, "http://127.0.0.1:47821/mcp", "/home/ada/.engram/bridge.token")
		if s.ClaudeCode != tc.wantCmd {
			t.Errorf("claude: %s", s.ClaudeCode)
		}
		for name, js := range map[string]string{"cursor": s.Cursor, "stdio": s.Stdio, "http": s.HTTP, "hook": s.Hook, "gemini": s.Gemini} {
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
		var gem struct {
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
			Hooks struct {
				AfterAgent []struct {
					Hooks []struct{ Type, Command string }
				}
			}
		}
		_ = json.Unmarshal([]byte(s.Gemini), &gem)
		if e := gem.MCPServers["engram"]; e.Command != tc.bin || strings.Join(e.Args, " ") != "mcp --agent gemini" ||
			len(gem.Hooks.AfterAgent) != 1 || !strings.HasSuffix(gem.Hooks.AfterAgent[0].Hooks[0].Command, " hook gemini") {
			t.Errorf("gemini %s", s.Gemini)
		}
		// Codex's config.toml: notify before any table, the MCP server as the codex agent; a
		// path with quotes or backslashes stays one TOML string.
		var codex struct {
			Notify     []string `toml:"notify"`
			MCPServers map[string]struct {
				Command string   `toml:"command"`
				Args    []string `toml:"args"`
			} `toml:"mcp_servers"`
		}
		if _, err := toml.Decode(s.Codex, &codex); err != nil {
			t.Fatalf("codex is not TOML: %v\n%s", err, s.Codex)
		}
		if strings.Join(codex.Notify, "|") != tc.bin+"|hook|codex" || codex.MCPServers["engram"].Command != tc.bin ||
			strings.Join(codex.MCPServers["engram"].Args, " ") != "mcp --agent codex" || !strings.HasPrefix(s.Codex, "notify = ") {
			t.Errorf("codex %s", s.Codex)
		}
	}
}
