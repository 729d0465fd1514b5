package api

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"engram/backend/backup"
	"engram/backend/memory"
)

// A preview said only what the backup held: restoring an older backup over a home with newer
// memories, the person learnt only afterwards that a memory written since was gone and an
// edit made since undone (both kept in the pre-restore backup, which nothing named). The
// preview now lists, before anything is touched, what a restore in place would put the
// backup's version back over and what it would remove; a home like the backup has none.
func TestPreviewNamesWhatARestoreWouldReplace(t *testing.T) {
	home := t.TempDir()
	a := apiAt(t, home, memory.ActorUser)
	call(t, a, "memory.write", `{"scope":"global","type":"user","slug":"kept-as-is","title":"Kept","body":"never changed","confidence":"low"}`)
	call(t, a, "memory.write", `{"scope":"global","type":"user","slug":"edited-since","title":"Edited","body":"first words","confidence":"low"}`)
	res := call(t, a, "backup.create", `{"to":"`+filepath.Join(t.TempDir(), "old.tar.gz")+`"}`).(backup.Result)

	same := call(t, a, "backup.preview", `{"path":"`+res.Path+`"}`).(BackupPreview)
	if same.HomeDiff.Conflicts() || same.HomeDiff.OnlyInBackup != 0 {
		t.Fatalf("home as the backup: diff %+v", same.HomeDiff)
	}

	call(t, a, "memory.write", `{"scope":"global","type":"user","slug":"written-since","title":"Since","body":"newer memory","confidence":"low"}`)
	edited := filepath.Join(a.deps.Store.Root(), "global", "user", "edited-since.md")
	data, err := os.ReadFile(edited)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edited, append(data, []byte("\nA line added since.\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	before := tree(t, a.deps.Store.Root())

	pv := call(t, a, "backup.preview", `{"path":"`+res.Path+`"}`).(BackupPreview)
	want := backup.HomeDiff{Changed: []string{"global/user/edited-since.md"}, ChangedCount: 1,
		OnlyHere: []string{"global/user/written-since.md"}, OnlyHereCount: 1}
	if !reflect.DeepEqual(pv.HomeDiff, want) {
		t.Fatalf("preview's home diff = %+v, want %+v", pv.HomeDiff, want)
	}
	if pv.Memories != 2 || pv.Files != nil {
		t.Fatalf("preview's manifest %+v", pv.Manifest)
	}
	sameTree(t, before, tree(t, a.deps.Store.Root()))

	// What it named is what the restore does.
	call(t, a, "backup.restore", `{"path":"`+res.Path+`"}`)
	if _, err := os.Stat(filepath.Join(a.deps.Store.Root(), "global", "user", "written-since.md")); !os.IsNotExist(err) {
		t.Fatalf("written-since after the restore: %v", err)
	}
	after := call(t, a, "backup.preview", `{"path":"`+res.Path+`"}`).(BackupPreview)
	if after.HomeDiff.Conflicts() {
		t.Fatalf("after the restore the preview still differs: %+v", after.HomeDiff)
	}
}
