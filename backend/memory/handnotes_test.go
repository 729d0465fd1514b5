package memory

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A note a person writes by hand — plain Markdown, or a header without an id — is indexed
// under an id made from its path: the file is left exactly as written, the id is the same in
// every rebuild, and Engram writes it into the file the first time the memory changes.
func TestHandWrittenNotesWithoutID(t *testing.T) {
	e := newEnv(t)
	plain := []byte("Quokkas live on Rottnest Island.\n")
	titled := []byte("---\ntitle: Where the wombats are\ntags: [animals]\n---\nWombats dig burrows in Tasmania.\n")
	day := []byte("Wrote the quarterly plan by hand.\n")
	e.put("global/user/quokka-note.md", plain)
	e.put("global/reference/wombats.md", titled)
	e.put("daily/2026-11-30.md", day)
	rep := e.reconcile()
	if rep.Added != 3 || rep.Problems != 0 {
		t.Fatalf("reconcile: %+v", rep)
	}
	q := e.get(handID("global/user/quokka-note.md"))
	if q.Slug != "quokka-note" || q.Title != "quokka-note" || q.Type != TypeUser || q.Reviewed || q.Body != "Quokkas live on Rottnest Island." {
		t.Fatalf("plain note: %+v", q)
	}
	w := e.get(handID("global/reference/wombats.md"))
	if w.Title != "Where the wombats are" || len(w.Tags) != 1 || !hasSlug(e.search("burrows", Filter{}), "wombats") {
		t.Fatalf("titled note: %+v", w)
	}
	if d := e.get(handID("daily/2026-11-30.md")); d.Type != TypeDaily || !strings.Contains(d.Body, "quarterly plan") {
		t.Fatalf("hand-written day: %+v", d)
	}
	for rel, want := range map[string][]byte{"global/user/quokka-note.md": plain, "global/reference/wombats.md": titled, "daily/2026-11-30.md": day} {
		if got := e.file(rel); !bytes.Equal(got, want) {
			t.Fatalf("%s was rewritten:\n%s", rel, got)
		}
	}
	// The same ids after a rebuild from the files.
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	e.reopen()
	_ = e.get(handID("global/user/quokka-note.md"))
	// A person's accept writes the file with its header, the id unchanged.
	e.ok(Item{Op: OpAccept, ID: q.ID})
	if got := string(e.file("global/user/quokka-note.md")); !strings.Contains(got, "id: "+q.ID+"\n") || !strings.Contains(got, "Quokkas live on Rottnest Island.") {
		t.Fatalf("accepted note:\n%s", got)
	}
	if m := e.get(q.ID); !m.Reviewed {
		t.Fatalf("accept did not hold: %+v", m)
	}
	// A rename of a file without an id is a new memory at the new path.
	if err := os.Rename(filepath.Join(e.s.Root(), "global/reference/wombats.md"), filepath.Join(e.s.Root(), "global/reference/wombat-burrows.md")); err != nil {
		t.Fatal(err)
	}
	e.reconcile()
	if _, err := e.s.Get(e.ctx, w.ID); err == nil {
		t.Fatal("the old path's memory is still indexed")
	}
	if m := e.get(handID("global/reference/wombat-burrows.md")); m.Slug != "wombat-burrows" {
		t.Fatalf("renamed note: %+v", m)
	}
}

// A memory file that loses its id line (or its whole header) in an editor is reported and
// stays out of the index until the id is back; it never comes back as a new memory in the old
// one's place, however often it is edited meanwhile.
func TestMemoryFileThatLostItsIDIsReported(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(orig []byte) []byte
	}{
		{"id line deleted", func(orig []byte) []byte {
			return regexp.MustCompile(`(?m)^id: .*\n`).ReplaceAll(orig, nil)
		}},
		{"header deleted", func(orig []byte) []byte {
			_, body, _ := strings.Cut(string(orig), "\n---\n")
			return []byte(body)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			r := e.ok(wr("fragile-note", "Fragile", "an agent's memory the person edits"))
			orig := e.file(r.Path)
			broken := tc.break_(orig)
			if bytes.Equal(broken, orig) {
				t.Fatal("the edit changed nothing: the test proves nothing")
			}
			for round, data := range [][]byte{broken, append(append([]byte{}, broken...), "\nedited again\n"...)} {
				e.put(r.Path, data)
				rep := e.reconcile()
				if rep.Added != 0 || rep.Problems != 1 {
					t.Fatalf("round %d: %+v", round, rep)
				}
				if p := e.problemAt(r.Path); p == nil || p.Code != ProblemLostID {
					t.Fatalf("round %d: problem %+v", round, p)
				}
				if n := e.count(`SELECT COUNT(*) FROM memory_meta WHERE path = ?`, r.Path); n != 0 {
					t.Fatalf("round %d: the file was indexed anew (%d rows)", round, n)
				}
			}
			// A rebuild of the index from the files keeps it reported.
			if _, err := e.s.Reindex(e.ctx); err != nil {
				t.Fatal(err)
			}
			if p := e.problemAt(r.Path); p == nil || p.Code != ProblemLostID || e.count(`SELECT COUNT(*) FROM memory_meta`) != 0 {
				t.Fatalf("after a rebuild: problem %+v", p)
			}
			e.put(r.Path, orig)
			e.reconcile()
			if m := e.get(r.ID); m.Slug != "fragile-note" || e.problemAt(r.Path) != nil {
				t.Fatalf("restored file: %+v, problem %+v", m, e.problemAt(r.Path))
			}
		})
	}
}

// Migration 22: a plain note an older build had recorded as a parse problem is read again and
// indexed at the upgrade (before it, the problem stood until the file changed).
func TestHandNotesIndexedAtUpgrade(t *testing.T) {
	e := newEnv(t)
	rel := "global/user/old-plain-note.md"
	e.put(rel, []byte("Kept as a problem by the last build.\n"))
	e.reconcile()
	// What schema 21 left: the file a parse problem with its own stamps, no row.
	for _, q := range []string{
		`INSERT INTO memory_problems(path, mtime, size, code, detail, seen_at, ctime, ino)
			SELECT path, mtime, size, 'parse_error', 'memory: missing frontmatter (file must start with ---)', '', ctime, ino
			FROM memory_meta WHERE path = ?`,
		`DELETE FROM memory_meta WHERE path = ?`,
	} {
		if _, err := e.s.db.Exec(q, rel); err != nil {
			t.Fatal(err)
		}
	}
	e.reopen()
	if p := e.problemAt(rel); p == nil {
		t.Fatal("with step 22 applied the stale problem should stand: the test proves nothing")
	}
	downTo21(t, e)
	e.reopen()
	if p := e.problemAt(rel); p != nil {
		t.Fatalf("the problem survived the upgrade: %+v", p)
	}
	if m := e.get(handID(rel)); !strings.Contains(m.Body, "Kept as a problem") {
		t.Fatalf("not indexed at the upgrade: %+v", m)
	}
}

// A hand-written note archived or deleted keeps its id in the copy that is moved: a rebuild
// finds the archived copy under the same id (not as a file that lost one), and a restore from
// the trash finds the deleted one.
func TestHandNoteArchivedOrDeletedKeepsItsID(t *testing.T) {
	e := newEnv(t)
	e.put("global/user/archived-note.md", []byte("A note that will be archived.\n"))
	e.put("global/user/deleted-note.md", []byte("A note that will be deleted.\n"))
	e.reconcile()
	a, d := handID("global/user/archived-note.md"), handID("global/user/deleted-note.md")
	e.ok(Item{Op: OpArchive, ID: a})
	e.ok(Item{Op: OpDelete, ID: d})
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	if m := e.get(a); !m.Archived || m.Body != "A note that will be archived." {
		t.Fatalf("archived note after a rebuild: %+v", m)
	}
	if probs, _ := e.s.Problems(e.ctx); len(probs) != 0 {
		t.Fatalf("problems after a rebuild: %+v", probs)
	}
	e.ok(Item{Op: OpRestore, ID: d})
	if m := e.get(d); m.Body != "A note that will be deleted." || m.Path != "global/user/deleted-note.md" {
		t.Fatalf("restored note: %+v", m)
	}
	e.ok(Item{Op: OpRestore, ID: a})
	if m := e.get(a); m.Archived {
		t.Fatalf("restored archive: %+v", m)
	}
}
