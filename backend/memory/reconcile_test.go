package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
)

// handFile is a memory file as a person would write one in an editor.
func handFile(id, title, body string) []byte {
	return []byte("---\nid: " + id + "\ntitle: " + title + "\nconfidence: high\nreviewed: true\n---\n\n" + body + "\n")
}

func TestReconcileNewEditDelete(t *testing.T) {
	e := newEnv(t)
	kept := e.ok(wr("kept-one", "Kept", "stays as it is"))

	// a new file.
	id := ulid.Make().String()
	e.put("global/reference/hand-made.md", handFile(id, "Hand made", "written in vim: quokka"))
	rep := e.reconcile()
	if rep.Added != 1 || rep.Updated != 0 || rep.Removed != 0 || rep.Problems != 0 {
		t.Fatalf("after new file: %+v", rep)
	}
	m := e.get(id)
	if m.Slug != "hand-made" || m.Type != TypeReference || m.Scope != ScopeGlobal || m.Title != "Hand made" || m.Body != "written in vim: quokka" {
		t.Fatalf("hand-made row %+v", m)
	}
	if !hasSlug(e.search("quokka", Filter{}), "hand-made") {
		t.Fatal("new file not searchable")
	}
	// a second reconcile finds nothing to do.
	if rep := e.reconcile(); rep.Added+rep.Updated+rep.Removed != 0 || rep.Unchanged != 2 {
		t.Fatalf("idle reconcile: %+v", rep)
	}

	// an edit.
	e.put("global/reference/hand-made.md", handFile(id, "Hand made", "edited: wombat"))
	rep = e.reconcile()
	if rep.Updated != 1 || rep.Added != 0 {
		t.Fatalf("after edit: %+v", rep)
	}
	if got := e.get(id); got.Body != "edited: wombat" || got.Version != Checksum(e.file("global/reference/hand-made.md")) {
		t.Fatalf("edited row %+v", got)
	}
	if hasSlug(e.search("quokka", Filter{}), "hand-made") || !hasSlug(e.search("wombat", Filter{}), "hand-made") {
		t.Fatal("search did not follow the edit")
	}
	// the app can update the hand-edited file now.
	e.ok(Item{Op: OpUpdate, ID: id, Body: sp("and from the app")})

	// a deletion.
	if err := os.Remove(filepath.Join(e.s.Root(), "global/reference/hand-made.md")); err != nil {
		t.Fatal(err)
	}
	rep = e.reconcile()
	if rep.Removed != 1 {
		t.Fatalf("after delete: %+v", rep)
	}
	if _, err := e.s.Get(e.ctx, id); err == nil {
		t.Fatal("deleted file still indexed")
	}
	if len(e.search("wombat", Filter{})) != 0 {
		t.Fatal("deleted file still searchable")
	}
	if e.get(kept.ID).Version != kept.Version {
		t.Fatal("reconcile disturbed an untouched memory")
	}

	// a file moved by hand to another type folder keeps its id and follows the folder.
	e.put("global/user/moved.md", handFile(ulid.Make().String(), "Moved", "moving"))
	e.reconcile()
	if err := os.MkdirAll(filepath.Join(e.s.Root(), "global/feedback"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(e.s.Root(), "global/user/moved.md"), filepath.Join(e.s.Root(), "global/feedback/moved.md")); err != nil {
		t.Fatal(err)
	}
	e.reconcile()
	m2, err := e.s.GetBySlug(e.ctx, ScopeGlobal, "", "", "moved")
	if err != nil || m2.Type != TypeFeedback || m2.Path != "global/feedback/moved.md" {
		t.Fatalf("moved file: %+v %v", m2, err)
	}
}

func TestReconcileOnOpen(t *testing.T) {
	e := newEnv(t)
	e.s.Close()
	id := ulid.Make().String()
	e.put("agents/claude/feedback/offline-edit.md", handFile(id, "Offline", "written while no Engram ran"))
	e.s = e.open()
	m := e.get(id)
	if m.Scope != ScopeAgent || m.Agent != "claude" || m.Type != TypeFeedback {
		t.Fatalf("file added while closed: %+v", m)
	}
}

func TestUnparsableFilesReportedAndUntouched(t *testing.T) {
	e := newEnv(t)
	good := ulid.Make().String()
	cases := []struct {
		name string
		rel  string
		data []byte
		code string
	}{
		{"only a delimiter", "global/user/no-header.md", []byte("---"), CodeParseError},
		{"broken yaml", "global/user/broken-yaml.md", []byte("---\nid: [unclosed\ntitle: x\n---\nbody\n"), CodeParseError},
		{"invalid utf8", "global/user/bad-bytes.md", append([]byte("---\nid: "+ulid.Make().String()+"\n---\n\n"), 0xff, 0xfe, 'x', '\n'), CodeParseError},
		{"unterminated", "global/user/unterminated.md", []byte("---\nid: abc\ntitle: x\n"), CodeParseError},
		{"unknown field type", "global/user/no-id.md", []byte("---\ntitle: [x, y]\n---\nbody\n"), CodeParseError},
		{"bad confidence", "global/user/bad-conf.md", []byte("---\nid: abc\nconfidence: certain\n---\nbody\n"), CodeParseError},
		{"bad slug in name", "global/user/Bad_Name.md", handFile(ulid.Make().String(), "x", "y"), "unrecognized_path"},
		{"unknown type folder", "global/notes/some-note.md", handFile(ulid.Make().String(), "x", "y"), "unrecognized_path"},
		{"stray at root", "README.md", []byte("# readme\n"), "unrecognized_path"},
	}
	for _, tc := range cases {
		e.put(tc.rel, tc.data)
	}
	e.put("global/user/fine.md", handFile(good, "Fine", "a good file next to bad ones"))
	// files the walk must ignore altogether.
	e.put("global/user/.tmp-123456", []byte("half a write"))
	e.put("global/user/.tmp-99.md", []byte("half a write"))
	e.put("global/user/notes.txt", []byte("not markdown"))
	e.put(".trash/x.md", []byte("garbage in trash"))
	e.put(".snapshots/x.md", []byte("garbage in snapshots"))

	rep := e.reconcile()
	if rep.Problems != len(cases) || rep.Added != 1 {
		t.Fatalf("reconcile: %+v", rep)
	}
	probs, err := e.s.Problems(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]Problem{}
	for _, p := range probs {
		byPath[p.Path] = p
	}
	if len(probs) != len(cases) {
		t.Fatalf("problems %+v", probs)
	}
	for _, tc := range cases {
		p, ok := byPath[tc.rel]
		if !ok || p.Code != tc.code || p.Detail == "" {
			t.Errorf("%s: problem %+v, want code %s", tc.name, p, tc.code)
		}
	}
	doc, err := e.s.Doctor(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if doc.OK || len(doc.Problems) != len(cases) || doc.Integrity != "ok" || !doc.FTSConsistent || doc.Memories != 1 {
		t.Fatalf("doctor %+v", doc)
	}
	// reconcile again, reindex, reopen: the bytes are never touched.
	e.reconcile()
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	e.reopen()
	for _, tc := range cases {
		if got := e.file(tc.rel); string(got) != string(tc.data) {
			t.Errorf("%s: bytes changed", tc.name)
		}
	}
	if probs, _ := e.s.Problems(e.ctx); len(probs) != len(cases) {
		t.Fatalf("problems after reindex/reopen: %d", len(probs))
	}

	// fixing a file later indexes it and clears its problem.
	fixedID := ulid.Make().String()
	e.put("global/user/broken-yaml.md", handFile(fixedID, "Fixed", "repaired by hand: axolotl"))
	e.reconcile()
	if m := e.get(fixedID); m.Slug != "broken-yaml" {
		t.Fatalf("fixed file row %+v", m)
	}
	if !hasSlug(e.search("axolotl", Filter{}), "broken-yaml") {
		t.Fatal("fixed file not searchable")
	}
	if probs, _ := e.s.Problems(e.ctx); len(probs) != len(cases)-1 {
		t.Fatalf("problems after a fix: %d", len(probs))
	}
	// a problem file that is deleted drops out of the report.
	os.Remove(filepath.Join(e.s.Root(), "README.md"))
	e.reconcile()
	if probs, _ := e.s.Problems(e.ctx); len(probs) != len(cases)-2 {
		t.Fatalf("problems after removing one: %+v", probs)
	}
}

func TestIndexedFileBreaksAndRecovers(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("fragile", "Fragile", "will be broken by hand"))
	orig := e.file(r.Path)
	broken := append([]byte("oops\n"), orig...)
	e.put(r.Path, broken)
	rep := e.reconcile()
	if rep.Problems != 1 {
		t.Fatalf("reconcile: %+v", rep)
	}
	if _, err := e.s.Get(e.ctx, r.ID); err == nil {
		t.Fatal("a broken file stays indexed with stale text")
	}
	// writers keep off it.
	e.wantCode(Item{Op: OpUpdate, ID: r.ID, Body: sp("x")}, CodeNotFound)
	if w := e.do(wr("fragile", "F", "new")); w.OK {
		t.Fatal("write over a broken file succeeded")
	}
	if got := e.file(r.Path); string(got) != string(broken) {
		t.Fatal("broken file was touched")
	}
	e.put(r.Path, orig)
	e.reconcile()
	if m := e.get(r.ID); m.Body != "will be broken by hand" {
		t.Fatalf("recovered row %+v", m)
	}
	if probs, _ := e.s.Problems(e.ctx); len(probs) != 0 {
		t.Fatalf("problem kept after repair: %+v", probs)
	}
}

func TestDuplicateIDReported(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("original", "Original", "the first copy"))
	e.put("global/user/copy-of-original.md", e.file(r.Path))
	rep := e.reconcile()
	if rep.Problems != 1 {
		t.Fatalf("reconcile: %+v", rep)
	}
	probs, _ := e.s.Problems(e.ctx)
	if len(probs) != 1 || probs[0].Code != "duplicate_id" || probs[0].Path != "global/user/copy-of-original.md" {
		t.Fatalf("problems %+v", probs)
	}
	if m := e.get(r.ID); m.Path != r.Path {
		t.Fatalf("the original lost its row: %+v", m)
	}
}

func TestReindexKeepsHistory(t *testing.T) {
	e := newEnv(t)
	a := e.ok(wr("keep-me", "Keep", "alpha"))
	b := e.batch(ActorExtractor, wr("reject-me", "Reject", "beta")).Results[0]
	e.ok(Item{Op: OpReject, ID: b.ID})
	e.ok(Item{Op: OpAppendDaily, Text: "journal"})
	if _, err := e.s.db.Exec(`INSERT INTO memory_access(id, access_count, last_access) VALUES(?, 3, ?)`, a.ID, "2024-05-14T00:00:00Z"); err != nil {
		t.Fatal(err)
	}
	auditBefore := e.count(`SELECT COUNT(*) FROM memory_audit_log`)
	rep, err := e.s.Reindex(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added != 2 || rep.Problems != 0 {
		t.Fatalf("reindex: %+v", rep)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_audit_log`); n != auditBefore {
		t.Fatalf("audit rows %d -> %d", auditBefore, n)
	}
	if n := e.count(`SELECT access_count FROM memory_access WHERE id = ?`, a.ID); n != 3 {
		t.Fatalf("access count %d", n)
	}
	if res := e.batch(ActorExtractor, wr("reject-me", "Reject", "beta")).Results[0]; res.Code != CodeRejectedSlug {
		t.Fatalf("rejection forgotten by reindex: %s", res.Code)
	}
	if m := e.get(a.ID); m.Body != "alpha" || m.Version != a.Version {
		t.Fatalf("row after reindex %+v", m)
	}
	if !hasSlug(e.search("alpha", Filter{}), "keep-me") {
		t.Fatal("not searchable after reindex")
	}
	doc, err := e.s.Doctor(e.ctx)
	if err != nil || !doc.OK || doc.TrashFiles != 1 {
		t.Fatalf("doctor after reindex %+v %v", doc, err)
	}
}

func TestReconcilePaths(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("path-one", "One", "first"))
	e.editByHand(r.Path, func(m *Memory) { m.Body = "changed by hand: narwhal" })
	newID := ulid.Make().String()
	e.put("global/user/path-two.md", handFile(newID, "Two", "second"))
	rep, err := e.s.ReconcilePaths(e.ctx, []string{"global/user/path-two.md", r.Path, r.Path, "global/user/gone.md"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added != 1 || rep.Updated != 1 {
		t.Fatalf("ReconcilePaths: %+v", rep)
	}
	if e.get(r.ID).Body != "changed by hand: narwhal" || e.get(newID).Slug != "path-two" {
		t.Fatal("ReconcilePaths did not index the changes")
	}
}

func TestWatcherPicksUpExternalEdits(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("watched", "Watched", "before the edit"))
	ctx, cancel := context.WithCancel(e.ctx)
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- e.s.Watch(ctx, ready) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Watch: %v", err)
		}
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("Watch ended early: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("watcher never became ready")
	}

	eventually := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("never happened: %s", what)
			}
			time.Sleep(25 * time.Millisecond)
		}
	}

	// an edit of an existing file, written the way editors do (temp file + rename).
	m := e.parsed(r.Path)
	m.Body = "after the edit: capybara"
	data, _ := Render(m)
	tmp := filepath.Join(e.s.Root(), "global/user/.watched.md.swp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(e.s.Root(), r.Path)); err != nil {
		t.Fatal(err)
	}
	eventually("edit searchable", func() bool { return hasSlug(e.search("capybara", Filter{}), "watched") })

	// a new file in a folder that did not exist when the watch started.
	id := ulid.Make().String()
	wd := t.TempDir()
	key := ProjectKey(mustCanon(t, wd))
	e.put("projects/"+key+"/project/new-folder.md", []byte("---\nid: "+id+"\nworkdir: "+mustCanon(t, wd)+"\n---\nplatypus\n"))
	eventually("new file in new folder searchable", func() bool { return hasSlug(e.search("platypus", Filter{}), "new-folder") })
	if got := e.get(id); got.Workdir != mustCanon(t, wd) || got.Scope != ScopeProject {
		t.Fatalf("watched project row %+v", got)
	}

	// an in-place edit (truncate + write).
	e.put("projects/"+key+"/project/new-folder.md", []byte("---\nid: "+id+"\n---\nplatypus and echidna\n"))
	eventually("in-place edit searchable", func() bool { return hasSlug(e.search("echidna", Filter{}), "new-folder") })

	// a deletion.
	if err := os.Remove(filepath.Join(e.s.Root(), r.Path)); err != nil {
		t.Fatal(err)
	}
	eventually("deletion noticed", func() bool { _, err := e.s.Get(e.ctx, r.ID); return err != nil })

	// a broken edit becomes a problem, and the app's own writes still work meanwhile.
	e.put("global/user/broken-watch.md", []byte("---\nid: [unclosed\n---\nno header"))
	eventually("problem reported", func() bool {
		probs, _ := e.s.Problems(e.ctx)
		return len(probs) == 1 && probs[0].Path == "global/user/broken-watch.md"
	})
	w := e.ok(wr("written-while-watching", "W", "the app writes too"))
	if !strings.HasPrefix(w.Path, "global/") {
		t.Fatal(w.Path)
	}
}

func mustCanon(t *testing.T, dir string) string {
	t.Helper()
	c, err := CanonicalWorkdir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestHandMadeProjectFileWithoutWorkdir(t *testing.T) {
	// A project file whose workdir the index does not know (written by hand, or the index was
	// rebuilt on another machine) still belongs to the project its folder names.
	e := newEnv(t)
	key := "0123456789abcdef"
	id := ulid.Make().String()
	e.put("projects/"+key+"/project/orphan.md", handFile(id, "Orphan", "no workdir in the header"))
	e.reconcile()
	m := e.get(id)
	if m.Scope != ScopeProject || m.ScopeKey() != key {
		t.Fatalf("scope %s key %q, want project %s", m.Scope, m.ScopeKey(), key)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_meta WHERE id = ? AND scope_key = ?`, id, key); n != 1 {
		t.Fatal("index row has the wrong scope key")
	}
	// it can be updated, and stays where it is.
	r := e.ok(Item{Op: OpUpdate, ID: id, Body: sp("updated from the app")})
	if r.Path != "projects/"+key+"/project/orphan.md" {
		t.Fatalf("update moved it to %s", r.Path)
	}
	q, _ := e.s.Quota(e.ctx)
	found := false
	for _, sq := range q.Scopes {
		if sq.Scope == ScopeProject && sq.Key == key && sq.Used == 1 {
			found = true
		}
	}
	if !found {
		t.Fatalf("quota does not show the project: %+v", q.Scopes)
	}
	// trash and back: it returns to its own folder.
	e.ok(Item{Op: OpDelete, ID: id})
	if rs := e.ok(Item{Op: OpRestore, ID: id}); rs.Path != r.Path {
		t.Fatalf("restored to %s, want %s", rs.Path, r.Path)
	}
	// after a full rebuild too.
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	if m := e.get(id); m.ScopeKey() != key || m.Path != r.Path {
		t.Fatalf("after reindex: key %q path %s", m.ScopeKey(), m.Path)
	}
}
