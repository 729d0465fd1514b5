package api

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"engram/backend/backup"
)

// A backup's memory/.git/config went back as it was, so an archive made or altered by someone
// else (its manifest written with it) could set what git's command line runs — core.fsmonitor
// runs at the person's next `git status` in the memory folder. A restore keeps only the keys
// Engram writes and names the ones it left out; history keeps working.
//
// The archive comes from another home (its config altered there) and is restored in place of a
// home without history, where the archive's history is the one that comes in: a home with
// history of its own keeps its own config (TestRestoreOfABackupWithHistoryKeepsBothHistories).
func TestRestoreLeavesOutGitSettingsThatRunPrograms(t *testing.T) {
	other, _ := historyAPIs(t)
	mustCall(t, other, "memory.write", `{"scope":"global","type":"user","slug":"likes-tea","title":"Likes tea","body":"Drinks green tea.","confidence":"medium","source_quote":"tea"}`)
	mustCall(t, other, "history.enable", `{}`)
	src := filepath.Join(other.deps.Store.Root(), ".git", "config")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	hostile := string(data) + "[core]\n\tfsmonitor = touch /tmp/pwned\n\tsshCommand = sh -c id\n" +
		"[filter \"lfs\"]\n\tsmudge = sh -c id\n[alias]\n\tst = !sh -c id\n[include]\n\tpath = /tmp/evil.cfg\n" +
		"[remote \"origin\"]\n\turl = /srv/memories.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n" +
		"[remote \"x\"]\n\turl = ext::sh -c id\n[user]\n\tname = Ada\n"
	if err := os.WriteFile(src, []byte(hostile), 0o600); err != nil {
		t.Fatal(err)
	}
	b := mustCall(t, other, "backup.create", `{"to":"`+filepath.Join(t.TempDir(), "altered.tar.gz")+`"}`).(backup.Result)
	user, _ := historyAPIs(t)
	cfg := filepath.Join(user.deps.Store.Root(), ".git", "config")

	rr := mustCall(t, user, "backup.restore", `{"path":"`+b.Path+`"}`).(backup.RestoreResult)
	for _, want := range []string{"core.fsmonitor", "core.sshcommand", "filter.lfs.smudge", "alias.st", "include.path", "remote.x.url"} {
		if !slices.Contains(rr.GitConfigDropped, want) {
			t.Errorf("%s is not among the settings left out: %v", want, rr.GitConfigDropped)
		}
	}
	got, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"fsmonitor", "sshCommand", "smudge", "alias", "include", "ext::", "pwned"} {
		if strings.Contains(string(got), bad) {
			t.Fatalf("the restored config still holds %q:\n%s", bad, got)
		}
	}
	for _, keep := range []string{"bare = false", "/srv/memories.git", "+refs/heads/*:refs/remotes/origin/*", "Ada"} {
		if !strings.Contains(string(got), keep) {
			t.Fatalf("the restored config lost %q:\n%s", keep, got)
		}
	}
	st := mustCall(t, user, "history.status", `{}`).(HistoryStatus)
	if !st.Enabled || st.Commits == 0 {
		t.Fatalf("history after the restore: %+v", st)
	}
	mustCall(t, user, "memory.write", `{"scope":"global","type":"user","slug":"likes-rain","title":"Likes rain","body":"Rainy days.","confidence":"medium","source_quote":"rain"}`)
	if after := mustCall(t, user, "history.status", `{}`).(HistoryStatus); after.Commits != st.Commits+1 {
		t.Fatalf("a write after the restore was not committed: %+v then %+v", st, after)
	}
}
