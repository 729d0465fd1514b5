package memory

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// linkWorktree makes wt a linked worktree of repo as `git worktree add` does: wt/.git is a file
// naming repo/.git/worktrees/<name>, whose commondir leads back to repo/.git and whose gitdir
// (git's back-link) names wt/.git. back is what the back-link names ("" to leave it out).
func linkWorktree(t *testing.T, repo, wt, name, back string) {
	t.Helper()
	admin := filepath.Join(repo, ".git", "worktrees", name)
	if err := os.MkdirAll(admin, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(wt, ".git"):         "gitdir: " + admin + "\n",
		filepath.Join(admin, "commondir"): "../..\n",
	}
	if back != "" {
		files[filepath.Join(admin, "gitdir")] = back + "\n"
	}
	for name, data := range files {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A git remote needs no trust: two clones of one repository (SSH and HTTPS, at different paths)
// share its memories at once, and trusting or untrusting such a folder is refused as naming
// nothing to trust (CodeNoProjectID), with nothing recorded.
func TestClonesOfOneRemoteShareWithoutTrust(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	own := mkdir(t, base, "src", "widget")
	gitClone(t, own, "git@github.com:acme/widget.git")
	e.ok(projWrite(own, "deploy-keys", "Deploy keys rotate on the first Monday"))
	key := resolveVia(t, e, own).Key
	other := mkdir(t, base, "work", "widget-https")
	gitClone(t, other, "https://github.com/acme/widget")
	if p := resolveVia(t, e, other); p.Key != key || p.Kind != ProjectByRemote || p.Problem != "" {
		t.Fatalf("the second clone resolves to %+v (remote key %s)", p, key)
	}
	if got := e.slugsIn(Filter{Workdir: other, NoDaily: true}); strings.Join(got, ",") != "deploy-keys" {
		t.Fatalf("the second clone lists %v", got)
	}
	for _, trust := range []bool{true, false} {
		var ce *Error
		if _, err := e.s.TrustProject(other, trust); !errors.As(err, &ce) || ce.Code != CodeNoProjectID {
			t.Fatalf("TrustProject(remote clone, %v) = %v", trust, err)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(e.s.root, trustDir)); len(entries) != 0 {
		t.Fatalf("a remote recorded %d trust files", len(entries))
	}
}

// Memories of an id project that reached this machine from another (a sync: their folder is
// the other machine's, which is not here) do not hold the id against this machine's own
// clone: it takes the id at its first use and sees them, with no trust asked.
func TestIDFromAnotherMachineIsTakenByTheFirstLocalClone(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	away := mkdir(t, base, "machine-a", "app")
	writeID(t, away, "acme-app")
	e.ok(projWrite(away, "release-train", "Releases leave every second Tuesday"))
	key := resolveVia(t, e, away).Key
	// The other machine's folder is not here; its trust record stays with that machine.
	if err := os.RemoveAll(filepath.Join(e.s.root, trustDir)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(away); err != nil {
		t.Fatal(err)
	}
	e.reopen()
	here := mkdir(t, base, "machine-b", "checkout")
	writeID(t, here, "acme-app")
	if p := resolveVia(t, e, here); p.Key != key || p.UntrustedID != "" {
		t.Fatalf("this machine's clone: %+v (id key %s)", p, key)
	}
	if got := e.slugsIn(Filter{Workdir: here, NoDaily: true}); strings.Join(got, ",") != "release-train" {
		t.Fatalf("this machine's clone lists %v", got)
	}
	// The first machine's path, made here later and naming the id, finds it held by this clone.
	if err := os.MkdirAll(away, 0o755); err != nil {
		t.Fatal(err)
	}
	writeID(t, away, "acme-app")
	if p := resolveVia(t, e, away); p.Key == key || p.UntrustedID != "acme-app" {
		t.Fatalf("the first machine's path after the claim: %+v", p)
	}
}

// A linked worktree git registered (its back-link names it) is the repository it belongs to and
// shares its trust; a .git file pointing into a repository that never registered the folder is
// a stranger.
func TestWorktreeSharesItsRepositorysTrust(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	repo := mkdir(t, base, "widget")
	gitClone(t, repo, "git@github.com:acme/widget.git")
	e.ok(projWrite(repo, "build", "Build with make all"))
	key := resolveVia(t, e, repo).Key

	wt := mkdir(t, base, "widget-fix")
	linkWorktree(t, repo, wt, "widget-fix", filepath.Join(wt, ".git"))
	if p := resolveVia(t, e, wt); p.Key != key || p.Problem != "" {
		t.Fatalf("a registered worktree: %+v (key %s)", p, key)
	}
	if got := e.slugsIn(Filter{Workdir: wt, NoDaily: true}); strings.Join(got, ",") != "build" {
		t.Fatalf("the worktree lists %v", got)
	}

	// The id file of a repository travels to its worktrees: the same rule holds for it.
	idRepo := mkdir(t, base, "app")
	gitClone(t, idRepo, "git@github.com:acme/app.git")
	writeID(t, idRepo, "acme-app")
	idKey := resolveVia(t, e, idRepo).Key
	idWT := mkdir(t, base, "app-wt")
	writeID(t, idWT, "acme-app")
	linkWorktree(t, idRepo, idWT, "app-wt", filepath.Join(idWT, ".git"))
	if p := resolveVia(t, e, idWT); p.Key != idKey {
		t.Fatalf("a registered worktree of an id project: %+v", p)
	}

	// Not registered: the .git file names the repository's admin folder, which names another
	// (or none): the id it carries is a stranger's, kept apart.
	for _, back := range []string{"", filepath.Join(idWT, ".git")} {
		stranger := mkdir(t, base, "stranger"+filepath.Base(back))
		writeID(t, stranger, "acme-app")
		linkWorktree(t, idRepo, stranger, "app-wt", back)
		if back == "" {
			linkWorktree(t, idRepo, stranger, "gone", "")
		}
		if p := resolveVia(t, e, stranger); p.Key == idKey || p.UntrustedID != "acme-app" {
			t.Fatalf("an unregistered worktree (back-link %q): %+v", back, p)
		}
	}
}

// Folders claiming a fresh id at the same moment (the app and `engram mcp`, or two goroutines
// of one process): exactly one wins, whatever the order, and the others are told who holds it.
func TestFirstClaimIsExclusive(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	const n = 8
	var dirs []string
	for i := 0; i < n; i++ {
		d := mkdir(t, base, "clone"+string(rune('a'+i)))
		writeID(t, d, "race-app")
		dirs = append(dirs, d)
	}
	start := make(chan struct{})
	got := make([]Project, n)
	var wg sync.WaitGroup
	for i, d := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			p, err := e.s.Projects().Resolve(d)
			if err != nil {
				t.Error(err)
			}
			got[i] = p
		}()
	}
	close(start)
	wg.Wait()
	winners := 0
	var winner string
	for _, p := range got {
		if p.Kind == ProjectByID {
			winners++
			winner = p.Workdir
		}
	}
	if winners != 1 {
		t.Fatalf("%d folders took the id at once: %+v", winners, got)
	}
	for _, d := range dirs {
		p := resolveVia(t, e, d)
		if (p.Kind == ProjectByID) != (d == winner) {
			t.Fatalf("afterwards %s resolves to %+v (winner %s)", d, p, winner)
		}
		if d != winner && (len(p.IDHolders) != 1 || p.IDHolders[0] != winner || !strings.Contains(p.Problem, winner+" --untrust")) {
			t.Fatalf("a loser is not told who holds the id: %+v", p)
		}
	}
}

// An agent in a hostile folder can make the first claim on an id the person has not used here
// yet: the person's folder is then told which folder holds it and how to take it back, and
// taking it back works.
func TestTakingAnIDBackFromTheFolderHoldingIt(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	hostile := mkdir(t, base, "downloads", "evil")
	writeID(t, hostile, "acme-app")
	own := mkdir(t, base, "src", "acme")
	writeID(t, own, "acme-app")
	key := resolveVia(t, e, hostile).Key
	// The claim needed no word from the person: the activity log shows it.
	log, err := e.s.Audit(e.ctx, "", 10)
	if err != nil || len(log) == 0 || log[0].Op != OpProjectClaim || log[0].Slug != "acme-app" ||
		!strings.Contains(string(log[0].Detail), `"title":"`+hostile+`"`) {
		t.Fatalf("the first claim is not in the activity log: %+v %v", log, err)
	}

	p := resolveVia(t, e, own)
	if p.Key == key || len(p.IDHolders) != 1 || p.IDHolders[0] != hostile ||
		!strings.Contains(p.Problem, "engram project "+hostile+" --untrust") {
		t.Fatalf("the person's folder is not told who holds the id: %+v", p)
	}
	if _, err := e.s.TrustProject(hostile, false); err != nil {
		t.Fatal(err)
	}
	if p, err := e.s.TrustProject(own, true); err != nil || p.Key != key {
		t.Fatalf("trusting the person's folder: %+v %v", p, err)
	}
	if p := resolveVia(t, e, hostile); p.Key == key || len(p.IDHolders) != 1 || p.IDHolders[0] != own {
		t.Fatalf("the hostile folder after it was taken back: %+v", p)
	}
}

// Trusting a folder whose id file is there but passed over names that file's problem
// (CodeProjectIDFileInvalid), not a missing file; a folder with neither an id file nor a remote
// has nothing to trust (CodeNoProjectID), and nothing is recorded either way.
func TestTrustRefusesWhatNamesNothing(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	target := filepath.Join(base, "elsewhere")
	if err := os.WriteFile(target, []byte("acme-app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, problem string
		setup         func(dir string)
		code          string
	}{
		{"a link", "not a regular file", func(dir string) {
			if err := os.Symlink(target, filepath.Join(dir, ProjectIDFile)); err != nil {
				t.Fatal(err)
			}
		}, CodeProjectIDFileInvalid},
		{"too large", "larger than", func(dir string) { writeID(t, dir, strings.Repeat("a", maxIDFileBytes+1)) }, CodeProjectIDFileInvalid},
		{"an invalid id", "is not a valid id", func(dir string) { writeID(t, dir, "../escape") }, CodeProjectIDFileInvalid},
		{"only comments", "holds no id", func(dir string) { writeID(t, dir, "# nothing") }, CodeProjectIDFileInvalid},
		{"with a remote too", "is not a valid id", func(dir string) {
			writeID(t, dir, "../escape")
			gitClone(t, dir, "git@github.com:acme/widget.git")
		}, CodeProjectIDFileInvalid},
		{"neither", "", func(string) {}, CodeNoProjectID},
	} {
		dir := mkdir(t, base, strings.ReplaceAll(tc.name, " ", "-"))
		tc.setup(dir)
		_, err := e.s.TrustProject(dir, true)
		var ce *Error
		if !errors.As(err, &ce) || ce.Code != tc.code || !strings.Contains(fmt.Sprint(ce.Args["Problem"]), tc.problem) {
			t.Fatalf("%s: %v", tc.name, err)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(e.s.root, trustDir)); len(entries) != 0 {
		t.Fatalf("refusals recorded %d files", len(entries))
	}
}

// Memories a folder kept by its path while its id is not trusted here are not a move that
// failed: doctor says the folder is kept apart and how to trust it.
func TestDoctorNamesAnUntrustedFolder(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	own := mkdir(t, base, "own")
	writeID(t, own, "acme-widget")
	e.ok(projWrite(own, "owned", "The holder's memory"))
	other := mkdir(t, base, "other")
	writeID(t, other, "acme-widget")
	e.ok(projWrite(other, "kept-apart", "Written while not trusted"))
	rep, err := e.s.Doctor(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var found *Finding
	for i, f := range rep.Findings {
		if f.Code == "project_not_moved" {
			t.Fatalf("an untrusted folder reported as a failed move: %+v", f)
		}
		if f.Code == "project_untrusted" {
			found = &rep.Findings[i]
		}
	}
	if found == nil || found.Count != 1 || found.Fix != "engram project --trust "+shellQuote(other) ||
		found.Args["Identity"] != "acme-widget" {
		t.Fatalf("findings %+v", rep.Findings)
	}
}
