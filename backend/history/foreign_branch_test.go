package history

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/memory"
)

// A project's repository whose branch is master (git's default), named as the remote by
// mistake, has no main: it was taken for an empty remote and the first sync pushed every
// memory into it as a new main branch. Now its branches are checked like an unrelated main:
// one holding files that are no memories refuses the sync (history_remote_foreign), nothing is
// sent, and the remote that worked stays. A remote whose only branch holds memory files is
// still filled. Bare and working repositories alike.
func TestRemoteWithoutMainButAnotherProjectIsRefused(t *testing.T) {
	ctx := context.Background()
	gitBin := gitBinary(t)
	run := func(dir string, args ...string) string {
		t.Helper()
		return gitIn(t, gitBin, dir, args...)
	}
	project := func(files map[string]string) (work, bare string) {
		dir := t.TempDir()
		work = filepath.Join(dir, "work")
		run(dir, "init", "-q", "-b", "master", work)
		for name, text := range files {
			os.MkdirAll(filepath.Dir(filepath.Join(work, name)), 0o755)
			if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		run(work, "add", ".")
		run(work, "commit", "-qm", "first")
		bare = filepath.Join(dir, "bare.git")
		run(dir, "clone", "-q", "--bare", work, bare)
		return work, bare
	}

	_, good := bareRepo(t)
	st, r := openHome(t, t.TempDir(), true)
	write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	if _, err := r.Sync(ctx, st, good); err != nil {
		t.Fatal(err)
	}
	codeWork, codeBare := project(map[string]string{"main.go": "package main\n", "README.md": "# Shop\n"})
	for _, code := range []string{codeWork, codeBare} {
		_, err := r.Sync(ctx, st, code)
		if codeOf(err) != CodeRemoteForeign {
			t.Fatalf("sync with a project on master at %s: %v (%s)", code, err, codeOf(err))
		}
		if got := run(code, "branch", "--list", "main"); got != "" {
			t.Fatalf("memories pushed into %s as branch main", code)
		}
		if r.Remote() != good {
			t.Fatalf("the remote is now %q, want the one that worked", r.Remote())
		}
		if _, err := os.Stat(filepath.Join(st.Root(), "main.go")); err == nil {
			t.Fatal("the project's file is in the memory folder")
		}
	}

	// Over HTTPS the same: every branch is fetched, none is main, one holds a project.
	srv := httpsRemote(t, filepath.Dir(codeBare), "ada", "pw-4711")
	r.SetAuth(Auth{Credentials: OpenCredentials(t.TempDir()), CAFile: caFile(t, srv)})
	remote := strings.Replace(srv.URL, "https://", "https://ada:pw-4711@", 1) + "/bare.git"
	if _, err := r.Sync(ctx, st, remote); codeOf(err) != CodeRemoteForeign {
		t.Fatalf("sync over HTTPS with a project on master: %v (%s)", err, codeOf(err))
	}
	if got := run(codeBare, "branch", "--list", "main"); got != "" || r.Remote() != good {
		t.Fatalf("over HTTPS: main %q pushed, remote %q", got, r.Remote())
	}

	// A remote whose branch (not main) holds memory files alone is filled as before.
	_, notes := project(map[string]string{"global/user/desk.md": "---\nid: x\n---\n"})
	if _, err := r.Sync(ctx, st, notes); err != nil {
		t.Fatalf("a remote of memory files on another branch: %v", err)
	}
	if run(notes, "rev-parse", "main") == "" {
		t.Fatal("main not pushed")
	}
}

// The remote's fetched branches stayed when another remote took its place: after two syncs
// with a memory remote, origin/main was that remote's, so a project's repository without a
// main named next (over HTTPS, or SSH) looked like a memory remote in step, and the sync pushed
// every memory into it as its main. The old remote's branches go when the remote changes.
func TestPreviousRemotesBranchesAreNotTakenForTheNewOnes(t *testing.T) {
	ctx := context.Background()
	gitBin := gitBinary(t)
	run := func(dir string, args ...string) string { t.Helper(); return gitIn(t, gitBin, dir, args...) }
	_, good := bareRepo(t)
	st, r := openHome(t, t.TempDir(), true)
	write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	for i := 0; i < 2; i++ { // the second sync fetches the remote's main
		if _, err := r.Sync(ctx, st, good); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	run(dir, "init", "-q", "-b", "master", work)
	if err := os.WriteFile(filepath.Join(work, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(work, "add", ".")
	run(work, "commit", "-qm", "first")
	bare := filepath.Join(dir, "bare.git")
	run(dir, "clone", "-q", "--bare", work, bare)
	srv := httpsRemote(t, dir, "ada", "pw-4711")
	r.SetAuth(Auth{Credentials: OpenCredentials(t.TempDir()), CAFile: caFile(t, srv)})
	remote := strings.Replace(srv.URL, "https://", "https://ada:pw-4711@", 1) + "/bare.git"
	if _, err := r.Sync(ctx, st, remote); codeOf(err) != CodeRemoteForeign {
		t.Errorf("sync with a project after a memory remote: %v (%s), want %s", err, codeOf(err), CodeRemoteForeign)
	}
	if got := run(bare, "branch", "--list", "main"); got != "" {
		t.Fatalf("memories pushed into the project as branch main")
	}
	if r.Remote() != good {
		t.Errorf("the remote is %q, want the one that worked", r.Remote())
	}
	// The remote that worked still syncs (its branch fetched again).
	if res, err := r.Sync(ctx, st, ""); err != nil || res.Remote != good {
		t.Errorf("sync with the previous remote again: %+v, %v", res, err)
	}
}
