package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"

	"engram/backend/api"
)

// TestHistoryVerbs runs git history end to end through the CLI, one process per verb as a
// person would: enable, versions with diffs (a hand edit made between two runs is committed
// by the next one as "hand"), restore, sync to a bare repository, and the audit log still
// reachable with --audit.
func TestHistoryVerbs(t *testing.T) {
	h := newHome(t)
	if out := h.ok("history", "status"); !strings.Contains(out, "Git history is off") {
		t.Fatalf("status: %s", out)
	}
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "tea-pref", "--title", "Tea",
		"--body", "Drinks green tea.", "--quote", "green tea", "--confidence", "medium")
	if out := h.ok("history", "enable"); !strings.Contains(out, "Git history is on: 1 commits") {
		t.Fatalf("enable: %s", out)
	}
	file := filepath.Join(h.dir, "memory", "global", "user", "tea-pref.md")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), "Drinks green tea.", "Drinks oolong tea.", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	out := h.ok("history", "tea-pref")
	if !strings.Contains(out, "hand: edits found at start") || !strings.Contains(out, "-Drinks green tea.") || !strings.Contains(out, "+Drinks oolong tea.") {
		t.Fatalf("versions: %s", out)
	}
	var vs api.VersionsResult
	if err := json.Unmarshal([]byte(h.ok("history", "tea-pref", "--json")), &vs); err != nil || len(vs.Versions) != 2 {
		t.Fatalf("versions --json: %v %+v", err, vs)
	}
	if out := h.ok("history", "restore", "tea-pref", vs.Versions[1].Short); !strings.Contains(out, "Restored tea-pref") {
		t.Fatalf("restore: %s", out)
	}
	if out := h.ok("show", "tea-pref"); !strings.Contains(out, "Drinks green tea.") {
		t.Fatalf("after restore: %s", out)
	}
	if code, _, errs := h.run("", "history", "restore", "tea-pref"); code != 2 || !strings.Contains(errs, "SLUG|ID COMMIT") {
		t.Fatalf("restore without commit: %d %s", code, errs)
	}
	if code, _, errs := h.run("", "sync"); code != 1 || !strings.Contains(errs, "engram sync --remote URL") {
		t.Fatalf("sync without remote: %d %s", code, errs)
	}
	bare := filepath.Join(t.TempDir(), "remote.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	// A folder named relative to the working directory is remembered by its full path; a
	// remote that is no remote is refused with its own message.
	t.Chdir(filepath.Dir(bare))
	if out := h.ok("sync", "--remote", "remote.git"); !strings.Contains(out, "Sent this machine's changes to "+bare) {
		t.Fatalf("sync: %s", out)
	}
	missing := filepath.Join(filepath.Dir(bare), "no-such-folder.git")
	if code, _, errs := h.run("", "sync", "--remote", "no-such-folder.git"); code != 1 || !strings.Contains(errs, missing+" holds no git repository") {
		t.Fatalf("sync to a relative name that is no folder: %d %s", code, errs)
	}
	if code, _, errs := h.run("", "sync", "--remote", "-x"); code == 0 || !strings.Contains(errs, "-x") {
		t.Fatalf("sync to a remote that is no remote: %d %s", code, errs)
	}
	if out := h.ok("history", "status"); !strings.Contains(out, "Sync remote: "+bare) {
		t.Fatalf("status with remote: %s", out)
	}
	var audit api.HistoryResult
	if err := json.Unmarshal([]byte(h.ok("history", "tea-pref", "--audit", "--json")), &audit); err != nil || len(audit.Entries) < 2 {
		t.Fatalf("audit: %v %+v", err, audit)
	}
	if out := h.ok("history", "disable"); !strings.Contains(out, "Git history is off; the 3 commits") {
		t.Fatalf("disable: %s", out)
	}
}

// A memory deleted and purged from the trash (here the trash emptied by hand) could not be
// found or restored through history. "history deleted" lists it with the command that brings
// it back, and "history restore PATH COMMIT" does.
func TestHistoryBringsBackAPurgedMemory(t *testing.T) {
	h := newHome(t)
	h.ok("history", "enable")
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "tea-pref", "--title", "Tea",
		"--body", "Drinks green tea.", "--quote", "green tea", "--confidence", "medium")
	h.ok("delete", "tea-pref")
	trash := filepath.Join(h.dir, "memory", ".trash")
	if err := os.RemoveAll(trash); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := h.run("", "restore", "tea-pref"); code == 0 {
		t.Fatal("restored from an emptied trash")
	}
	out := h.ok("history", "deleted")
	if !strings.Contains(out, "tea-pref  “Tea”  deleted") || !strings.Contains(out, "engram history restore global/user/tea-pref.md ") {
		t.Fatalf("deleted: %s", out)
	}
	var res api.DeletedResult
	if err := json.Unmarshal([]byte(h.ok("history", "deleted", "--json")), &res); err != nil || len(res.Memories) != 1 {
		t.Fatalf("deleted --json: %v %+v", err, res)
	}
	if out := h.ok("history", "restore", res.Memories[0].Path, res.Memories[0].Short); !strings.Contains(out, "Brought tea-pref back") {
		t.Fatalf("restore: %s", out)
	}
	if out := h.ok("show", "tea-pref"); !strings.Contains(out, "Drinks green tea.") {
		t.Fatalf("after restore: %s", out)
	}
	if out := h.ok("history", "deleted"); !strings.Contains(out, "no deleted memory") {
		t.Fatalf("deleted after restore: %s", out)
	}
}

// Two machines on one remote: a sync that merged the other machine's commits and then sent
// this machine's said only "Merged …: 0 files changed here" — the push went unsaid.
func TestSyncThatMergedAndSentSaysBoth(t *testing.T) {
	bare := filepath.Join(t.TempDir(), "remote.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	a, b := newHome(t), newHome(t)
	for _, h := range []*home{a, b} {
		h.ok("history", "enable")
	}
	a.ok("write", "--scope", "global", "--type", "user", "--slug", "tea-pref", "--title", "Tea", "--body", "Drinks green tea.")
	a.ok("sync", "--remote", bare)
	b.ok("write", "--scope", "global", "--type", "user", "--slug", "coffee", "--title", "Coffee", "--body", "No coffee after noon.")
	b.ok("sync", "--remote", bare) // a merge commit, sent
	a.ok("update", "tea-pref", "--body", "Drinks oolong tea.", "--replace")
	out := a.ok("sync")
	if !strings.Contains(out, "Merged "+bare) || !strings.Contains(out, "Sent this machine's changes to "+bare+" too.") {
		t.Fatalf("merge and send: %s", out)
	}
	if out := b.ok("sync"); !strings.Contains(out, "1 memory") {
		t.Fatalf("the other machine did not get the change: %s", out)
	}
	if out := b.ok("show", "tea-pref"); !strings.Contains(out, "Drinks oolong tea.") {
		t.Fatalf("after sync: %s", out)
	}
}
