package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// wantTools are the tools and their hints: read-only, destructive, idempotent.
var wantTools = map[string][3]bool{
	"memory_search": {true, false, true}, "memory_read": {true, false, true}, "memory_list": {true, false, true},
	"memory_write": {false, false, false}, "memory_update": {false, true, false}, "memory_delete": {false, true, true},
	"memory_overview": {true, false, true}, "build_context": {true, false, true}, "daily_append": {false, false, false},
	"observe_turn": {false, false, false}, "kv_get": {true, false, true}, "kv_set": {false, true, true},
	"kv_delete": {false, true, true}, "kv_list": {true, false, true},
	"graph_entities": {true, false, true}, "graph_neighbors": {true, false, true}, "graph_path": {true, false, true},
	"graph_subgraph": {true, false, true},
}

func TestStdioToolsListSchemasAndAnnotations(t *testing.T) {
	c := stdio(t, t.TempDir(), clientOpts{}, "--agent", "tester")
	if info := c.cs.InitializeResult().ServerInfo; info == nil || info.Name != "engram" {
		t.Fatalf("server info %+v", info)
	}
	if c.cs.InitializeResult().Instructions == "" {
		t.Fatal("no instructions")
	}
	res, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tl := range res.Tools {
		want, ok := wantTools[tl.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tl.Name)
			continue
		}
		seen[tl.Name] = true
		if len(tl.Description) < 80 {
			t.Errorf("%s: description too short for a model: %q", tl.Name, tl.Description)
		}
		schema, _ := tl.InputSchema.(map[string]any)
		if schema["type"] != "object" || schema["additionalProperties"] != false || schema["properties"] == nil {
			t.Errorf("%s: schema %v", tl.Name, schema)
		}
		a := tl.Annotations
		if a == nil || a.ReadOnlyHint != want[0] || a.IdempotentHint != want[2] || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: annotations %+v", tl.Name, a)
			continue
		}
		if !want[0] && (a.DestructiveHint == nil || *a.DestructiveHint != want[1]) {
			t.Errorf("%s: destructiveHint %v, want %v", tl.Name, a.DestructiveHint, want[1])
		}
		if props := schema["properties"].(map[string]any); props["agent"] != nil || props["accept"] != nil {
			t.Errorf("%s: the agent (or accepting) is never an argument", tl.Name)
		}
	}
	if len(seen) != len(wantTools) {
		t.Fatalf("tools %v, want %d", seen, len(wantTools))
	}
}

func TestStdioEveryTool(t *testing.T) {
	home, wd := t.TempDir(), t.TempDir()
	c := stdio(t, home, clientOpts{}, "--agent", "tester", "--workdir", wd)
	w := c.ok("memory_write", map[string]any{"slug": "prefers-tea", "scope": "global", "type": "user", "title": "Prefers tea",
		"body": "Drinks green tea, never coffee.", "confidence": "high", "source_quote": "I only drink green tea"})
	id, _ := w["id"].(string)
	if id == "" || w["applied_confidence"] != "high" {
		t.Fatalf("write %v", w)
	}
	c.ok("memory_write", map[string]any{"slug": "db-engine", "scope": "project", "type": "project", "title": "Database",
		"body": "The service uses Postgres 16."})
	c.ok("memory_write", map[string]any{"slug": "my-notes", "scope": "agent", "type": "reference", "title": "Notes",
		"body": "Where the release checklist lives."})

	hits := c.ok("memory_search", map[string]any{"query": "green tea"})["hits"].([]any)
	if len(hits) == 0 || hits[0].(map[string]any)["slug"] != "prefers-tea" {
		t.Fatalf("search %v", hits)
	}
	r := c.ok("memory_read", map[string]any{"slug": "prefers-tea", "scope": "global"})
	if r["body"] != "Drinks green tea, never coffee." || r["reviewed"] != false {
		t.Fatalf("read %v (a model's write lands unreviewed)", r)
	}
	list := c.ok("memory_list", map[string]any{})
	if list["total"].(float64) != 3 {
		t.Fatalf("list %v", list)
	}
	up := c.ok("memory_update", map[string]any{"id": id, "body": "Also likes oolong.", "mode": "merge", "expected_version": r["version"]})
	if up["version"] == r["version"] {
		t.Fatalf("update kept the version: %v", up)
	}
	c.fails("memory_update", map[string]any{"id": id, "body": "x", "expected_version": r["version"]}, "version_conflict")
	ov := c.ok("memory_overview", map[string]any{})
	for _, slug := range []string{"prefers-tea", "db-engine", "my-notes"} {
		if !strings.Contains(ov["index"].(string), slug) {
			t.Fatalf("overview lacks %s: %v", slug, ov["index"])
		}
	}
	ctx := c.ok("build_context", map[string]any{"query": "which database", "max_tokens": 400})
	if !strings.Contains(ctx["text"].(string), "Postgres") || ctx["tokens"].(float64) > 400 {
		t.Fatalf("build_context %v", ctx)
	}
	if d := c.ok("daily_append", map[string]any{"text": "Set up Engram over MCP"}); d["ok"] != true {
		t.Fatalf("daily %v", d)
	}
	day := cli(t, home, "daily", "show")
	if !strings.Contains(day, "Set up Engram over MCP") {
		t.Fatalf("journal %s", day)
	}
	c.ok("memory_delete", map[string]any{"slug": "my-notes", "scope": "agent"})
	c.fails("memory_read", map[string]any{"slug": "my-notes", "scope": "agent"}, "not_found")
	// observe_turn and the kv tools: kv_test.go (they call api methods by name).
	// Audited as the tool's, unreviewed: the CLI (the person) sees the model's write waiting.
	if out := cli(t, home, "list", "--reviewed", "false", "--json"); !strings.Contains(out, "prefers-tea") {
		t.Fatalf("unreviewed list: %s", out)
	}
	if out := cli(t, home, "history", id, "--json"); !strings.Contains(out, `"tool"`) {
		t.Fatalf("history: %s", out)
	}
}

func TestStdioResources(t *testing.T) {
	home := t.TempDir()
	c := stdio(t, home, clientOpts{}, "--agent", "tester")
	w := c.ok("memory_write", map[string]any{"slug": "uses-vim", "scope": "global", "type": "user", "title": "Uses vim",
		"body": "Edits with vim.", "confidence": "low"})
	ctx := context.Background()
	res, err := c.cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	uris := map[string]bool{}
	for _, r := range res.Resources {
		uris[r.URI] = true
	}
	if !uris["engram://index"] || !uris["engram://memory/"+w["id"].(string)] {
		t.Fatalf("resources %v", uris)
	}
	tpl, err := c.cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tpl.ResourceTemplates) != 1 || tpl.ResourceTemplates[0].URITemplate != "engram://memory/{id}" {
		t.Fatalf("templates %v %v", tpl, err)
	}
	rd, err := c.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "engram://memory/" + w["id"].(string)})
	if err != nil || !strings.Contains(rd.Contents[0].Text, "Edits with vim.") || !strings.Contains(rd.Contents[0].Text, "reviewed: false") {
		t.Fatalf("read memory %v %v", rd, err)
	}
	ix, err := c.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "engram://index"})
	if err != nil || !strings.Contains(ix.Contents[0].Text, "uses-vim") {
		t.Fatalf("read index %v %v", ix, err)
	}
	if _, err := c.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "engram://memory/01NOPE"}); err == nil {
		t.Fatal("a missing memory was read")
	}
	// Subscriptions: the index, and a memory the session sees (never one it does not); a
	// write by another process (the CLI) reaches the index's subscriber.
	uri := "engram://memory/" + w["id"].(string)
	for _, u := range []string{uri, "engram://index"} {
		if err := c.cs.Subscribe(ctx, &sdk.SubscribeParams{URI: u}); err != nil {
			t.Fatalf("subscribe %s: %v", u, err)
		}
	}
	if err := c.cs.Subscribe(ctx, &sdk.SubscribeParams{URI: "engram://memory/01NOPE"}); err == nil {
		t.Fatal("subscribed to a memory that is not there")
	}
	cli(t, home, "write", "--scope", "global", "--type", "user", "--slug", "uses-zsh", "--title", "Uses zsh", "--body", "Shell is zsh.")
	c.waitUpdated("engram://index", "a write from the CLI")
}

func TestStdioSeesConcurrentCLIWriter(t *testing.T) {
	home := t.TempDir()
	c := stdio(t, home, clientOpts{}, "--agent", "tester")
	c.ok("memory_list", map[string]any{}) // the server is up and watching
	c.drain()
	cli(t, home, "write", "--scope", "global", "--type", "user", "--slug", "likes-rust", "--title", "Likes Rust",
		"--body", "Writes side projects in Rust.")
	c.waitChanged("a CLI write")
	hits := c.ok("memory_search", map[string]any{"query": "rust side projects"})["hits"].([]any)
	if len(hits) == 0 || hits[0].(map[string]any)["slug"] != "likes-rust" {
		t.Fatalf("search after the CLI write: %v", hits)
	}
}

// Two agents on two projects share global memories and nothing else; many stdio servers run
// on one home at once.
func TestStdioIsolationBetweenAgentsAndProjects(t *testing.T) {
	home, p1, p2 := t.TempDir(), t.TempDir(), t.TempDir()
	a := stdio(t, home, clientOpts{}, "--agent", "alpha", "--workdir", p1)
	b := stdio(t, home, clientOpts{}, "--agent", "beta", "--workdir", p2)
	b.ok("memory_list", map[string]any{}) // beta's server is up and watching the home
	b.drain()
	ga := a.ok("memory_write", map[string]any{"slug": "shared-fact", "scope": "global", "type": "user", "title": "Shared fact",
		"body": "The person lives in Lyon."})
	pa := a.ok("memory_write", map[string]any{"slug": "alpha-project", "scope": "project", "type": "project",
		"title": "Alpha project", "body": "Project one deploys with Lyonnaise scripts."})
	aa := a.ok("memory_write", map[string]any{"slug": "alpha-notes", "scope": "agent", "type": "reference",
		"title": "Alpha notes", "body": "Alpha keeps Lyon checklists here."})
	// Another stdio server's writes reach beta's client as a notification.
	b.waitChanged("alpha's writes in another process")
	hits := b.ok("memory_search", map[string]any{"query": "Lyon", "limit": 50})["hits"].([]any)
	if len(hits) != 1 || hits[0].(map[string]any)["id"] != ga["id"] {
		t.Fatalf("beta sees %v", hits)
	}
	for _, id := range []any{pa["id"], aa["id"]} {
		b.fails("memory_read", map[string]any{"id": id}, "not_found")
		b.fails("memory_delete", map[string]any{"id": id}, "not_found")
		if _, err := b.cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "engram://memory/" + id.(string)}); err == nil {
			t.Fatalf("beta read %v as a resource", id)
		}
	}
	res, err := b.cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Resources {
		if r.URI == "engram://memory/"+pa["id"].(string) || r.URI == "engram://memory/"+aa["id"].(string) {
			t.Fatalf("beta lists %s", r.URI)
		}
	}
	if len(res.Resources) != 2 { // the index and the global memory
		t.Fatalf("beta's resources %d", len(res.Resources))
	}
	b.fails("memory_list", map[string]any{"workdir": p1}, "workdir_not_allowed")
	if total := b.ok("memory_list", map[string]any{})["total"].(float64); total != 1 {
		t.Fatalf("beta lists %v", total)
	}
	if ov := b.ok("memory_overview", map[string]any{})["index"].(string); strings.Contains(ov, "alpha") {
		t.Fatalf("beta's index shows alpha's entries:\n%s", ov)
	}
	if total := a.ok("memory_list", map[string]any{})["total"].(float64); total != 3 {
		t.Fatalf("alpha lists %v", total)
	}
	if _, err := os.Stat(filepath.Join(home, "memory", "agents", "alpha")); err != nil {
		t.Fatalf("alpha's folder: %v", err)
	}
}

func TestStdioWorkdirMustLieInsideRoots(t *testing.T) {
	home, root, outside := t.TempDir(), t.TempDir(), t.TempDir()
	sub := filepath.Join(root, "svc")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "escape")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	c := stdio(t, home, clientOpts{roots: []string{root}}, "--agent", "tester")
	// No --workdir: the only root is the project.
	c.ok("memory_write", map[string]any{"slug": "root-fact", "scope": "project", "type": "project", "title": "Root",
		"body": "Lives in the root project."})
	// A subfolder is a project of its own (its path's), not the session's: refused, as any
	// folder that is not the session's project (TestWorkdirOfAnotherProjectRefused).
	c.fails("memory_write", map[string]any{"slug": "sub-fact", "scope": "project", "type": "project", "title": "Sub",
		"body": "Lives in the sub project.", "workdir": sub}, "workdir_other_project")
	for _, bad := range []string{outside, root + "/../" + filepath.Base(outside), link, "relative/dir", "/"} {
		e := c.fails("memory_list", map[string]any{"workdir": bad}, "workdir_not_allowed")
		if allowed, _ := e["allowed_workdirs"].([]any); len(allowed) != 1 || allowed[0] != root {
			t.Fatalf("%s: allowed %v", bad, e)
		}
		if e["suggested_next_call"] == nil {
			t.Fatalf("%s: no next call: %v", bad, e)
		}
	}
	if items := c.ok("memory_list", map[string]any{"workdir": root, "scope": "project"})["items"].([]any); len(items) != 1 ||
		items[0].(map[string]any)["slug"] != "root-fact" {
		t.Fatalf("root project %v", items)
	}
}

// The server asks for roots only a client that declared them, once per session: a client
// without the capability may never answer roots/list, and each project-scoped call would
// wait for the request's timeout.
func TestStdioRootsAskedOnlyWhenDeclared(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	var none, some atomic.Int32
	plain := stdio(t, home, clientOpts{noRoots: true, asked: &none}, "--agent", "tester")
	plain.ok("memory_list", map[string]any{})
	plain.ok("memory_write", map[string]any{"slug": "g-fact", "scope": "global", "type": "reference", "title": "G",
		"body": "A global fact."})
	// Without roots nothing can be named as a workdir, and the refusal says which are allowed.
	if e := plain.fails("memory_list", map[string]any{"workdir": root}, "workdir_not_allowed"); e["allowed_workdirs"] != nil {
		if allowed, _ := e["allowed_workdirs"].([]any); len(allowed) != 0 {
			t.Fatalf("allowed %v", allowed)
		}
	}
	if n := none.Load(); n != 0 {
		t.Fatalf("a client without roots was asked for them %d times", n)
	}
	rooted := stdio(t, home, clientOpts{roots: []string{root}, asked: &some}, "--agent", "tester")
	rooted.ok("memory_write", map[string]any{"slug": "r-fact", "scope": "project", "type": "project", "title": "R",
		"body": "In the root."})
	rooted.ok("memory_list", map[string]any{"scope": "project"})
	rooted.ok("memory_list", map[string]any{"workdir": root})
	if n := some.Load(); n != 1 {
		t.Fatalf("a client with roots was asked %d times, want once", n)
	}
}

func TestStdioAgentFromClientNameOrRefused(t *testing.T) {
	home := t.TempDir()
	named := stdio(t, home, clientOpts{name: "Claude Code"})
	named.ok("memory_write", map[string]any{"slug": "cc-notes", "scope": "agent", "type": "reference", "title": "CC",
		"body": "Claude Code's own note."})
	if _, err := os.Stat(filepath.Join(home, "memory", "agents", "claude-code", "reference", "cc-notes.md")); err != nil {
		t.Fatalf("agent from clientInfo.name: %v", err)
	}
	anon := stdio(t, home, clientOpts{name: "!!!"})
	anon.fails("memory_write", map[string]any{"slug": "x-notes", "scope": "agent", "type": "reference", "title": "X",
		"body": "x"}, "mcp_agent_unknown")
	anon.fails("memory_list", map[string]any{"scope": "agent"}, "mcp_agent_unknown")
	anon.fails("kv_get", map[string]any{"key": "k"}, "mcp_agent_unknown")
	// A turn is learned for its agent: without one, the same refusal (it was "invalid agent").
	anon.fails("observe_turn", map[string]any{"messages": []any{map[string]any{"role": "user", "content": "hi"}}}, "mcp_agent_unknown")
	// Without an agent, the global scope still works.
	anon.ok("memory_list", map[string]any{"scope": "global"})
	// Connected agents are recorded in the shared home for Settings → Integrations, whichever
	// process serves them; a session without a name is not.
	// Its last call is written when the session ends, whatever the write throttle held back.
	if err := named.cs.Close(); err != nil {
		t.Fatal(err)
	}
	ags := agents(t, home)
	if len(ags) != 1 || ags[0].Name != "claude-code" || ags[0].Transport != "stdio" || ags[0].LastCall != "memory_write" || ags[0].Calls != 2 {
		t.Fatalf("agents %+v", ags)
	}
}
