package history

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
