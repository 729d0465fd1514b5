package history

import (
	"context"
	"strings"
	"testing"

	"engram/backend/memory"
)

// A token given as the URL's user name, as GitHub's documentation writes it
// (https://ghp_…@github.com/me/x.git), stayed in .git/config, in `history status` and in
// every error naming the remote: only a password was taken out. It is filed in the
// credentials file now, the remote kept without it, and the sync signs in with it as git does
// (the token as user name, no password). A plain user name stays in the URL.
func TestTokenAsUserNameIsKeptOutOfTheRemote(t *testing.T) {
	ctx := context.Background()
	dir, _ := bareRepo(t)
	token := "ghp_" + strings.Repeat("A1b2C3d4", 5)
	srv := httpsRemote(t, dir, token, "")
	url := srv.URL + "/memories.git"
	withToken := strings.Replace(url, "https://", "https://"+token+"@", 1)
	st, r, home := remoteHome(t, Auth{})
	r.SetAuth(Auth{Credentials: OpenCredentials(home), CAFile: caFile(t, srv)})
	write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	res, err := r.Sync(ctx, st, withToken)
	if err != nil || !res.Pushed {
		t.Fatalf("sync with a token as user name = %+v, %v", res, err)
	}
	if res.Remote != url || r.Remote() != url {
		t.Fatalf("the remote is %q (result %q), want %q", r.Remote(), res.Remote, url)
	}
	noSecretIn(t, st.Root(), token)
	// An error naming a remote that holds one hides it.
	if got := redact("https://" + token + "@127.0.0.1:1/x.git"); strings.Contains(got, token) {
		t.Fatalf("redact kept the token: %q", got)
	}
	for _, tc := range []struct{ in, clean, user string }{
		{"https://ada@host/x.git", "https://ada@host/x.git", ""},
		{"https://glpat-abcdefghij0123456789@host/x.git", "https://host/x.git", "glpat-abcdefghij0123456789"},
		{"https://" + strings.Repeat("f", 40) + "@host/x.git", "https://host/x.git", strings.Repeat("f", 40)},
		{"https://ada:pw@host/x.git", "https://ada@host/x.git", "ada"},
	} {
		clean, user, _, _ := splitUserinfo(tc.in)
		if clean != tc.clean || user != tc.user {
			t.Errorf("splitUserinfo(%q) = %q, %q; want %q, %q", tc.in, clean, user, tc.clean, tc.user)
		}
	}
}

// A home whose .git/config an older build left holding a token as the user name: its status
// hides it, and the next sync (with the remote it has) moves it to the credentials file.
func TestTokenLeftInTheConfigMovesOut(t *testing.T) {
	ctx := context.Background()
	dir, _ := bareRepo(t)
	token := "glpat-" + strings.Repeat("x1Y2", 6)
	srv := httpsRemote(t, dir, token, "")
	url := srv.URL + "/memories.git"
	st, r, home := remoteHome(t, Auth{})
	r.SetAuth(Auth{Credentials: OpenCredentials(home), CAFile: caFile(t, srv)})
	write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	writeRemoteAsGiven(t, r, strings.Replace(url, "https://", "https://"+token+"@", 1))
	if s, err := r.Status(); err != nil || strings.Contains(s.Remote, token) {
		t.Fatalf("status shows %q (%v)", s.Remote, err)
	}
	if res, err := r.Sync(ctx, st, ""); err != nil || !res.Pushed {
		t.Fatalf("sync = %+v, %v", res, err)
	}
	if r.Remote() != url {
		t.Fatalf("the remote is still %q", r.Remote())
	}
	noSecretIn(t, st.Root(), token)
}
