package api

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"engram/backend/memory"
)

// IntegrationsService answers Settings → Integrations: the configuration snippets that connect
// an agent to Engram's MCP server, and the agents that connected recently.
type IntegrationsService struct{ a *API }

// Transports an MCP agent connects over.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// agentRowPrefix keys one settings row per agent and transport: every MCP server process
// (one per agent over stdio, the bridge for HTTP) records its own callers there, so the
// window lists them all whichever process serves them.
const agentRowPrefix = "mcp.agent."

// ConnectedAgent is one agent that used the MCP server.
type ConnectedAgent struct {
	Name      string    `json:"name"`
	Transport string    `json:"transport"`
	Client    string    `json:"client,omitempty"`
	LastCall  string    `json:"last_call,omitempty"`
	LastTime  time.Time `json:"last_time"`
	Calls     int64     `json:"calls"`
}

// AgentsParams bound the listing to agents seen within the last Hours (default 24 × 7).
type AgentsParams struct {
	Hours int `json:"hours,omitempty"`
}

// AgentsResult lists agents, the most recent first.
type AgentsResult struct {
	Agents []ConnectedAgent `json:"agents"`
}

// Agents lists the agents that called the MCP server recently, from every process on this home.
func (s *IntegrationsService) Agents(p AgentsParams) (AgentsResult, error) {
	if err := s.a.Wait(); err != nil {
		return AgentsResult{}, err
	}
	rows, err := s.a.deps.Store.SettingsWithPrefix(s.a.ctx, agentRowPrefix)
	if err != nil {
		return AgentsResult{}, s.a.fail(err)
	}
	hours := p.Hours
	if hours <= 0 {
		hours = 24 * 7
	}
	since := time.Now().Add(-time.Duration(hours) * time.Hour)
	out := AgentsResult{Agents: []ConnectedAgent{}}
	for _, v := range rows {
		var ag ConnectedAgent
		if json.Unmarshal([]byte(v), &ag) != nil || ag.LastTime.Before(since) {
			continue
		}
		out.Agents = append(out.Agents, ag)
	}
	sort.Slice(out.Agents, func(i, j int) bool { return out.Agents[i].LastTime.After(out.Agents[j].LastTime) })
	return out, nil
}

// RecordAgent notes that agent called the MCP server (the transport calls it, never a client:
// it is no method of the table). Agents without a valid name are not recorded.
func (a *API) RecordAgent(ag ConnectedAgent) error {
	if !memory.ValidAgent(ag.Name) {
		return nil
	}
	if ag.Transport != TransportHTTP {
		ag.Transport = TransportStdio
	}
	if len(ag.Client) > 120 {
		ag.Client = ag.Client[:120]
	}
	b, err := json.Marshal(ag)
	if err != nil {
		return a.fail(err)
	}
	return a.fail(a.deps.Store.PutSetting(a.ctx, agentRowPrefix+ag.Transport+"."+ag.Name, string(b)))
}

// ValidAgent reports whether name is usable as an agent name (the folder of its own memories).
func ValidAgent(name string) bool { return memory.ValidAgent(name) }

// ReservedAgent reports whether name, as a new agent folder, is a device name Windows reserves.
func ReservedAgent(name string) bool { return memory.ReservedAgent(name) }

// Snippets is the configuration that connects each kind of client, with this binary's real path.
type Snippets struct {
	// Binary is the path of the running engram binary.
	Binary string `json:"binary"`
	// ClaudeCode is the shell command that registers Engram with Claude Code.
	ClaudeCode string `json:"claude_code"`
	// Cursor is the mcp.json of Cursor (~/.cursor/mcp.json or .cursor/mcp.json).
	Cursor string `json:"cursor"`
	// Stdio is a generic MCP client's stdio server entry.
	Stdio string `json:"stdio"`
	// HTTP is a generic client's streamable HTTP entry; the token is a placeholder.
	HTTP    string `json:"http"`
	HTTPURL string `json:"http_url"`
	// TokenFile is where the token lives (`engram bridge token` prints it).
	TokenFile string `json:"token_file"`
	// Hook is the Claude Code settings.json fragment that feeds each finished turn to Engram.
	Hook string `json:"hook"`
	// Codex is the ~/.codex/config.toml fragment: Engram's MCP server for the codex agent and
	// the notify program that feeds each finished turn to Engram.
	Codex string `json:"codex"`
	// Gemini is Gemini CLI's ~/.gemini/settings.json fragment: Engram's MCP server for the
	// gemini agent and the AfterAgent hook that feeds each finished turn to Engram.
	Gemini string `json:"gemini"`
}

// TokenPlaceholder stands where a client's configuration needs the bridge token.
const TokenPlaceholder = "<token from engram bridge token>"

// Snippets returns the configuration snippets for Claude Code, Cursor, a generic MCP client
// (stdio and HTTP) and Claude Code's Stop hook, naming this binary by its real path.
func (s *IntegrationsService) Snippets(_ Empty) (Snippets, error) {
	if err := s.a.Wait(); err != nil {
		return Snippets{}, err
	}
	bin, err := os.Executable()
	if err != nil {
		bin = "engram"
	} else if abs, err := filepath.EvalSymlinks(bin); err == nil {
		bin = abs
	}
	url := "http://127.0.0.1:47821/mcp"
	if s.a.deps.Remote != nil {
		if st := s.a.deps.Remote.RemoteStatus(); st.Addr != "" {
			url = "http://" + st.Addr + "/mcp"
		}
	}
	return BuildSnippets(bin, url, filepath.Join(s.a.deps.Store.Home(), "bridge.token")), nil
}

// BuildSnippets renders the snippets for binary bin, the MCP URL and the token file.
func BuildSnippets(bin, url, tokenFile string) Snippets {
	// Snippets are pasted into files people read: "<token…>" stays as written, not \u003c.
	indent := func(v any) string {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		_ = enc.Encode(v)
		return strings.TrimSuffix(b.String(), "\n")
	}
	server := func(agent string) map[string]any {
		return map[string]any{"command": bin, "args": []string{"mcp", "--agent", agent}}
	}
	return Snippets{
		Binary:     bin,
		ClaudeCode: "claude mcp add engram -- " + shellQuote(bin) + " mcp --agent claude-code",
		Cursor:     indent(map[string]any{"mcpServers": map[string]any{"engram": server("cursor")}}),
		Stdio:      indent(map[string]any{"mcpServers": map[string]any{"engram": server("my-agent")}}),
		HTTP: indent(map[string]any{"mcpServers": map[string]any{"engram": map[string]any{"type": "http", "url": url,
			"headers": map[string]string{"Authorization": "Bearer " + TokenPlaceholder}}}}),
		HTTPURL:   url,
		TokenFile: tokenFile,
		Hook: indent(map[string]any{"hooks": map[string]any{"Stop": []any{map[string]any{"hooks": []any{
			map[string]any{"type": "command", "command": shellQuote(bin) + " hook claude-code"}}}}}}),
		Codex: codexSnippet(bin),
		Gemini: indent(map[string]any{"mcpServers": map[string]any{"engram": server("gemini")},
			"hooks": map[string]any{"AfterAgent": []any{map[string]any{"hooks": []any{
				map[string]any{"type": "command", "command": shellQuote(bin) + " hook gemini"}}}}}}),
	}
}

// codexSnippet is Codex's TOML: notify must come before the first table, so it leads.
func codexSnippet(bin string) string {
	q := tomlString(bin)
	return "notify = [" + q + ", \"hook\", \"codex\"]\n\n[mcp_servers.engram]\ncommand = " + q +
		"\nargs = [\"mcp\", \"--agent\", \"codex\"]"
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// shellQuote quotes s for a POSIX shell when it holds anything but safe characters.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@=", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
