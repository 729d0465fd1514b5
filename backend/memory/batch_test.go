package memory

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
)

func TestWriteCreatesFileAndIndexRow(t *testing.T) {
	e := newEnv(t)
	it := wr("prefers-tabs", "Prefers tabs", "The user indents with tabs, never spaces.")
	it.Tags = []string{"style", " style ", "", "editor"}
	it.Aliases = []string{"tabs"}
	it.Reasoning = sp("said it twice")
	r := e.ok(it)

	if _, err := ulid.ParseStrict(r.ID); err != nil {
		t.Fatalf("id %q is not a ULID: %v", r.ID, err)
	}
	if r.Path != "global/user/prefers-tabs.md" || r.Slug != "prefers-tabs" {
		t.Fatalf("path/slug = %q/%q", r.Path, r.Slug)
	}
	if r.AppliedConfidence != ConfidenceHigh || r.AutoDowngraded {
		t.Fatalf("confidence = %s downgraded=%v", r.AppliedConfidence, r.AutoDowngraded)
	}
	data := e.file(r.Path)
	if r.Version != Checksum(data) {
		t.Fatalf("result version %s != checksum of file %s", r.Version, Checksum(data))
	}
	fm := e.parsed(r.Path)
	want := &Memory{ID: r.ID, Slug: "prefers-tabs", Title: "Prefers tabs", Scope: ScopeGlobal, Type: TypeUser,
		Confidence: ConfidenceHigh, Reviewed: true, SourceQuote: "the user said so explicitly", Reasoning: "said it twice",
		Aliases: []string{"tabs"}, Tags: []string{"style", "editor"},
		Source:  Source{Kind: ActorUser, Session: "sess-1", Model: "model-x"},
		Created: baseTime, Updated: baseTime, Body: "The user indents with tabs, never spaces."}
	if !reflect.DeepEqual(fm, want) {
		t.Fatalf("file parses as\n%+v\nwant\n%+v", fm, want)
	}
	got := e.get(r.ID)
	if got.Version != r.Version || got.Body != want.Body || got.Path != r.Path || !got.Reviewed || got.Archived {
		t.Fatalf("index row = %+v", got)
	}
	if !got.Created.Equal(baseTime) {
		t.Fatalf("created = %v", got.Created)
	}
}

func TestUpdateMergeAndReplace(t *testing.T) {
	e := newEnv(t)
	w := wr("coffee", "Coffee", "Drinks coffee in the morning.")
	w.Tags = []string{"drink"}
	id := e.ok(w).ID
	e.clock.Advance(time.Hour)

	// merge appends new text and unions lists.
	r := e.ok(Item{Op: OpUpdate, ID: id, Body: sp("Takes it black."), Tags: []string{"morning", "drink"}})
	m := e.parsed(r.Path)
	if m.Body != "Drinks coffee in the morning.\n\nTakes it black." {
		t.Fatalf("merged body = %q", m.Body)
	}
	if !reflect.DeepEqual(m.Tags, []string{"drink", "morning"}) {
		t.Fatalf("merged tags = %v", m.Tags)
	}
	if !m.Updated.Equal(baseTime.Add(time.Hour)) || !m.Created.Equal(baseTime) {
		t.Fatalf("created/updated = %v/%v", m.Created, m.Updated)
	}
	// merging text already present changes nothing in the body.
	r = e.ok(Item{Op: OpUpdate, ID: id, Body: sp("Takes it black.")})
	if got := e.parsed(r.Path).Body; got != "Drinks coffee in the morning.\n\nTakes it black." {
		t.Fatalf("body after repeated merge = %q", got)
	}
	// replace swaps body and lists.
	r = e.ok(Item{Op: OpUpdate, ID: id, Mode: "replace", Title: sp("Tea now"), Body: sp("Switched to tea."), Tags: []string{"tea"}})
	m = e.parsed(r.Path)
	if m.Body != "Switched to tea." || m.Title != "Tea now" || !reflect.DeepEqual(m.Tags, []string{"tea"}) {
		t.Fatalf("after replace: title=%q body=%q tags=%v", m.Title, m.Body, m.Tags)
	}
	if m.ID != id {
		t.Fatalf("id changed: %s -> %s", id, m.ID)
	}
	// replace with an empty body is refused: a memory always has a body.
	e.wantCode(Item{Op: OpUpdate, ID: id, Mode: "replace", Body: sp("  ")}, CodeMissingBody)
	e.wantCode(Item{Op: OpUpdate, ID: id, Mode: "overwrite", Body: sp("x")}, CodeInvalidMode)
	if got := e.get(id).Body; got != "Switched to tea." {
		t.Fatalf("a failed update changed the index: %q", got)
	}
	// by slug within its scope works too.
	e.ok(Item{Op: OpUpdate, Slug: "coffee", Scope: ScopeGlobal, Body: sp("Green tea mostly.")})
	if got := e.get(id).Body; !strings.Contains(got, "Green tea mostly.") {
		t.Fatalf("update by slug did not land: %q", got)
	}
}

func TestUpdateEvidenceOnly(t *testing.T) {
	e := newEnv(t)
	w := wr("likes-jazz", "Likes jazz", "Listens to jazz while coding.")
	w.Confidence, w.SourceQuote = ConfidenceHigh, nil
	r := e.ok(w)
	if r.AppliedConfidence != ConfidenceLow || !r.AutoDowngraded {
		t.Fatalf("high without quote should land as low/downgraded, got %s/%v", r.AppliedConfidence, r.AutoDowngraded)
	}
	before := e.parsed(r.Path)

	r = e.ok(Item{Op: OpUpdate, ID: r.ID, Confidence: ConfidenceHigh, SourceQuote: sp("I always code to jazz")})
	if r.AppliedConfidence != ConfidenceHigh || r.AutoDowngraded {
		t.Fatalf("evidence update: got %s/%v", r.AppliedConfidence, r.AutoDowngraded)
	}
	after := e.parsed(r.Path)
	if after.Body != before.Body || after.Title != before.Title {
		t.Fatalf("evidence-only update touched text: %q/%q", after.Title, after.Body)
	}
	if after.Confidence != ConfidenceHigh || after.AutoDowngraded || after.SourceQuote != "I always code to jazz" {
		t.Fatalf("frontmatter after evidence update: %+v", after)
	}
	// weakening the quote downgrades again and says so.
	r = e.ok(Item{Op: OpUpdate, ID: r.ID, SourceQuote: sp("jazz")})
	if r.AppliedConfidence != ConfidenceMedium || !r.AutoDowngraded || !hasWarning(r, WarnDowngraded) {
		t.Fatalf("short quote: got %s/%v warnings=%v", r.AppliedConfidence, r.AutoDowngraded, r.Warnings)
	}
	if m := e.parsed(r.Path); m.Confidence != ConfidenceMedium || !m.AutoDowngraded {
		t.Fatalf("frontmatter: %s/%v", m.Confidence, m.AutoDowngraded)
	}
}

func TestUpdateTypeChangeMovesFile(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("use-pnpm", "Use pnpm", "Use pnpm, not npm."))
	r2 := e.ok(Item{Op: OpUpdate, ID: r.ID, Type: TypeFeedback})
	if r2.Path != "global/feedback/use-pnpm.md" || r2.ID != r.ID {
		t.Fatalf("after type change: path=%s id=%s", r2.Path, r2.ID)
	}
	if e.exists(r.Path) {
		t.Fatalf("old file %s still there", r.Path)
	}
	m := e.parsed(r2.Path)
	if m.ID != r.ID || m.Type != TypeFeedback {
		t.Fatalf("moved file: id=%s type=%s", m.ID, m.Type)
	}
	if got := e.get(r.ID); got.Path != r2.Path || got.Type != TypeFeedback {
		t.Fatalf("index: %s %s", got.Path, got.Type)
	}
	e.wantCode(Item{Op: OpUpdate, ID: r.ID, Type: "bogus"}, CodeInvalidType)
	e.wantCode(Item{Op: OpUpdate, ID: r.ID, Type: TypeDaily}, CodeInvalidType)
	if rep := e.reconcile(); rep.Added+rep.Updated+rep.Removed+rep.Problems != 0 {
		t.Fatalf("index disagreed with files after the move: %+v", rep)
	}
}

func TestUpdateNewSlugKeepsID(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("old-name", "Name", "Body text here."))
	e.ok(wr("taken-name", "Other", "Other body."))
	r2 := e.ok(Item{Op: OpUpdate, ID: r.ID, NewSlug: "new-name"})
	if r2.ID != r.ID || r2.Slug != "new-name" || r2.Path != "global/user/new-name.md" {
		t.Fatalf("rename result: %+v", r2)
	}
	if e.exists(r.Path) || !e.exists(r2.Path) {
		t.Fatal("rename left files in the wrong place")
	}
	if m := e.parsed(r2.Path); m.ID != r.ID || m.Slug != "new-name" {
		t.Fatalf("renamed file: id=%s slug=%s", m.ID, m.Slug)
	}
	if _, err := e.s.GetBySlug(e.ctx, ScopeGlobal, "", "", "old-name"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("old slug still resolves: %v", err)
	}
	if m, err := e.s.GetBySlug(e.ctx, ScopeGlobal, "", "", "new-name"); err != nil || m.ID != r.ID {
		t.Fatalf("new slug: %v %v", m, err)
	}
	e.wantCode(Item{Op: OpUpdate, ID: r.ID, NewSlug: "taken-name"}, CodeAlreadyExists)
	e.wantCode(Item{Op: OpUpdate, ID: r.ID, NewSlug: "Bad Slug"}, CodeInvalidSlug)
	if !e.exists(r2.Path) {
		t.Fatal("failed renames moved the file")
	}
}

func TestDeleteMovesToTrash(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("to-delete", "Delete me", "Soon gone."))
	content := e.file(r.Path)
	d := e.ok(Item{Op: OpDelete, Slug: "to-delete", Scope: ScopeGlobal})
	if d.ID != r.ID || !strings.HasPrefix(d.Path, ".trash/") {
		t.Fatalf("delete result %+v", d)
	}
	if e.exists(r.Path) {
		t.Fatal("file still in place")
	}
	if got := e.file(d.Path); string(got) != string(content) {
		t.Fatal("trashed file differs from the original")
	}
	if _, err := e.s.Get(e.ctx, r.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after delete: %v", err)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_meta WHERE id = ?`, r.ID); n != 0 {
		t.Fatalf("index row still there (%d)", n)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_fts`) + e.count(`SELECT COUNT(*) FROM memory_fts_tri`); n != 0 {
		t.Fatalf("fts rows left behind: %d", n)
	}
	e.wantCode(Item{Op: OpDelete, ID: r.ID}, CodeNotFound)
	// a trashed file is not a memory: a reconcile must not bring it back.
	if rep := e.reconcile(); rep.Added != 0 {
		t.Fatalf("reconcile resurrected trash: %+v", rep)
	}
}

func TestAccept(t *testing.T) {
	e := newEnv(t)
	w := wr("likes-go", "Likes Go", "Writes services in Go.")
	r := e.batch(ActorExtractor, w).Results[0]
	if !r.OK {
		t.Fatal(r.Message)
	}
	if m := e.parsed(r.Path); m.Reviewed {
		t.Fatal("extractor write is reviewed")
	}
	a := e.ok(Item{Op: OpAccept, ID: r.ID})
	if a.ID != r.ID || a.Version == r.Version {
		t.Fatalf("accept result %+v", a)
	}
	if m := e.parsed(r.Path); !m.Reviewed {
		t.Fatal("accept did not mark the file reviewed")
	}
	if !e.get(r.ID).Reviewed {
		t.Fatal("accept did not mark the index reviewed")
	}
	// accepting again is a no-op that still succeeds.
	if a2 := e.ok(Item{Op: OpAccept, ID: r.ID}); a2.Version != a.Version {
		t.Fatal("second accept rewrote the file")
	}
	e.wantCode(Item{Op: OpAccept, ID: ulid.Make().String()}, CodeNotFound)
}

func TestRejectRememberedSevenDays(t *testing.T) {
	e := newEnv(t)
	r := e.batch(ActorExtractor, wr("bad-guess", "Wrong", "The user hates cats.")).Results[0]
	rj := e.ok(Item{Op: OpReject, ID: r.ID})
	if !strings.HasPrefix(rj.Path, ".trash/") || e.exists(r.Path) {
		t.Fatalf("reject did not trash the file: %+v", rj)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_rejections WHERE slug = 'bad-guess'`); n != 1 {
		t.Fatalf("rejections = %d", n)
	}
	again := wr("bad-guess", "Wrong", "The user hates cats.")
	res := e.batch(ActorExtractor, again).Results[0]
	if res.OK || res.Code != CodeRejectedSlug {
		t.Fatalf("write of rejected slug: ok=%v code=%s", res.OK, res.Code)
	}
	// the rejection is per scope instance.
	other := again
	other.Scope, other.Agent = ScopeAgent, "claude"
	if res := e.batch(ActorExtractor, other).Results[0]; !res.OK {
		t.Fatalf("same slug in another scope: %s", res.Code)
	}
	// still refused just before the 7 days are up.
	e.clock.Advance(RejectionRemember - time.Minute)
	if res := e.batch(ActorExtractor, again).Results[0]; res.Code != CodeRejectedSlug {
		t.Fatalf("6d23h59m later: %s", res.Code)
	}
	// the user may override.
	ov := again
	ov.Slug, ov.OverrideReject = "bad-guess", true
	if res := e.batch(ActorUser, ov).Results[0]; !res.OK {
		t.Fatalf("override_reject: %s", res.Code)
	}
	e.ok(Item{Op: OpDelete, Slug: "bad-guess", Scope: ScopeGlobal})
	// after 7 days the slug is free again.
	e.clock.Advance(2 * time.Minute)
	if res := e.batch(ActorExtractor, again).Results[0]; !res.OK {
		t.Fatalf("7 days later: %s %s", res.Code, res.Message)
	}
}

func TestRejectionExpiryWithinTheSecond(t *testing.T) {
	// Timestamps compared as text must order like the instants they name; a fraction printed
	// with fewer digits ("…00.5Z") must not sort after a later one ("…00.55Z").
	e := newEnv(t)
	e.clock.Set(baseTime.Add(500 * time.Millisecond))
	r := e.ok(wr("half-second", "x", "some body"))
	e.ok(Item{Op: OpReject, ID: r.ID})
	e.clock.Set(baseTime.Add(RejectionRemember + 550*time.Millisecond))
	if res := e.do(wr("half-second", "x", "some body")); !res.OK {
		t.Fatalf("rejection expired 50ms ago but write refused: %s", res.Code)
	}
}

func TestListNewestFirstWithinOneSecond(t *testing.T) {
	e := newEnv(t)
	e.clock.Set(baseTime.Add(100 * time.Millisecond))
	e.ok(wr("first-one", "first", "body one"))
	e.clock.Set(baseTime.Add(120 * time.Millisecond))
	e.ok(wr("second-one", "second", "body two"))
	e.clock.Set(baseTime.Add(123 * time.Millisecond))
	e.ok(wr("third-one", "third", "body three"))
	list, total, err := e.s.List(e.ctx, Filter{})
	if err != nil || total != 3 {
		t.Fatalf("List: %v total=%d", err, total)
	}
	var got []string
	for _, m := range list {
		got = append(got, m.Slug)
	}
	if want := []string{"third-one", "second-one", "first-one"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("List order = %v, want %v", got, want)
	}
}

func TestArchiveAndRestore(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("old-project", "Old", "An old project note."))
	a := e.ok(Item{Op: OpArchive, ID: r.ID})
	if a.Path != ".archive/2024/global/user/old-project.md" {
		t.Fatalf("archive path %s", a.Path)
	}
	if e.exists(r.Path) || !e.exists(a.Path) {
		t.Fatal("archive did not move the file")
	}
	if list, _, _ := e.s.List(e.ctx, Filter{}); len(list) != 0 {
		t.Fatalf("archived entry listed as live: %d", len(list))
	}
	if list, _, _ := e.s.List(e.ctx, Filter{Archived: true}); len(list) != 1 || !list[0].Archived {
		t.Fatalf("archived list = %v", list)
	}
	e.wantCode(Item{Op: OpUpdate, ID: r.ID, Body: sp("more")}, CodeNotFound)
	// archiving twice is harmless.
	if a2 := e.ok(Item{Op: OpArchive, ID: r.ID}); a2.Path != a.Path {
		t.Fatalf("second archive moved it to %s", a2.Path)
	}
	// archive survives a reindex (the location says it is archived).
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	if m := e.get(r.ID); !m.Archived || m.Path != a.Path {
		t.Fatalf("after reindex: archived=%v path=%s", m.Archived, m.Path)
	}
	rs := e.ok(Item{Op: OpRestore, ID: r.ID})
	if rs.Path != r.Path || !e.exists(r.Path) || e.exists(a.Path) {
		t.Fatalf("restore: %+v", rs)
	}
	if m := e.get(r.ID); m.Archived || m.Body != "An old project note." || m.Version != Checksum(e.file(r.Path)) {
		t.Fatalf("restored row: %+v", m)
	}
	e.wantCode(Item{Op: OpRestore, ID: r.ID}, CodeNotArchived)
	e.ok(Item{Op: OpUpdate, ID: r.ID, Body: sp("Revived.")})
}

func TestRestoreArchivedBySlug(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("by-slug", "Old", "Archived then restored by slug."))
	e.ok(Item{Op: OpArchive, Slug: "by-slug", Scope: ScopeGlobal})
	rs := e.ok(Item{Op: OpRestore, Slug: "by-slug", Scope: ScopeGlobal})
	if rs.ID != r.ID || rs.Path != r.Path {
		t.Fatalf("restore by slug: %+v", rs)
	}
}

func TestRestoreFromTrashByID(t *testing.T) {
	e := newEnv(t)
	wd := t.TempDir()
	items := []Item{
		wr("global-one", "G", "global body"),
		{Op: OpWrite, Scope: ScopeProject, Workdir: wd, Type: TypeProject, Slug: "proj-one", Title: sp("P"), Body: sp("project body")},
		{Op: OpWrite, Scope: ScopeAgent, Agent: "claude", Type: TypeFeedback, Slug: "agent-one", Title: sp("A"), Body: sp("agent body")},
	}
	for _, it := range items {
		r := e.ok(it)
		orig := e.file(r.Path)
		e.clock.Advance(time.Second)
		e.ok(Item{Op: OpDelete, ID: r.ID})
		// a newer memory with the same slug is trashed after it: restore must pick by id.
		later := it
		later.Body = sp("a later, different body")
		r2 := e.ok(later)
		e.clock.Advance(time.Second)
		e.ok(Item{Op: OpDelete, ID: r2.ID})
		e.clock.Advance(time.Second)
		rs := e.ok(Item{Op: OpRestore, ID: r.ID})
		if rs.Path != r.Path || rs.ID != r.ID {
			t.Fatalf("%s: restore result %+v, want path %s", it.Slug, rs, r.Path)
		}
		if got := e.file(r.Path); string(got) != string(orig) {
			t.Fatalf("%s: restored bytes differ", it.Slug)
		}
		m := e.get(r.ID)
		if m.Scope != it.Scope || m.Slug != it.Slug || m.Archived || m.Version != Checksum(orig) {
			t.Fatalf("%s: restored row %+v", it.Slug, m)
		}
		if it.Scope == ScopeProject && m.Workdir == "" {
			t.Fatalf("%s: workdir lost", it.Slug)
		}
		e.wantCode(Item{Op: OpRestore, ID: r2.ID}, CodeAlreadyExists)
	}
	e.wantCode(Item{Op: OpRestore, ID: ulid.Make().String()}, CodeNotInTrash)
	// a live memory with the slug blocks restoring the trashed one.
	r := e.ok(wr("clash", "C", "first"))
	e.ok(Item{Op: OpDelete, ID: r.ID})
	e.ok(wr("clash", "C", "second"))
	e.wantCode(Item{Op: OpRestore, ID: r.ID}, CodeAlreadyExists)
}

func TestRestoreFromTrashAgentWithUnderscore(t *testing.T) {
	e := newEnv(t)
	for _, agent := range []string{"my_agent", "a__b", "x_"} {
		r := e.ok(Item{Op: OpWrite, Scope: ScopeAgent, Agent: agent, Type: TypeUser, Slug: "note-one", Title: sp("t"), Body: sp("b")})
		e.ok(Item{Op: OpDelete, ID: r.ID})
		e.clock.Advance(time.Second)
		rs := e.do(Item{Op: OpRestore, ID: r.ID})
		if !rs.OK || rs.Path != r.Path {
			t.Fatalf("agent %q: restore from trash: ok=%v code=%s path=%s want %s", agent, rs.OK, rs.Code, rs.Path, r.Path)
		}
	}
}

func TestArchiveDailyRefused(t *testing.T) {
	e := newEnv(t)
	r := e.ok(Item{Op: OpAppendDaily, Text: "had lunch"})
	e.wantCode(Item{Op: OpArchive, ID: r.ID}, CodeDailyReadOnly)
	e.wantCode(Item{Op: OpUpdate, ID: r.ID, Body: sp("x")}, CodeDailyReadOnly)
	e.wantCode(Item{Op: OpWrite, Scope: ScopeGlobal, Type: TypeDaily, Slug: "2024-05-14", Title: sp("d"), Body: sp("b")}, CodeDailyReadOnly)
}

func TestArchiveRefusesUnreconciledEdit(t *testing.T) {
	// Archiving must not carry stale index text along with a file that was edited by hand:
	// the index would keep the old body with the new mtime and never notice the edit.
	e := newEnv(t)
	r := e.ok(wr("hand-edited", "T", "original text"))
	e.editByHand(r.Path, func(m *Memory) { m.Body = "edited by hand" })
	e.wantCode(Item{Op: OpArchive, ID: r.ID}, CodeVersionConflict)
	e.reconcile()
	a := e.ok(Item{Op: OpArchive, ID: r.ID})
	if got := e.get(r.ID); got.Body != "edited by hand" || got.Version != Checksum(e.file(a.Path)) {
		t.Fatalf("archived row: body=%q", got.Body)
	}
}

func TestWriteNeverClobbersUnindexedFile(t *testing.T) {
	// A file that fails to parse is left untouched — even when a writer picks its slug.
	e := newEnv(t)
	broken := []byte("---\nid: [unclosed\n---\nmy precious notes\n")
	e.put("global/user/precious.md", broken)
	e.reconcile()
	r := e.do(wr("precious", "P", "new text"))
	if r.OK {
		t.Fatal("write over an unparsable file succeeded")
	}
	if got := e.file("global/user/precious.md"); string(got) != string(broken) {
		t.Fatalf("file was rewritten: %q", got)
	}
}

// An archive whose folder cannot be searched (.archive is a file here; a folder another user
// owns does the same) fails the item with an error; its name search took any answer but "not
// there" for a name in use and spun for ever, holding every process's writer lock.
func TestArchiveIntoAnUnusableFolderFails(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("old-project", "Old", "An old project note."))
	if err := os.RemoveAll(filepath.Join(e.s.Root(), ".archive")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.s.Root(), ".archive"), []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan ItemResult, 1)
	go func() {
		res, err := e.s.ApplyBatch(e.ctx, Batch{Items: []Item{{Op: OpArchive, ID: r.ID}}, Actor: ActorUser})
		if err != nil || len(res.Results) != 1 {
			done <- ItemResult{Code: "apply failed"}
			return
		}
		done <- res.Results[0]
	}()
	select {
	case got := <-done:
		if got.OK {
			t.Fatalf("archive into a file succeeded: %+v", got)
		}
	case <-time.After(time.Minute):
		t.Fatal("archive into a file never returned")
	}
	if !e.exists(r.Path) {
		t.Fatal("the memory left its place although the archive failed")
	}
}

// A delete that names the version it saw (the organizer's merge does) refuses a file edited by
// hand since and not yet reindexed: the merge never took the edit in, and trashing the file
// would bury it. A delete that names no version takes the file as it is, into the trash.
func TestDeleteAtAVersionRefusesUnreconciledEdit(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("merge-source", "T", "original text"))
	e.editByHand(r.Path, func(m *Memory) { m.Body = "original text, and a sentence added by hand" })
	e.wantCode(Item{Op: OpDelete, ID: r.ID, ExpectedVersion: r.Version}, CodeVersionConflict)
	if !e.exists(r.Path) {
		t.Fatal("the hand-edited file left its place")
	}
	d := e.ok(Item{Op: OpDelete, ID: r.ID})
	if !strings.Contains(string(e.file(d.Path)), "added by hand") {
		t.Fatal("the trash lost the hand edit")
	}
}
