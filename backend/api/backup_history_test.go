package api

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/backup"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
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

// An in-place restore of a backup that holds its own git history put that history in place of
// this home's: the commits made since the backup were only in the pre-restore archive. Both
// are kept now: this home's history goes on (the restore one more commit on top of it), and
// the backup's head stays reachable as refs/backups/<when it was made>.
func TestRestoreOfABackupWithHistoryKeepsBothHistories(t *testing.T) {
	user, _ := historyAPIs(t)
	mustCall(t, user, "history.enable", `{}`)
	w := mustCall(t, user, "memory.write", `{"scope":"global","type":"user","slug":"likes-tea","title":"Likes tea","body":"Drinks green tea.","confidence":"medium","source_quote":"tea"}`).(ItemResult)
	old := mustCall(t, user, "backup.create", `{"to":"`+filepath.Join(t.TempDir(), "with-history.tar.gz")+`"}`).(backup.Result)
	atBackup := mustCall(t, user, "history.status", `{}`).(HistoryStatus)
	mustCall(t, user, "memory.update", `{"id":"`+w.ID+`","mode":"replace","body":"Drinks black tea."}`)
	mustCall(t, user, "memory.write", `{"scope":"global","type":"user","slug":"desk-setup","title":"Desk","body":"Standing desk.","confidence":"medium","source_quote":"desk"}`)
	before := mustCall(t, user, "history.status", `{}`).(HistoryStatus)

	rr := mustCall(t, user, "backup.restore", `{"path":"`+old.Path+`"}`).(backup.RestoreResult)
	if !rr.InPlace || !rr.KeptHistory || !strings.HasPrefix(rr.BackupHistory, "refs/backups/") {
		t.Fatalf("restore: %+v", rr)
	}
	st := mustCall(t, user, "history.status", `{}`).(HistoryStatus)
	if !st.Enabled || st.Commits != before.Commits+1 {
		t.Fatalf("history after the restore: %+v (before %+v): the commits since the backup are gone", st, before)
	}
	vs := mustCall(t, user, "history.versions", `{"id":"`+w.ID+`"}`).(VersionsResult)
	if len(vs.Versions) != 3 || !strings.HasPrefix(vs.Versions[0].Message, "user: backup restored") ||
		!strings.Contains(vs.Versions[0].Diff, "-Drinks black tea.") {
		t.Fatalf("versions after the restore: %+v", vs.Versions)
	}
	if del := mustCall(t, user, "history.deleted", `{}`).(DeletedResult); len(del.Memories) != 1 || del.Memories[0].Slug != "desk-setup" {
		t.Fatalf("deleted after the restore: %+v", del.Memories)
	}
	ref, err := os.ReadFile(filepath.Join(user.deps.Store.Root(), ".git", filepath.FromSlash(rr.BackupHistory)))
	if err != nil || strings.TrimSpace(string(ref)) != atBackup.Head {
		t.Fatalf("the backup's head %q kept as %s: %q, %v", atBackup.Head, rr.BackupHistory, ref, err)
	}
	if _, err := os.Stat(filepath.Join(user.deps.Store.Root(), ".git-of-the-backup")); err == nil {
		t.Error("the backup's history was left in the memory folder")
	}
	for _, f := range user.deps.History.Check() {
		t.Errorf("doctor's history finding after the restore: %+v", f)
	}

	// A backup of another home (its own lineage): its commits are copied in, readable from the ref.
	other, _ := historyAPIs(t)
	mustCall(t, other, "history.enable", `{}`)
	mustCall(t, other, "memory.write", `{"scope":"global","type":"user","slug":"likes-coffee","title":"Coffee","body":"Drinks coffee.","confidence":"medium","source_quote":"coffee"}`)
	foreign := mustCall(t, other, "backup.create", `{"to":"`+filepath.Join(t.TempDir(), "other.tar.gz")+`"}`).(backup.Result)
	otherHead := mustCall(t, other, "history.status", `{}`).(HistoryStatus).Head
	rr = mustCall(t, user, "backup.restore", `{"path":"`+foreign.Path+`"}`).(backup.RestoreResult)
	repo, err := git.PlainOpen(user.deps.Store.Root())
	if err != nil {
		t.Fatal(err)
	}
	r, err := repo.Reference(plumbing.ReferenceName(rr.BackupHistory), true)
	if err != nil || r.Hash().String() != otherHead {
		t.Fatalf("the other home's head as %s: %v, %v", rr.BackupHistory, r, err)
	}
	if c, err := repo.CommitObject(r.Hash()); err != nil || c.NumParents() == 0 && otherHead == "" {
		t.Fatalf("the other home's commit is not readable here: %v", err)
	}
	if now := mustCall(t, user, "history.status", `{}`).(HistoryStatus); now.Commits != st.Commits+1 {
		t.Errorf("this home's history after the second restore: %d commits, want %d", now.Commits, st.Commits+1)
	}
}
