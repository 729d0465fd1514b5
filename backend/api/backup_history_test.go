package api

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/backup"
)

// An in-place restore of a backup made before git history was turned on removed .git with
// every commit in it and turned history off without a word: the versions since were only in
// the pre-restore backup's archive. The home's history is now kept, the restored files are one
// more commit ("user: backup restored", .gitignore back), and what the restore removed stays
// reachable: its versions, and history.deleted lists it.
func TestRestoreOfABackupWithoutHistoryKeepsTheHistory(t *testing.T) {
	user, _ := historyAPIs(t)
	w := mustCall(t, user, "memory.write", `{"scope":"global","type":"user","slug":"likes-tea","title":"Likes tea","body":"Drinks green tea.","confidence":"medium","source_quote":"tea"}`).(ItemResult)
	old := mustCall(t, user, "backup.create", `{"to":"`+filepath.Join(t.TempDir(), "before-history.tar.gz")+`"}`).(backup.Result)
	mustCall(t, user, "history.enable", `{}`)
	mustCall(t, user, "memory.update", `{"id":"`+w.ID+`","mode":"replace","body":"Drinks black tea."}`)
	mustCall(t, user, "memory.write", `{"scope":"global","type":"user","slug":"desk-setup","title":"Desk","body":"Standing desk.","confidence":"medium","source_quote":"desk"}`)
	before := mustCall(t, user, "history.status", `{}`).(HistoryStatus)

	rr := mustCall(t, user, "backup.restore", `{"path":"`+old.Path+`"}`).(backup.RestoreResult)
	if !rr.InPlace || !rr.KeptHistory {
		t.Fatalf("restore: %+v", rr)
	}
	st := mustCall(t, user, "history.status", `{}`).(HistoryStatus)
	if !st.Enabled || st.Commits != before.Commits+1 {
		t.Fatalf("history after the restore: %+v (before %+v)", st, before)
	}
	vs := mustCall(t, user, "history.versions", `{"id":"`+w.ID+`"}`).(VersionsResult)
	if len(vs.Versions) != 3 || !strings.HasPrefix(vs.Versions[0].Message, "user: backup restored") ||
		!strings.Contains(vs.Versions[0].Diff, "+Drinks green tea.") || !strings.Contains(vs.Versions[0].Diff, "-Drinks black tea.") {
		t.Fatalf("versions after the restore: %+v", vs.Versions)
	}
	del := mustCall(t, user, "history.deleted", `{}`).(DeletedResult)
	if len(del.Memories) != 1 || del.Memories[0].Slug != "desk-setup" {
		t.Fatalf("deleted after the restore: %+v", del.Memories)
	}
	if _, err := os.Stat(filepath.Join(user.deps.Store.Root(), ".gitignore")); err != nil {
		t.Fatalf(".gitignore after the restore: %v", err)
	}
	// Nothing left uncommitted: doctor's git check finds no file differing from the last commit.
	for _, f := range user.deps.History.Check() {
		t.Errorf("doctor's history finding after the restore: %+v", f)
	}
}
