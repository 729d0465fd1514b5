package memory

import (
	"testing"
	"time"
)

// `engram restore SLUG` after a delete or a reject: the newest trashed copy of the slug in
// its scope comes back (the CLI found none: only an id looked in the trash).
func TestRestoreFromTrashBySlug(t *testing.T) {
	e := newEnv(t)
	wd := t.TempDir()
	items := []Item{
		wr("global-one", "G", "global body"),
		{Op: OpWrite, Scope: ScopeProject, Workdir: wd, Type: TypeProject, Slug: "proj-one", Title: sp("P"), Body: sp("project body")},
		{Op: OpWrite, Scope: ScopeAgent, Agent: "claude", Type: TypeFeedback, Slug: "agent-one", Title: sp("A"), Body: sp("agent body")},
	}
	for _, it := range items {
		first := e.ok(it)
		e.clock.Advance(time.Second)
		e.ok(Item{Op: OpDelete, ID: first.ID})
		later := it
		later.Body = sp("the newer body")
		r := e.ok(later)
		e.clock.Advance(time.Second)
		e.ok(Item{Op: OpReject, ID: r.ID})
		e.clock.Advance(time.Second)
		ref := Item{Op: OpRestore, Slug: it.Slug, Scope: it.Scope, Workdir: it.Workdir, Agent: it.Agent}
		rs := e.ok(ref)
		if rs.ID != r.ID || rs.Path != r.Path {
			t.Fatalf("%s: restored %+v, want the newest trashed copy %s", it.Slug, rs, r.ID)
		}
		if m := e.get(r.ID); m.Body != "the newer body" || m.Archived {
			t.Fatalf("%s: restored row %+v", it.Slug, m)
		}
		// The live one now holds the slug: the older trashed copy stays in the trash.
		e.wantCode(ref, CodeNotArchived)
	}
	// Another scope's slug is not found, and nothing came back for it.
	e.wantCode(Item{Op: OpRestore, Slug: "agent-one", Scope: ScopeAgent, Agent: "codex"}, CodeNotFound)
	e.wantCode(Item{Op: OpRestore, Slug: "never-was", Scope: ScopeGlobal}, CodeNotFound)
}
