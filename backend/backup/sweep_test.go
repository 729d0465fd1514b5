package backup

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"engram/backend/memory"
)

// A backup written with --to into a folder of the person's leaves their own ".backup-*"
// folders alone, however old: only work folders a backup marked as its own are swept there
// (the sweep removed any stale ".backup-*", photos included). In the home's backups folder a
// stale unmarked one (an older build's) still goes.
func TestSweepLeavesThePersonsFolders(t *testing.T) {
	ctx := context.Background()
	st, err := memory.Open(ctx, t.TempDir(), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	docs := t.TempDir()
	old := time.Now().Add(-time.Hour)
	mk := func(dir, name string, marked bool) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "holiday.jpg"), []byte("a photo"), 0o600); err != nil {
			t.Fatal(err)
		}
		if marked {
			if err := markWork(p); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range []string{filepath.Join(p, "holiday.jpg"), filepath.Join(p, workMark), p} {
			_ = os.Chtimes(f, old, old)
		}
		return p
	}
	photos := mk(docs, ".backup-photos", false)
	leftover := mk(docs, ".backup-123", true)
	ownDir := DefaultDir(st.Home())
	olderBuild := mk(ownDir, ".backup-456", false)

	if _, err := Create(ctx, st, Options{Dest: filepath.Join(docs, "engram"+Ext)}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(photos, "holiday.jpg")); err != nil {
		t.Fatalf("the person's folder was swept: %v", err)
	}
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Fatalf("a marked leftover outlived the backup: %v", err)
	}
	if _, err := Create(ctx, st, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(olderBuild); !os.IsNotExist(err) {
		t.Fatalf("an unmarked leftover in the home's backups folder outlived the backup: %v", err)
	}
}
