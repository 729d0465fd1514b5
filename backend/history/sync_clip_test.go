package history

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"

	"engram/backend/memory"
)

// A kv value a Conflict carries is cut once, here, to at most 80 runes ending in "…" and on a
// rune boundary; a shorter one is carried whole.
func TestShownValueCutsOnARune(t *testing.T) {
	for _, v := range []string{"", `"short"`, strings.Repeat("x", 80), strings.Repeat("测", 80)} {
		if got := shownValue(v); got != v {
			t.Fatalf("shownValue(%q) = %q, want it whole", v, got)
		}
	}
	for _, v := range []string{strings.Repeat("x", 81), `"` + strings.Repeat("测", 30000) + `"`, strings.Repeat("a测", 100)} {
		got := shownValue(v)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) != 80 || !strings.HasSuffix(got, "…") ||
			!strings.HasPrefix(v, strings.TrimSuffix(got, "…")) {
			t.Fatalf("shownValue of %d runes = %q (%d runes)", utf8.RuneCountInString(v), got, utf8.RuneCountInString(got))
		}
	}
}

// Two machines set one kv key to 64 KiB values: the sync that merges names the conflict with
// both values cut to a line, and so does the other machine's fast-forward naming what was
// replaced; the values themselves are kept whole in kv.json. The result carried both values
// whole (128 KiB per key) to the window, the bridge and the CLI.
func TestSyncKVConflictCarriesClippedValues(t *testing.T) {
	ctx := context.Background()
	_, bare, a, ra, b, rb := twoMachines(t)
	kvSet(t, a, "a", "k", `"base"`)
	if _, err := ra.Sync(ctx, a, bare); err != nil {
		t.Fatal(err)
	}
	if _, err := rb.Sync(ctx, b, bare); err != nil {
		t.Fatal(err)
	}
	fromA := `"` + strings.Repeat("x", memory.MaxKVValueBytes-2) + `"`
	fromB := `"` + strings.Repeat("测", (memory.MaxKVValueBytes-2)/3) + `"`
	kvSet(t, a, "a", "k", fromA)
	kvSet(t, b, "a", "k", fromB)
	if res, err := ra.Sync(ctx, a, ""); err != nil || !res.Pushed {
		t.Fatalf("A's sync = %+v, %v", res, err)
	}
	check := func(what string, cs []Conflict) {
		t.Helper()
		if len(cs) != 1 || cs[0].Key != "k" {
			t.Fatalf("%s: %+v", what, cs)
		}
		c := cs[0]
		if c.Value != shownValue(fromB) || c.Other != shownValue(fromA) ||
			utf8.RuneCountInString(c.Value) != 80 || !strings.HasPrefix(c.Other, `"xxx`) || !strings.HasSuffix(c.Other, "…") {
			t.Fatalf("%s: value %q, other %q", what, c.Value, c.Other)
		}
		if b, _ := json.Marshal(c); len(b) > 1024 {
			t.Fatalf("%s: a conflict of %d bytes", what, len(b))
		}
	}
	mb, err := rb.Sync(ctx, b, "")
	if err != nil || !mb.Merged {
		t.Fatalf("B's sync = %+v, %v", mb, err)
	}
	check("B's merge", mb.Conflicts)
	fa, err := ra.Sync(ctx, a, "")
	if err != nil || !fa.FastForward {
		t.Fatalf("A's second sync = %+v, %v", fa, err)
	}
	check("A's fast-forward", fa.Replaced)
	for _, st := range []*memory.Store{a, b} {
		v, err := st.KVGet(ctx, "a", "k")
		if err != nil || string(v) != fromB {
			t.Fatalf("k on %s = %d bytes, %v", st.Root(), len(v), err)
		}
	}
}

// A memory's conflict copy is found among the files a fast-forward wrote by its name, the one
// beside the memory first.
func TestCopyPathPrefersTheSibling(t *testing.T) {
	h := func(s string) plumbing.Hash { return plumbing.NewHash(strings.Repeat(s, 40)) }
	old := map[string]plumbing.Hash{"global/user/tea.md": h("1"), "global/reference/tea-conflict-abc.md": h("2")}
	next := map[string]plumbing.Hash{
		"global/user/tea.md":                   h("3"),
		"agents/x/user/tea-conflict-abc.md":    h("4"),
		"global/user/tea-conflict-abc.md":      h("5"),
		"global/reference/tea-conflict-abc.md": h("2"), // unchanged: not written by the sync
	}
	w := writtenByName(old, next)
	if got := w["tea-conflict-abc.md"]; len(got) != 2 {
		t.Fatalf("written = %v", w)
	}
	if got := copyPath(w["tea-conflict-abc.md"], "global/user"); got != "global/user/tea-conflict-abc.md" {
		t.Fatalf("copy = %q", got)
	}
	if got := copyPath(w["tea-conflict-abc.md"], "projects/p/user"); got != "agents/x/user/tea-conflict-abc.md" {
		t.Fatalf("copy elsewhere = %q", got)
	}
	if got := copyPath(w["nosuch.md"], "global/user"); got != "" {
		t.Fatalf("no copy = %q", got)
	}
}
