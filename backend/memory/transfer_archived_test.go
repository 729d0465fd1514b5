package memory

import (
	"bytes"
	"strings"
	"testing"
)

// TestExportKeepsTheArchive: `engram export` took only live memories, so moving machines by
// export and import (the format the README says round-trips) lost every archived memory unsaid.
// Archived memories are exported first, marked, and come back archived; a slug archived and
// then used again comes back as both; a second import of the file changes nothing.
func TestExportKeepsTheArchive(t *testing.T) {
	a := newEnv(t)
	a.ok(wr("old-editor", "Editor", "Uses Vim."))
	a.ok(Item{Op: OpArchive, Scope: ScopeGlobal, Slug: "old-editor"})
	a.ok(wr("old-editor", "Editor", "Uses Helix now."))
	a.ok(wr("shell", "Shell", "Uses fish."))
	a.ok(Item{Op: OpArchive, Scope: ScopeGlobal, Slug: "shell"})
	a.ok(wr("live-one", "Live", "Prefers dark mode."))

	var exp bytes.Buffer
	n, err := a.s.Export(a.ctx, &exp, Filter{})
	if err != nil || n != 4 {
		t.Fatalf("export: %d memories, %v; want 4 (2 archived, 2 live)\n%s", n, err, exp.String())
	}
	lines := strings.Split(strings.TrimSpace(exp.String()), "\n")
	if !strings.Contains(lines[0], `"archived":true`) || !strings.Contains(lines[1], `"archived":true`) ||
		strings.Contains(lines[2], `"archived"`) {
		t.Fatalf("archived memories first and marked, live ones unmarked:\n%s", exp.String())
	}

	b := newEnv(t)
	for round := 1; round <= 2; round++ {
		rep, err := b.s.ImportWith(b.ctx, bytes.NewReader(exp.Bytes()), ImportOptions{KeepReview: true})
		if err != nil || len(rep.Errors) != 0 {
			t.Fatalf("import %d: %+v %v", round, rep, err)
		}
		if round == 1 && rep.Imported != 4 || round == 2 && (rep.Imported != 0 || rep.Duplicates != 4) {
			t.Fatalf("import %d: imported %d, present %d", round, rep.Imported, rep.Duplicates)
		}
		c, err := b.s.Counts(b.ctx)
		if err != nil || c.Memories != 2 || c.Archived != 2 {
			t.Fatalf("after import %d: %+v %v; want 2 live and 2 archived", round, c, err)
		}
	}
	live, err := b.s.GetBySlug(b.ctx, ScopeGlobal, "", "", "old-editor")
	if err != nil || !strings.Contains(live.Body, "Helix") {
		t.Fatalf("the live memory of a reused slug: %+v %v", live, err)
	}
	var exp2 bytes.Buffer
	if _, err := b.s.Export(b.ctx, &exp2, Filter{}); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Count(exp2.String(), `"archived":true`), 2; got != want {
		t.Fatalf("%d archived after the round trip, want %d", got, want)
	}
}
