package memory

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

func projWrite(wd, slug, body string) Item {
	return Item{Op: OpWrite, Scope: ScopeProject, Workdir: wd, Type: TypeProject, Slug: slug,
		Title: sp(slug), Body: sp(body), Confidence: ConfidenceMedium, SourceQuote: sp("we decided this")}
}

func (e *env) slugsIn(f Filter) []string {
	e.t.Helper()
	ms, _, err := e.s.List(e.ctx, f)
	if err != nil {
		e.t.Fatalf("List(%+v): %v", f, err)
	}
	var out []string
	for _, m := range ms {
		out = append(out, m.Slug)
	}
	sort.Strings(out)
	return out
}

// Two clones of one repository (SSH and HTTPS spellings of origin, different folders) are one
// project: what one writes, the other lists and finds; an unrelated project sees none of it.
func TestClonesShareProjectMemories(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	a := mkdir(t, base, "a", "proj")
	gitClone(t, a, "git@github.com:acme/widget.git")
	b := mkdir(t, base, "b", "checkout")
	gitClone(t, b, "https://github.com/acme/widget")
	other := mkdir(t, base, "c", "proj")
	gitClone(t, other, "git@github.com:acme/other.git")

	r := e.ok(projWrite(a, "deploy-steps", "Deploys go through the staging pipeline first"))
	key := resolve(t, a).Key
	if want := "projects/" + key + "/project/deploy-steps.md"; r.Path != want {
		t.Fatalf("path %s, want %s (the identity key, not the path key %s)", r.Path, want, ProjectKey(a))
	}
	if got := e.slugsIn(Filter{Workdir: b, NoDaily: true}); strings.Join(got, ",") != "deploy-steps" {
		t.Fatalf("clone b lists %v", got)
	}
	if !hasSlug(e.search("staging pipeline", Filter{Workdir: b}), "deploy-steps") {
		t.Fatal("clone b does not find the memory")
	}
	if got := e.slugsIn(Filter{Workdir: other, NoDaily: true}); len(got) != 0 {
		t.Fatalf("an unrelated project lists %v", got)
	}
	if hasSlug(e.search("staging pipeline", Filter{Workdir: other}), "deploy-steps") {
		t.Fatal("an unrelated project finds the memory")
	}
	// Written from b, it is the same slug of the same project.
	e.wantCode(projWrite(b, "deploy-steps", "again"), CodeAlreadyExists)
	if m, err := e.s.GetBySlug(e.ctx, ScopeProject, b, "", "deploy-steps"); err != nil || m.ID != r.ID {
		t.Fatalf("GetBySlug from b: %v %v", m, err)
	}
}

// A project whose memories an older build kept under the path key moves them to its
// identity key when opened: ids, archive and rejections follow, a file the identity folder
// already holds byte for byte is dropped, one it holds with other bytes is kept both ways.
func TestProjectMovesToItsIdentity(t *testing.T) {
	e := newEnv(t)
	wd := mkdir(t, t.TempDir(), "proj")
	pathKey := ProjectKey(wd)
	keep := e.ok(projWrite(wd, "keep-me", "A memory that simply moves"))
	same := e.ok(projWrite(wd, "same-bytes", "Already synced from the other machine"))
	clash := e.ok(projWrite(wd, "clash", "Our version of the decision"))
	old := e.ok(projWrite(wd, "old-note", "An archived note"))
	e.ok(Item{Op: OpArchive, ID: old.ID})
	e.ok(projWrite(wd, "rejected-one", "Something the person rejected"))
	e.ok(Item{Op: OpReject, Scope: ScopeProject, Workdir: wd, Slug: "rejected-one"})
	if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "claude-code", Session: "s1", Workdir: wd, Turns: turns(1, 2)}, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(keep.Path, "projects/"+pathKey+"/") {
		t.Fatalf("before the remote: %s", keep.Path)
	}

	gitClone(t, wd, "git@example.com:team/repo.git")
	p := resolve(t, wd)
	// What another machine's sync brought into the identity folder meanwhile.
	e.put("projects/"+p.Key+"/project/same-bytes.md", e.file(same.Path))
	theirs := bytes.Replace(e.file(clash.Path), []byte("Our version"), []byte("Their version"), 1)
	theirs = bytes.Replace(theirs, []byte(clash.ID), []byte("01J0000000000000000000THEM"), 1)
	e.put("projects/"+p.Key+"/project/clash.md", theirs)

	var moved []Applied
	e.reopen()
	e.s.OnApplied(func(a Applied) error { moved = append(moved, a); return nil })
	if e.exists("projects/" + pathKey) {
		t.Fatalf("the path-key folder is still there")
	}
	for _, r := range []ItemResult{keep, same} {
		m := e.get(r.ID)
		if m.Path != "projects/"+p.Key+"/project/"+m.Slug+".md" || m.ScopeKey() != p.Key {
			t.Errorf("%s: %s key %s", m.Slug, m.Path, m.ScopeKey())
		}
	}
	got := e.slugsIn(Filter{Scope: ScopeProject, Workdir: wd})
	if len(got) != 4 || got[0] != "clash" || !strings.HasPrefix(got[1], "clash-conflict-") || got[2] != "keep-me" || got[3] != "same-bytes" {
		t.Fatalf("project lists %v", got)
	}
	their := e.parsed("projects/" + p.Key + "/project/clash.md")
	if !strings.Contains(their.Body, "Their version") {
		t.Fatalf("the identity folder's version was overwritten: %q", their.Body)
	}
	cp := e.parsed("projects/" + p.Key + "/project/" + got[1] + ".md")
	if !strings.Contains(cp.Body, "Our version") || cp.Reviewed || cp.ID == clash.ID || cp.ID == their.ID ||
		len(cp.ConflictsWith) != 1 || cp.ConflictsWith[0] != "clash" {
		t.Fatalf("conflict copy %+v", cp)
	}
	if m, err := e.s.Get(e.ctx, cp.ID); err != nil || m.Reviewed {
		t.Fatalf("conflict copy indexed: %v %v", m, err)
	}
	archived := e.get(old.ID)
	if !archived.Archived || !strings.Contains(archived.Path, "/projects/"+p.Key+"/") || archived.ScopeKey() != p.Key {
		t.Fatalf("archived memory %s key %s", archived.Path, archived.ScopeKey())
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_problems`); n != 0 {
		t.Fatalf("%d problems after the move", n)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_rejections WHERE scope_key = ?`, p.Key); n != 1 {
		t.Fatalf("rejection did not follow: %d", n)
	}
	// The session's messages follow too: the project's extraction reads them by the new key.
	if ts, err := e.s.SessionTurnsIn(e.ctx, "claude-code", "s1", p.Key); err != nil || len(ts) != 2 {
		t.Fatalf("session messages did not follow: %+v %v", ts, err)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_audit_log WHERE op = 'project_move'`); n < 2 {
		t.Fatalf("%d project_move audit rows", n)
	}
	var movedTo, identity string
	_ = e.s.db.QueryRow(`SELECT moved_to FROM projects WHERE key = ?`, pathKey).Scan(&movedTo)
	_ = e.s.db.QueryRow(`SELECT identity FROM projects WHERE key = ?`, p.Key).Scan(&identity)
	if movedTo != p.Key || identity != "remote:example.com/team/repo" {
		t.Fatalf("projects table: moved_to %q identity %q", movedTo, identity)
	}
	// The index agrees with the moved files: a reconcile (the watcher's, after the renames)
	// finds nothing added, changed or removed, so nothing is reported as a hand edit.
	if rep := e.reconcile(); rep.Added+rep.Updated+rep.Removed != 0 || rep.ProblemsChanged {
		t.Fatalf("reconcile after the move: %+v", rep)
	}
	// The rejected slug stays rejected under the new key.
	e.wantCode(projWrite(wd, "rejected-one", "again"), CodeRejectedSlug)
	// A whole reindex agrees with what the move left.
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	if again := e.slugsIn(Filter{Scope: ScopeProject, Workdir: wd}); strings.Join(again, ",") != strings.Join(got, ",") {
		t.Fatalf("after reindex %v, before %v", again, got)
	}
	// The move ran at open, before a hook was attached: it is handed over when one is.
	if len(moved) != 1 || moved[0].Actor != ActorProject || !strings.Contains(moved[0].Ops[0], pathKey+" to "+p.Key) {
		t.Fatalf("history heard %+v", moved)
	}
}

// A remote added while a process runs moves the project on its next use, in one history
// change naming the old and new paths.
func TestProjectMoveAtRuntime(t *testing.T) {
	e := newEnv(t)
	wd := mkdir(t, t.TempDir(), "proj")
	r := e.ok(projWrite(wd, "runtime-move", "Moves when the remote appears"))
	var hooked []Applied
	e.s.OnApplied(func(a Applied) error { hooked = append(hooked, a); return nil })
	gitClone(t, wd, "https://example.com/team/live.git")
	e.clock.Advance(projectRecheck + time.Second)
	if got := e.slugsIn(Filter{Scope: ScopeProject, Workdir: wd}); len(got) != 0 {
		// List resolves without moving (it may run under the lock): the folder is not there yet.
		t.Logf("listed before the move: %v", got)
	}
	p, err := e.s.Projects().Resolve(wd)
	if err != nil || p.Kind != ProjectByRemote {
		t.Fatalf("Resolve: %+v %v", p, err)
	}
	m := e.get(r.ID)
	if m.ScopeKey() != p.Key || !e.exists(m.Path) {
		t.Fatalf("not moved: %s", m.Path)
	}
	if len(hooked) != 1 || hooked[0].Actor != ActorProject || len(hooked[0].Paths) != 2 {
		t.Fatalf("history heard %+v", hooked)
	}
	if got := e.slugsIn(Filter{Scope: ScopeProject, Workdir: wd}); strings.Join(got, ",") != "runtime-move" {
		t.Fatalf("after the move: %v", got)
	}
}

// A memory synced from another machine names that machine's workdir: it is the project's
// here by its folder's key, and the index shows this machine's workdir where it knows it.
func TestForeignWorkdirStaysVisible(t *testing.T) {
	e := newEnv(t)
	wd := mkdir(t, t.TempDir(), "here")
	gitClone(t, wd, "git@example.com:team/repo.git")
	p := resolve(t, wd)
	if _, err := e.s.Projects().Resolve(wd); err != nil { // this machine has used the project
		t.Fatal(err)
	}
	file := []byte("---\nid: 01J00000000000000000000SYN\nslug: from-a\ntitle: From machine A\nscope: project\n" +
		"workdir: /home/alice/src/repo\ntype: project\nconfidence: medium\nreviewed: true\n" +
		"created: 2024-05-01T10:00:00Z\nupdated: 2024-05-01T10:00:00Z\n---\n\nWritten on the other machine\n")
	e.put("projects/"+p.Key+"/project/from-a.md", file)
	e.reconcile()
	m := e.get("01J00000000000000000000SYN")
	if m.ScopeKey() != p.Key || m.Workdir != wd {
		t.Fatalf("synced memory: key %s workdir %q", m.ScopeKey(), m.Workdir)
	}
	if got := e.slugsIn(Filter{Workdir: wd, NoDaily: true}); strings.Join(got, ",") != "from-a" {
		t.Fatalf("visible here: %v", got)
	}
	if e.s.ProjectWorkdir(e.ctx, p.Key) != wd {
		t.Fatalf("recorded workdir %q", e.s.ProjectWorkdir(e.ctx, p.Key))
	}
	if !bytes.Equal(e.file("projects/"+p.Key+"/project/from-a.md"), file) {
		t.Fatal("the synced file was rewritten")
	}
	_ = os.Remove(filepath.Join(wd, ".git", "config"))
}

// A move that cannot happen (the identity folder is a link, which the store never writes
// through) leaves every memory where it was, and doctor names it with the command that moves
// it once the cause is gone.
func TestDoctorFindsAnUnmovedProject(t *testing.T) {
	e := newEnv(t)
	wd := mkdir(t, t.TempDir(), "proj")
	r := e.ok(projWrite(wd, "stays-put", "Kept by path until the move can run"))
	gitClone(t, wd, "git@example.com:team/blocked.git")
	p := resolve(t, wd)
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(e.s.Root(), "projects", p.Key)); err != nil {
		t.Fatal(err)
	}
	e.reopen()
	if m := e.get(r.ID); m.ScopeKey() != p.PathKey || !e.exists(m.Path) {
		t.Fatalf("the blocked move touched %s", m.Path)
	}
	rep, err := e.s.Doctor(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var found *Finding
	for i, f := range rep.Findings {
		if f.Code == "project_not_moved" {
			found = &rep.Findings[i]
		}
	}
	if found == nil || found.Count != 1 || found.Fix != "engram project "+shellQuote(wd) || found.Args["Identity"] != "example.com/team/blocked" {
		t.Fatalf("findings %+v", rep.Findings)
	}
	if err := os.Remove(filepath.Join(e.s.Root(), "projects", p.Key)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Project(wd); err != nil { // what `engram project DIR` does
		t.Fatal(err)
	}
	if m := e.get(r.ID); m.ScopeKey() != p.Key {
		t.Fatalf("not moved after the fix: %s", m.Path)
	}
	rep, _ = e.s.Doctor(e.ctx)
	for _, f := range rep.Findings {
		if f.Code == "project_not_moved" {
			t.Fatalf("still found after the fix: %+v", f)
		}
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("the move wrote through the link: %v", entries)
	}
}

// A memory deleted while its project was keyed by path comes back from the trash under the
// identity key the project moved to.
func TestTrashRestoreFollowsTheMove(t *testing.T) {
	e := newEnv(t)
	wd := mkdir(t, t.TempDir(), "proj")
	gone := e.ok(projWrite(wd, "deleted-early", "Deleted before the project had a remote"))
	e.ok(Item{Op: OpDelete, ID: gone.ID})
	e.ok(projWrite(wd, "still-here", "Keeps the path-key folder in use"))
	gitClone(t, wd, "git@example.com:team/repo.git")
	e.reopen()
	p := resolve(t, wd)
	r := e.ok(Item{Op: OpRestore, ID: gone.ID})
	if want := "projects/" + p.Key + "/project/deleted-early.md"; r.Path != want {
		t.Fatalf("restored to %s, want %s", r.Path, want)
	}
	if got := e.slugsIn(Filter{Scope: ScopeProject, Workdir: wd}); strings.Join(got, ",") != "deleted-early,still-here" {
		t.Fatalf("project lists %v", got)
	}
}
