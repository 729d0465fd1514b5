package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// engram backup → engram backup restore FILE --home DIR: the new home answers the same search;
// `engram restore` is still the trash verb; doctor --json lists findings with fix commands;
// vacuum and cleanup --dry-run run.
func TestBackupRestoreDoctorVacuumCleanupVerbs(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "prefers-tea", "--title", "Prefers tea",
		"--body", "Drinks green tea. 喜欢喝绿茶。", "--quote", "I only drink green tea", "--confidence", "high")
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "trashed-one", "--title", "Trashed",
		"--body", "goes to the trash")
	h.ok("delete", "trashed-one")
	to := filepath.Join(t.TempDir(), "b.tar.gz")
	out := h.ok("backup", "--to", to)
	if !strings.Contains(out, to) || !strings.Contains(out, "Backed up 1 memory,") {
		t.Fatalf("backup said: %s", out)
	}
	if out := h.ok("backup", "preview", to); !strings.Contains(out, "every checksum verified") {
		t.Fatalf("preview said: %s", out)
	}
	newHome := filepath.Join(t.TempDir(), "restored")
	if out := h.ok("backup", "restore", to, "--home", newHome); !strings.Contains(out, newHome) {
		t.Fatalf("restore said: %s", out)
	}
	other := &home{t: t, dir: newHome, cat: h.cat}
	if out := other.ok("search", "green tea"); !strings.Contains(out, "prefers-tea") {
		t.Fatalf("restored home search: %s", out)
	}
	if code, _, errs := h.run("", "backup", "restore", to, "--home", newHome); code == 0 || !strings.Contains(errs, "already holds memories") {
		t.Fatalf("restore into a full home: exit %d, %s", code, errs)
	}

	// A corrupt file is a doctor finding with the fix to run; doctor exits 1 for it.
	if err := os.WriteFile(filepath.Join(h.dir, "memory", "global", "user", "broken.md"), []byte("---\nid: [x\n---\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := h.run("", "doctor", "--json")
	var rep struct {
		OK       bool `json:"ok"`
		Findings []struct {
			Code, Fix, Message string
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 1 || rep.OK {
		t.Fatalf("doctor --json exit %d: %v\n%s", code, err, stdout)
	}
	found := false
	for _, f := range rep.Findings {
		if f.Code == "unparsable_file" && strings.Contains(f.Fix, "engram reindex") && strings.Contains(f.Message, "broken.md") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no unparsable_file finding: %+v", rep.Findings)
	}
	if _, human, _ := h.run("", "doctor"); !strings.Contains(human, "fix: $EDITOR") {
		t.Fatalf("doctor does not print the fix:\n%s", human)
	}
	if out := h.ok("vacuum"); !strings.Contains(out, "Index compacted") {
		t.Fatalf("vacuum said: %s", out)
	}
	if out := h.ok("cleanup", "--older-than", "30d", "--dry-run"); !strings.Contains(out, "Would remove 0 files") {
		t.Fatalf("cleanup said: %s", out)
	}
	if code, _, errs := h.run("", "cleanup", "--older-than", "soon"); code == 0 || !strings.Contains(errs, "is not an age") {
		t.Fatalf("bad age: exit %d %s", code, errs)
	}
	if out := h.ok("backup", "schedule", "--every", "24", "--keep", "3"); !strings.Contains(out, "every 24 hours") {
		t.Fatalf("schedule said: %s", out)
	}
	// A negative value given is refused and changes nothing (it was taken for "not given").
	for _, args := range [][]string{{"--every", "-3"}, {"--keep", "-1"}, {"--every", "-1"}} {
		code, _, errs := h.run("", append([]string{"backup", "schedule"}, args...)...)
		if code == 0 || !strings.Contains(errs, "schedule is not valid") {
			t.Fatalf("schedule %v: exit %d %s", args, code, errs)
		}
	}
	if out := h.ok("backup", "schedule"); !strings.Contains(out, "every 24 hours") || !strings.Contains(out, "newest 3") {
		t.Fatalf("schedule after refused changes: %s", out)
	}
}

// `engram backup restore` in place of a backup that has its own git history says both
// histories were kept and names the ref the backup's is under (in English and Chinese).
func TestRestoreInPlaceNamesTheBackupsHistory(t *testing.T) {
	h := newHome(t)
	h.ok("history", "enable")
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "prefers-tea", "--title", "Prefers tea",
		"--body", "Drinks green tea.", "--quote", "green tea", "--confidence", "high")
	to := filepath.Join(t.TempDir(), "b.tar.gz")
	h.ok("backup", "--to", to)
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "desk", "--title", "Desk",
		"--body", "Standing desk.", "--quote", "desk", "--confidence", "high")
	out := h.ok("backup", "restore", to)
	if !strings.Contains(out, "refs/backups/") || !strings.Contains(out, "history was kept") {
		t.Fatalf("restore said: %s", out)
	}
	if out := h.runZh("backup", "restore", to); !strings.Contains(out, "refs/backups/") || !strings.Contains(out, "保留了本主目录的 git 历史") {
		t.Fatalf("restore said in Chinese: %s", out)
	}
}
