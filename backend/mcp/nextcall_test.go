package mcp_test

import (
	"strings"
	"testing"
)

// A model makes the suggested_next_call of a refusal as it stands, so the call must be one
// that can work: memory_write's refusals suggested skeletons ({"scope", "slug"} after an
// invalid slug, the call without its Markdown body after a type outside the list, …) that
// failed again for a missing argument, daily_append's `memory_write {}`, and a slug already
// taken a memory_update with nothing to change. Found with the official TypeScript SDK
// (frontend/tests/e2e/mcp-tsclient.e2e.mjs). Each suggestion here is followed as given.
func TestSuggestedCallsCanBeMade(t *testing.T) {
	c := stdio(t, t.TempDir(), clientOpts{}, "--agent", "tester")
	// A body over a line and over 200 characters: it was left out of a suggestion, or cut.
	long := "Deploy steps:\n" + strings.Repeat("run the migration, then restart the workers; ", 12) + "end."
	c.ok("memory_write", map[string]any{"slug": "taken-slug", "scope": "global", "type": "user", "title": "Taken", "body": "First."})
	for _, tc := range []struct {
		name string
		args map[string]any
		code string
		slug string // the memory the suggested call writes
	}{
		{"invalid slug", map[string]any{"slug": "Deploy Steps!", "scope": "global", "type": "user", "title": "Deploy steps", "body": long,
			"tags": []any{"ops"}}, "invalid_slug", "deploy-steps"},
		{"missing slug", map[string]any{"scope": "global", "type": "user", "title": "Release notes", "body": long}, "missing_field", "release-notes"},
		{"type outside the list", map[string]any{"slug": "typed", "scope": "global", "type": "daily", "title": "Typed", "body": long},
			"mcp_argument_not_allowed", ""},
		{"unknown argument", map[string]any{"slug": "extra-arg", "scope": "global", "type": "user", "title": "Extra", "body": long, "limit": 3},
			"mcp_invalid_arguments", "extra-arg"},
		{"slug taken", map[string]any{"slug": "taken-slug", "scope": "global", "type": "user", "title": "Taken again", "body": long},
			"already_exists", "taken-slug"},
	} {
		e := c.fails("memory_write", tc.args, tc.code)
		next, _ := e["suggested_next_call"].(map[string]any)
		if tc.slug == "" { // the type cannot be guessed: no call, or one that works
			if next == nil {
				continue
			}
		}
		if next == nil {
			t.Fatalf("%s: no suggested call: %v", tc.name, e)
		}
		tool, _ := next["tool"].(string)
		args, _ := next["arguments"].(map[string]any)
		out, isErr := c.call(tool, args)
		if isErr {
			t.Fatalf("%s: the suggested %s %v failed: %v", tc.name, tool, args, out)
		}
		got := c.ok("memory_read", map[string]any{"slug": tc.slug, "scope": "global"})
		if body, _ := got["body"].(string); !strings.Contains(body, long) {
			t.Fatalf("%s: the body written by the suggested call is not the one sent: %q", tc.name, body)
		}
	}
	// Refusals whose fix no call can make suggest none (daily_append's suggested memory_write {}).
	for _, tc := range []struct {
		tool string
		args map[string]any
		code string
	}{
		{"daily_append", map[string]any{"text": strings.Repeat("z", 2049)}, "daily_entry_too_long"},
		{"daily_append", map[string]any{"text": "bell\a"}, "control_character"},
		{"memory_write", map[string]any{"slug": "no-title", "scope": "global", "type": "user", "body": "b"}, "missing_field"},
		{"memory_search", map[string]any{"query": "q", "Limit": 3}, "mcp_invalid_arguments"},
	} {
		e := c.fails(tc.tool, tc.args, tc.code)
		next, _ := e["suggested_next_call"].(map[string]any)
		if next == nil {
			continue
		}
		tool, _ := next["tool"].(string)
		args, _ := next["arguments"].(map[string]any)
		if out, isErr := c.call(tool, args); isErr {
			t.Fatalf("%s %v: the suggested %s %v failed: %v", tc.tool, tc.args, tool, args, out)
		}
	}
}

// A slug or id that names no memory is answered with candidates and a call on the nearest
// one, which is a guess: memory_delete of "tea-shop" suggested memory_delete of
// "tea-shop-address", which a model making the suggested call trashed without having seen it.
// The call suggested reads the candidate, whatever the call was, and carries none of the
// caller's id or version (they are not that memory's).
func TestNotFoundSuggestsReadingTheNearestMemory(t *testing.T) {
	c := stdio(t, t.TempDir(), clientOpts{}, "--agent", "tester")
	c.ok("memory_write", map[string]any{"slug": "tea-shop-address", "scope": "global", "type": "reference",
		"title": "Tea shop address", "body": "The tea shop is on Main Street."})
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"memory_delete", map[string]any{"slug": "tea-shop", "scope": "global"}},
		{"memory_delete", map[string]any{"slug": "tea-shop", "scope": "global", "expected_version": "abc"}},
		{"memory_update", map[string]any{"slug": "tea-shop", "scope": "global", "body": "Closed on Mondays."}},
		{"memory_read", map[string]any{"slug": "tea-shop", "scope": "global"}},
	} {
		e := c.fails(tc.tool, tc.args, "not_found")
		next, _ := e["suggested_next_call"].(map[string]any)
		args, _ := next["arguments"].(map[string]any)
		if next["tool"] != "memory_read" || args["slug"] != "tea-shop-address" || args["id"] != nil || args["expected_version"] != nil {
			t.Fatalf("%s %v: suggested %v, want memory_read of tea-shop-address", tc.tool, tc.args, next)
		}
		if out, isErr := c.call("memory_read", args); isErr {
			t.Fatalf("%s %v: the suggested read failed: %v", tc.tool, tc.args, out)
		}
	}
	// Nothing was changed or removed by the misses.
	if got := c.ok("memory_read", map[string]any{"slug": "tea-shop-address", "scope": "global"}); got["body"] != "The tea shop is on Main Street." {
		t.Fatalf("the nearest memory changed: %v", got)
	}
}
