package mcp

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"engram/backend/api"
)

// linearPage is how page fitted a list before it halved: one item fewer at a time from all of
// them, the first that fits (or one).
func linearPage(budget, n int, more bool, cursorAt func(int) string, build func(int, string) any) any {
	for keep := n; ; keep-- {
		next := ""
		if keep < n || more {
			next = cursorAt(keep)
		}
		res := build(keep, next)
		if keep <= 1 || EstimateTokens(string(mustJSON(res))) <= budget {
			return res
		}
	}
}

// page (fit) keeps what dropping one item at a time kept, for search and list pages of every size
// against every budget, while encoding a long page a few times instead of once per item.
func TestPageKeepsTheMostThatFit(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 300; round++ {
		n := rng.Intn(60)
		items := make([]string, n)
		for i := range items {
			items[i] = strings.Repeat("w ", rng.Intn(200)) + strings.Repeat("词", rng.Intn(40))
		}
		budget := 20 + rng.Intn(3000)
		more := rng.Intn(2) == 0
		builds := 0
		build := func(keep int, next string) any {
			builds++
			out := map[string]any{"items": items[:keep], "total": n + 5}
			if next != "" {
				out["next_cursor"] = next
			}
			return out
		}
		s := &Server{cfg: Config{BudgetTokens: budget}}
		cur := offsetCursor("memory_list", "abc", 95)
		got := string(mustJSON(s.page(n, more, "memory_list", "abc", 95, build)))
		if builds > 2+2*bitsOf(n) {
			t.Fatalf("n=%d: %d encodings", n, builds)
		}
		if want := string(mustJSON(linearPage(budget, n, more, cur, build))); got != want {
			t.Fatalf("n=%d budget=%d more=%v:\n got %.200s\nwant %.200s", n, budget, more, got, want)
		}
	}
}

func bitsOf(n int) int { return len(fmt.Sprintf("%b", n)) }

// A kv_list page cut by the budget ends at its last key; a whole one keeps the api's cursor.
func TestFitKVPageCursor(t *testing.T) {
	page := api.KVListResult{Agent: "a", Total: 9, NextCursor: "k4"}
	for i := 0; i < 5; i++ {
		page.Entries = append(page.Entries, api.KVEntry{Key: fmt.Sprintf("k%d", i), Value: []byte(`"` + strings.Repeat("v", 400) + `"`)})
	}
	whole := (&Server{cfg: Config{BudgetTokens: 100000}}).fitKVPage(page).(api.KVListResult)
	if len(whole.Entries) != 5 || whole.NextCursor != "k4" {
		t.Fatalf("whole page: %d entries, cursor %q", len(whole.Entries), whole.NextCursor)
	}
	cut := (&Server{cfg: Config{BudgetTokens: 400}}).fitKVPage(page).(api.KVListResult)
	if len(cut.Entries) != 2 || cut.NextCursor != "k1" || EstimateTokens(string(mustJSON(cut))) > 400 {
		t.Fatalf("cut page: %d entries, cursor %q", len(cut.Entries), cut.NextCursor)
	}
	one := (&Server{cfg: Config{BudgetTokens: 10}}).fitKVPage(page).(api.KVListResult)
	if len(one.Entries) != 1 || one.NextCursor != "k0" {
		t.Fatalf("over-budget page: %d entries, cursor %q", len(one.Entries), one.NextCursor)
	}
	last := page
	last.NextCursor = ""
	if got := (&Server{cfg: Config{BudgetTokens: 100000}}).fitKVPage(last).(api.KVListResult); got.NextCursor != "" {
		t.Fatalf("last page: cursor %q", got.NextCursor)
	}
}
