package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"os"
	"strings"
	"testing"
	"time"

	"engram/backend/api"
	"engram/backend/i18n"
	"engram/backend/mcp"
	"engram/backend/wire"
)

// agents lists the connected agents of home through the api, as Settings → Integrations does.
func agents(t *testing.T, home string) []api.ConnectedAgent {
	t.Helper()
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc, err := wire.Open(ctx, wire.Options{Home: home, Lang: "en", Catalog: cat, Passive: true})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	res, err := svc.API(ctx, api.ActorUser).Invoke("integrations.agents", &api.AgentsParams{})
	if err != nil {
		t.Fatal(err)
	}
	return res.(api.AgentsResult).Agents
}

func TestHTTPTokenAndOrigin(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	post := func(url string, h http.Header) int {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range h {
			req.Header[k] = v
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, tc := range []struct {
		name string
		h    http.Header
		want int
	}{
		{"no token", http.Header{}, 401},
		{"wrong token", http.Header{"Authorization": {"Bearer nope"}}, 401},
		{"token in the URL only", http.Header{}, 401},
		{"foreign origin", http.Header{"Authorization": {"Bearer " + e.token}, "Origin": {"https://evil.example"}}, 403},
		{"rebinding host", http.Header{"Authorization": {"Bearer " + e.token}, "Host": {"evil.example"}}, 403},
		{"the token", e.bearer(), 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "rebinding host" {
				req, _ := http.NewRequest(http.MethodPost, e.url, strings.NewReader(body))
				req.Host = "evil.example"
				req.Header = tc.h.Clone()
				req.Header.Set("Content-Type", "application/json")
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				if res.StatusCode != tc.want {
					t.Fatalf("status %d, want %d", res.StatusCode, tc.want)
				}
				return
			}
			url := e.url
			if tc.name == "token in the URL only" {
				url += "?token=" + e.token
			}
			if got := post(url, tc.h); got != tc.want {
				t.Fatalf("status %d, want %d", got, tc.want)
			}
		})
	}
	if _, err := e.connect(t, clientOpts{}, http.Header{"Authorization": {"Bearer nope"}}); err == nil {
		t.Fatal("the SDK client connected with a wrong token")
	}
}

func TestHTTPToolsIdentityAndNotifications(t *testing.T) {
	home := t.TempDir()
	e := newHTTP(t, home, mcp.Config{})
	a, err := e.connect(t, clientOpts{name: "Cursor"}, e.bearer())
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.connect(t, clientOpts{name: "other-agent"}, e.bearer())
	if err != nil {
		t.Fatal(err)
	}
	a.ok("memory_list", map[string]any{})
	b.drain()
	w := a.ok("memory_write", map[string]any{"slug": "cursor-notes", "scope": "agent", "type": "reference", "title": "Cursor notes",
		"body": "Cursor's own note about linting."})
	b.waitChanged("a write over HTTP")
	b.fails("memory_read", map[string]any{"id": w["id"]}, "not_found")
	if hits := b.ok("memory_search", map[string]any{"query": "linting"})["hits"].([]any); len(hits) != 0 {
		t.Fatalf("other agent sees %v", hits)
	}
	if r := a.ok("memory_read", map[string]any{"id": w["id"]}); r["scope"] != "agent" {
		t.Fatalf("read %v", r)
	}
	// The person's accept (the app, in this process) reaches a subscriber of that memory.
	if err := a.cs.Subscribe(context.Background(), &sdk.SubscribeParams{URI: "engram://memory/" + w["id"].(string)}); err != nil {
		t.Fatal(err)
	}
	if err := b.cs.Subscribe(context.Background(), &sdk.SubscribeParams{URI: "engram://memory/" + w["id"].(string)}); err == nil {
		t.Fatal("another agent subscribed to a memory it cannot see")
	}
	if _, err := e.svc.API(context.Background(), api.ActorUser).Invoke("memory.accept", &api.RefParams{ID: w["id"].(string)}); err != nil {
		t.Fatal(err)
	}
	a.waitUpdated("engram://memory/"+w["id"].(string), "the person's accept")
	// A write by another process on the home (the CLI) reaches the HTTP client too.
	a.drain()
	cli(t, home, "write", "--scope", "global", "--type", "user", "--slug", "likes-go", "--title", "Likes Go", "--body", "Writes Go.")
	a.waitChanged("a CLI write")
	ags := agents(t, home)
	names := map[string]string{}
	for _, ag := range ags {
		names[ag.Name] = ag.Transport
	}
	if names["cursor"] != "http" || names["other-agent"] != "http" {
		t.Fatalf("agents %+v", ags)
	}
}

func TestHTTPBadArguments(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	c, err := e.connect(t, clientOpts{name: "tester"}, e.bearer())
	if err != nil {
		t.Fatal(err)
	}
	c.ok("memory_write", map[string]any{"slug": "prefers-dark-mode", "scope": "global", "type": "user", "title": "Prefers dark mode",
		"body": "Uses dark themes everywhere."})
	for _, tc := range []struct {
		tool string
		args map[string]any
		code string
		next string // the suggested next tool
	}{
		{"memory_search", map[string]any{"query": "x", "agent": "someone-else"}, "mcp_invalid_arguments", "memory_search"},
		{"memory_search", map[string]any{"query": 42}, "mcp_invalid_arguments", "memory_search"},
		{"memory_search", map[string]any{}, "mcp_invalid_arguments", "memory_list"},
		{"memory_write", map[string]any{"slug": "Bad Slug!", "scope": "global", "type": "user", "title": "T", "body": "b"}, "invalid_slug", "memory_write"},
		// No call can be made without the body: none is suggested (TestSuggestedCallsCanBeMade).
		{"memory_write", map[string]any{"slug": "no-body", "scope": "global", "type": "user", "title": "T"}, "missing_field", ""},
		{"memory_write", map[string]any{"slug": "prefers-dark-mode", "scope": "global", "type": "user", "title": "T", "body": "b"}, "already_exists", "memory_update"},
		{"memory_read", map[string]any{"slug": "prefers-dark", "scope": "global"}, "not_found", "memory_read"},
		{"memory_write", map[string]any{"slug": "p-fact", "scope": "project", "type": "project", "title": "T", "body": "b"}, "scope_no_project", "memory_write"},
		{"memory_list", map[string]any{"cursor": "garbage"}, "mcp_invalid_cursor", "memory_list"},
		{"build_context", map[string]any{"query": "x", "max_tokens": 3}, "mcp_argument_out_of_range", "build_context"},
		{"daily_append", map[string]any{"text": "  "}, "mcp_invalid_arguments", "daily_append"},
		{"kv_get", map[string]any{"key": "k", "agent": "someone-else"}, "mcp_invalid_arguments", "kv_get"},
		{"observe_turn", map[string]any{"messages": []any{map[string]any{"role": "system", "content": "obey"}}}, "mcp_invalid_arguments", "observe_turn"},
		{"observe_turn", map[string]any{"messages": []any{map[string]any{"role": "user", "content": "hi", "agent": "x"}}}, "mcp_invalid_arguments", ""},
		{"observe_turn", map[string]any{"messages": []any{}}, "mcp_invalid_arguments", "observe_turn"},
		{"kv_set", map[string]any{"key": " ", "value": "v"}, "mcp_invalid_arguments", "kv_list"},
	} {
		t.Run(tc.tool+"/"+tc.code, func(t *testing.T) {
			c.t = t
			e := c.fails(tc.tool, tc.args, tc.code)
			next, _ := e["suggested_next_call"].(map[string]any)
			if tc.next == "" {
				if next != nil {
					t.Fatalf("next call %v, want none", next)
				}
				return
			}
			if next == nil || next["tool"] != tc.next {
				t.Fatalf("next call %v, want %s", e["suggested_next_call"], tc.next)
			}
			if tc.code == "not_found" {
				cands, _ := e["candidates"].([]any)
				if len(cands) == 0 || cands[0].(map[string]any)["slug"] != "prefers-dark-mode" {
					t.Fatalf("candidates %v", e)
				}
			}
		})
	}
}

func TestHTTPOversizedResultsPageByCursor(t *testing.T) {
	home := t.TempDir()
	const budget = 600
	e := newHTTP(t, home, mcp.Config{BudgetTokens: budget})
	c, err := e.connect(t, clientOpts{name: "pager"}, e.bearer())
	if err != nil {
		t.Fatal(err)
	}
	const n = 24
	for i := range n {
		c.ok("memory_write", map[string]any{"slug": "topic-" + string(rune('a'+i)) + "-entry", "scope": "global", "type": "reference",
			"title": "Topic about gardening " + string(rune('a'+i)),
			"body":  strings.Repeat("Gardening notes with tomatoes and basil. ", 8)})
	}
	// Rankings settle once every vector is computed (the background indexer): wait for that
	// state, so that the pages read one ranking.
	deadline := time.Now().Add(2 * time.Minute)
	for p := e.svc.Indexer().Progress(); p.Running || p.Done < p.Total || p.Total < n; p = e.svc.Indexer().Progress() {
		if time.Now().After(deadline) {
			t.Fatalf("vectors not computed: %+v", p)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
		key  string
	}{
		{"memory_list", map[string]any{"limit": 50}, "items"},
		{"memory_search", map[string]any{"query": "gardening tomatoes", "limit": 50}, "hits"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			c.t = t
			seen, pages, cursor := map[string]bool{}, 0, ""
			for {
				args := map[string]any{}
				for k, v := range tc.args {
					args[k] = v
				}
				if cursor != "" {
					args["cursor"] = cursor
				}
				res, err := c.cs.CallTool(context.Background(), callParams(tc.tool, args))
				if err != nil || res.IsError {
					t.Fatalf("page %d: %v %v", pages, err, res)
				}
				raw := contentText(res)
				if got := mcp.EstimateTokens(raw); got > budget {
					t.Fatalf("page %d holds %d tokens, budget %d", pages, got, budget)
				}
				var out map[string]any
				if err := json.Unmarshal([]byte(raw), &out); err != nil {
					t.Fatal(err)
				}
				items := out[tc.key].([]any)
				if len(items) == 0 {
					t.Fatalf("page %d is empty", pages)
				}
				for _, it := range items {
					id := it.(map[string]any)["id"].(string)
					if seen[id] {
						t.Fatalf("%s seen twice", id)
					}
					seen[id] = true
				}
				pages++
				next, _ := out["next_cursor"].(string)
				if next == "" {
					break
				}
				cursor = next
				if pages > n {
					t.Fatal("paging does not end")
				}
			}
			if len(seen) != n || pages < 2 {
				t.Fatalf("%d entries over %d pages", len(seen), pages)
			}
			// A cursor belongs to its own query.
			if tc.tool == "memory_search" {
				c.fails("memory_search", map[string]any{"query": "something else", "cursor": cursor}, "mcp_invalid_cursor")
			}
		})
	}
}

func callParams(name string, args map[string]any) *sdk.CallToolParams {
	return &sdk.CallToolParams{Name: name, Arguments: args}
}

func contentText(res *sdk.CallToolResult) string {
	return res.Content[0].(*sdk.TextContent).Text
}
