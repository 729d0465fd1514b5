package mcp_test

import (
	"context"
	"os"
	"testing"

	"engram/backend/api"
	"engram/backend/i18n"
	"engram/backend/wire"
)

// hasMethod reports whether this build's api table holds method (kv.* and extraction.request
// come from other parts of Engram; the tools call them by name).
func hasMethod(t *testing.T, method string) bool {
	t.Helper()
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc, err := wire.Open(ctx, wire.Options{Home: t.TempDir(), Lang: "en", Catalog: cat, Passive: true})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	_, ok := svc.API(ctx, api.ActorTool).Lookup(method)
	return ok
}

// The kv tools serve each agent its own store: what one agent sets, another never reads or
// lists. Without the kv api methods in this build, every kv tool says so with kv_unavailable.
func TestStdioKVPerAgent(t *testing.T) {
	home := t.TempDir()
	a := stdio(t, home, clientOpts{}, "--agent", "alpha")
	b := stdio(t, home, clientOpts{}, "--agent", "beta")
	if !hasMethod(t, "kv.get") {
		for _, c := range []*client{a, b} {
			c.fails("kv_set", map[string]any{"key": "cursor/last", "value": "42"}, "kv_unavailable")
			c.fails("kv_list", map[string]any{"prefix": "cursor/"}, "kv_unavailable")
		}
		return
	}
	a.ok("kv_set", map[string]any{"key": "cursor/last", "value": "42"})
	if got := a.ok("kv_get", map[string]any{"key": "cursor/last"}); !containsValue(got, "42") {
		t.Fatalf("alpha reads %v", got)
	}
	if got, isErr := b.call("kv_get", map[string]any{"key": "cursor/last"}); !isErr && containsValue(got, "42") {
		t.Fatalf("beta reads alpha's value: %v", got)
	}
	if got := b.ok("kv_list", map[string]any{"prefix": "cursor/"}); containsValue(got, "cursor/last") {
		t.Fatalf("beta lists alpha's key: %v", got)
	}
	a.ok("kv_delete", map[string]any{"key": "cursor/last"})
	if got, isErr := a.call("kv_get", map[string]any{"key": "cursor/last"}); !isErr && containsValue(got, "42") {
		t.Fatalf("deleted value still read: %v", got)
	}
}

// observe_turn hands a turn to extraction.request when the build has it, and otherwise says
// extraction_unavailable; either way the agent is the session's.
func TestStdioObserveTurn(t *testing.T) {
	c := stdio(t, t.TempDir(), clientOpts{}, "--agent", "alpha")
	args := map[string]any{"session_id": "s-1", "messages": []any{
		map[string]any{"role": "user", "content": "Remember that I always use tabs for indentation."},
		map[string]any{"role": "assistant", "content": "Noted."}}}
	if !hasMethod(t, "extraction.request") {
		c.fails("observe_turn", args, "extraction_unavailable")
		return
	}
	c.ok("observe_turn", args)
	// session_id is optional, and stdio names no session: the turn goes under one of this
	// connection's own (it was refused as the invalid session "").
	delete(args, "session_id")
	c.ok("observe_turn", args)
}

// containsValue reports whether s appears anywhere in v's JSON values.
func containsValue(v any, s string) bool {
	switch x := v.(type) {
	case string:
		return x == s
	case map[string]any:
		for k, e := range x {
			if k == s || containsValue(e, s) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if containsValue(e, s) {
				return true
			}
		}
	}
	return false
}
