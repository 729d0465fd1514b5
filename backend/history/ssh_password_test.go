package history

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/memory"

	"github.com/go-git/go-git/v5/config"
)

// An SSH remote typed with a password (ssh://me:pw@host/…, me:pw@host:path) went to
// .git/config as typed — password and all — while an HTTPS password is filed apart: SSH signs
// in with keys only, so the URL is refused (translated, naming the remote without the
// password) and the remote that was set stays.
func TestSSHRemoteWithAPasswordIsRefused(t *testing.T) {
	st, r := openHome(t, t.TempDir(), true)
	good := filepath.Join(t.TempDir(), "remote.git")
	if err := r.SetRemote(good); err != nil {
		t.Fatal(err)
	}
	const secret = "Pw0rdSecret"
	for _, bad := range []string{"ssh://me:" + secret + "@127.0.0.1:1/x.git", "me:" + secret + "@example.com:me/x.git",
		"git+ssh://me:" + secret + "@example.com/x.git"} {
		for name, call := range map[string]func() error{
			"SetRemote": func() error { return r.SetRemote(bad) },
			"Sync":      func() error { _, err := r.Sync(context.Background(), st, bad); return err },
		} {
			err := call()
			var he *Error
			if !errors.As(err, &he) || he.Code != CodeSSHPassword {
				t.Fatalf("%s(%q) = %v, want %s", name, bad, err, CodeSSHPassword)
			}
			if strings.Contains(err.Error(), secret) || strings.Contains(he.Args["Remote"].(string), secret) {
				t.Errorf("%s(%q): the error shows the password: %v %v", name, bad, err, he.Args)
			}
		}
	}
	cfg, err := os.ReadFile(filepath.Join(st.Root(), ".git", "config"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cfg), secret) {
		t.Errorf(".git/config holds the password:\n%s", cfg)
	}
	if got := r.Remote(); got != good {
		t.Errorf("remote = %q, want the one set before (%q)", got, good)
	}
	for _, ok := range []string{"ssh://git@example.com/me/x.git", "git@example.com:me/x.git"} {
		if err := r.SetRemote(ok); err != nil {
			t.Errorf("SetRemote(%q) = %v", ok, err)
		}
	}
}

// A remote an older build wrote with its secret in it — an SSH password (refused since, but
// kept where it was) or an HTTPS token — stayed in .git/config, in every backup of the folder
// and, in the scp-like form, in `engram history status`. The next process to open the home
// takes it out: the SSH password is dropped (SSH signs in with keys only), the HTTPS secret
// moves to the credentials file, and the status never shows either.
func TestSecretAnOlderBuildLeftInTheRemoteIsTakenOut(t *testing.T) {
	const secret = "Pw0rdSecret"
	for _, tc := range []struct{ old, want, user, pass string }{
		{"ssh://me:" + secret + "@example.com/me/x.git", "ssh://me@example.com/me/x.git", "", ""},
		{"me:" + secret + "@example.com:me/x.git", "me@example.com:me/x.git", "", ""},
		{"https://me:" + secret + "@example.com/me/x.git", "https://me@example.com/me/x.git", "me", secret},
	} {
		home := t.TempDir()
		st, r := openHome(t, home, true)
		writeRemoteAsGiven(t, r, tc.old)
		if s, err := r.Status(); err != nil || strings.Contains(s.Remote, secret) {
			t.Errorf("%s: status before the mend = %+v, %v: shows the password", tc.old, s, err)
		}
		st.Close()

		st2, err := memory.Open(context.Background(), home, memory.Options{Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		r2 := New(st2.Root(), quiet)
		r2.SetAuth(DefaultAuth(home))
		Attach(st2, r2)
		data, err := os.ReadFile(filepath.Join(st2.Root(), ".git", "config"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), secret) {
			t.Errorf("%s: .git/config still holds the password:\n%s", tc.old, data)
		}
		if got := r2.Remote(); got != tc.want {
			t.Errorf("%s: remote = %q, want %q", tc.old, got, tc.want)
		}
		user, pass, ok, err := OpenCredentials(home).Get(tc.want)
		if err != nil || ok != (tc.user != "") || user != tc.user || pass != tc.pass {
			t.Errorf("%s: credentials = %q %q %v %v, want %q %q", tc.old, user, pass, ok, err, tc.user, tc.pass)
		}
		st2.Close()
	}
}

// writeRemoteAsGiven puts url in .git/config as an older build did: as given, secret and all.
func writeRemoteAsGiven(t *testing.T, r *Repo, url string) {
	t.Helper()
	repo, err := r.open()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := repo.Config()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Remotes[RemoteName] = &config.RemoteConfig{Name: RemoteName, URLs: []string{url},
		Fetch: []config.RefSpec{config.RefSpec("+refs/heads/*:refs/remotes/" + RemoteName + "/*")}}
	if err := r.setConfig(cfg); err != nil {
		t.Fatal(err)
	}
}
