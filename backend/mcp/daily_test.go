package mcp_test

import (
	"strings"
	"testing"
)

// A model's journal entry has its own limit and a model leaves the day's last bytes to the
// person: one daily_append of 32,500 bytes filled the day, and the person's own `engram daily
// append` was refused until the next.
func TestStdioDailyAppendLeavesRoomForThePerson(t *testing.T) {
	home := t.TempDir()
	c := stdio(t, home, clientOpts{}, "--agent", "tester")
	e := c.fails("daily_append", map[string]any{"text": strings.Repeat("z", 2049)}, "daily_entry_too_long")
	if msg := e["message"].(string); !strings.Contains(msg, "2048") {
		t.Fatalf("the refusal does not name the limit: %s", msg)
	}
	// The fix is a shorter entry or a memory: the message names memory_write, and no call is
	// suggested, since no call can be made from the entry alone (`memory_write {}` was, and
	// failed for its missing arguments; TestSuggestedCallsCanBeMade).
	if msg := e["message"].(string); !strings.Contains(msg, "memory_write") || e["suggested_next_call"] != nil {
		t.Fatalf("the refusal does not point to memory_write, or suggests a call that fails: %v", e)
	}
	c.ok("daily_append", map[string]any{"text": "Shipped the release.\nThe tests pass."})
	refused := false
	for range 20 {
		out, isErr := c.call("daily_append", map[string]any{"text": strings.Repeat("y", 2000)})
		if isErr {
			if e, _ := out["error"].(map[string]any); e["code"] != "daily_agent_room" {
				t.Fatalf("want daily_agent_room, got %v", out)
			}
			refused = true
			break
		}
	}
	if !refused {
		t.Fatal("agents filled the day past the warning threshold")
	}
	cli(t, home, "daily", "append", "Person: shipped the release")
	if out := cli(t, home, "daily", "show"); !strings.Contains(out, "Person: shipped the release") {
		t.Fatalf("the person's entry is not in the day:\n%s", out)
	}
}
