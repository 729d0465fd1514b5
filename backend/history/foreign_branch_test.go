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
