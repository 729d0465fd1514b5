package memory

import (
	"strings"
	"testing"
)

// A token sent where a slug, a scope, a type, an agent, an id, a session or a model name goes
// is refused for its shape, and the refusal's audit row (Activity) names it redacted: no column
// of the log holds the key, although the caller's answer still says what it sent.
func TestAuditLogKeepsNoSecret(t *testing.T) {
	const key = "ghp_Q3vJx8LmN2pR7tY4wZ9aB6cD1eF5gH0iK3nM"
	e := newEnv(t)
	w := wr("tea", "Tea", "Likes tea.")
	bad := func(edit func(*Item)) Item { it := w; edit(&it); return it }
	items := []Item{
		bad(func(it *Item) { it.Slug = key }),
		bad(func(it *Item) { it.Scope = Scope(key) }),
		bad(func(it *Item) { it.Type = Type(key) }),
		bad(func(it *Item) { it.Scope, it.Agent = ScopeAgent, key }),
		{Op: OpAccept, ID: key},
		{Op: OpDelete, Slug: key, Scope: ScopeGlobal},
	}
	res, err := e.s.ApplyBatch(e.ctx, Batch{Items: items, Actor: ActorUser, Session: "sess " + key, Model: key})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		if r.OK {
			t.Fatalf("item %d applied: %+v", r.Index, r)
		}
	}
	rows, err := e.s.db.QueryContext(e.ctx, `SELECT memory_id || slug || scope || scope_key || session || model || detail FROM memory_audit_log`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		n++
		if strings.Contains(s, key[4:20]) {
			t.Errorf("audit row holds the key: %s", s)
		}
	}
	if n < len(items) {
		t.Fatalf("%d audit rows, want one per refused item (%d)", n, len(items))
	}
}
