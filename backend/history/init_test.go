package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An Enable killed inside go-git's init left a .git that no longer opened (go-git makes the
// folders, then HEAD, then the config, one file at a time); since the folder existed, every
// later Enable skipped the init and failed to open it, for good. Each state such a kill can
// leave must give way to a working history at the next Enable, with the memories committed.
func TestEnableAfterAnInterruptedInit(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string // under .git; "" content makes a folder
	}{
		{"empty folder", map[string]string{}},
		{"folders only", map[string]string{"objects/info": "", "objects/pack": "", "refs/heads": "", "refs/tags": ""}},
		{"HEAD, no config", map[string]string{"objects/info": "", "objects/pack": "", "refs/heads": "", "refs/tags": "",
			"HEAD": "ref: refs/heads/main\n"}},
		{"HEAD, config cut short", map[string]string{"objects/info": "", "objects/pack": "", "refs/heads": "", "refs/tags": "",
			"HEAD": "ref: refs/heads/main\n", "config": "[core]\n\trepositoryformatver"}},
		{"HEAD cut short", map[string]string{"objects/info": "", "objects/pack": "", "refs/heads": "", "refs/tags": "",
			"HEAD": "ref: refs/he"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, r := openHome(t, t.TempDir(), false)
			write(t, st, "user", newMem("kept-through", "A memory written before history was on."))
			git := filepath.Join(st.Root(), ".git")
			if err := os.Mkdir(git, 0o755); err != nil {
				t.Fatal(err)
			}
			for rel, body := range c.files {
				p := filepath.Join(git, filepath.FromSlash(rel))
				if body == "" {
					if err := os.MkdirAll(p, 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// doctor says the plain fix: such a .git holds nothing to rescue.
			if got := New(st.Root(), quiet).Check(); len(got) > 0 && got[0].Fix != FixCommitNow {
				t.Fatalf("doctor on an interrupted init: %+v", got)
			}
			if err := st.Locked(func() error { _, err := r.Enable(); return err }); err != nil {
				t.Fatalf("enable after an interrupted init: %v", err)
			}
			got := commits(t, st.Root())
			if len(got) != 1 || got[0] != "user: history enabled" {
				t.Fatalf("commits %q, want the one of the enable", got)
			}
			write(t, st, "user", newMem("after-enable", "A memory written once history is on."))
			if got := commits(t, st.Root()); len(got) != 2 {
				t.Fatalf("commits after a write %q, want two", got)
			}
			assertNoInitTemps(t, st.Root())
		})
	}
}

// A repository that holds history is never taken for an interrupted init, whatever else is
// wrong with it: a .git with objects or branches but no HEAD is the person's to rescue, and
// Enable refuses it (doctor says how to set it aside) instead of starting over on top of it.
func TestEnableKeepsARepositoryWithHistory(t *testing.T) {
	st, r := openHome(t, t.TempDir(), false)
	git := filepath.Join(st.Root(), ".git")
	obj := filepath.Join(git, "objects", "ab", "cdef0123456789")
	if err := os.MkdirAll(filepath.Dir(obj), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(obj, []byte("a loose object"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := st.Locked(func() error { _, err := r.Enable(); return err }); err == nil {
		t.Fatal("enable started over on a repository that holds objects")
	}
	if _, err := os.Stat(obj); err != nil {
		t.Fatalf("the repository's object is gone: %v", err)
	}
}

// A new history appears whole: the .git is made in a temporary folder and moved in by one
// rename, so no state between go-git's writes is ever the memory folder's.
func TestEnableMovesANewRepositoryInWhole(t *testing.T) {
	st, r := openHome(t, t.TempDir(), false)
	var seen []string
	r.initHook = func(tmp string) {
		if _, err := os.Stat(filepath.Join(st.Root(), ".git")); err == nil {
			seen = append(seen, "the memory folder held a .git while the init ran")
		}
		if _, err := os.Stat(filepath.Join(tmp, ".git", "HEAD")); err != nil {
			seen = append(seen, "the temporary repository had no HEAD at its end: "+err.Error())
		}
	}
	if err := st.Locked(func() error { _, err := r.Enable(); return err }); err != nil {
		t.Fatal(err)
	}
	if len(seen) > 0 {
		t.Fatal(strings.Join(seen, "; "))
	}
	if !r.Enabled() {
		t.Fatal("history is not on after Enable")
	}
	assertNoInitTemps(t, st.Root())
}

func assertNoInitTemps(t *testing.T, root string) {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), initTempPrefix) {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// A remote that is no git endpoint is refused before it reaches .git/config: a NUL written
// there made the config unreadable, and from then on every commit failed while writes still
// answered ok. The history keeps working after each refusal.
func TestSetRemoteRefusesWhatIsNoRemote(t *testing.T) {
	st, r := openHome(t, t.TempDir(), true)
	for _, bad := range []string{"a\x00b", "/tmp/x\n[core]", "remote.git", "../remote.git", " /tmp/x.git", "-upload-pack=x", "", "https://h/\x7f"} {
		err := r.SetRemote(bad)
		var he *Error
		if !errors.As(err, &he) || he.Code != CodeRemoteInvalid {
			t.Errorf("SetRemote(%q) = %v, want %s", bad, err, CodeRemoteInvalid)
		}
		if _, err := r.Status(); err != nil {
			t.Fatalf("status after SetRemote(%q): %v", bad, err)
		}
	}
	for _, good := range []string{filepath.Join(t.TempDir(), "remote.git"), "https://example.com/me/memories.git",
		"git@example.com:me/memories.git", "ssh://git@example.com/me/memories.git"} {
		if err := r.SetRemote(good); err != nil {
			t.Errorf("SetRemote(%q) = %v", good, err)
		}
	}
	write(t, st, "user", newMem("still-committed", "Written after the refusals."))
	if got := commits(t, st.Root()); len(got) != 2 {
		t.Fatalf("commits %q: a write after the refusals was not committed", got)
	}
}
