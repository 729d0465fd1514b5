package backup

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"engram/backend/memory"
)

// Two backups named by Engram in the same second both stay: the second used to be renamed
// over the first, which was then gone without a word.
func TestSameSecondBackupsKeepBoth(t *testing.T) {
	home := t.TempDir()
	at := time.Date(2026, 12, 6, 10, 30, 0, 0, time.UTC)
	st, err := memory.Open(context.Background(), home, memory.Options{Logger: slog.New(slog.DiscardHandler), Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var paths []string
	for i := 0; i < 3; i++ {
		res, err := Create(context.Background(), st, Options{})
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, res.Path)
	}
	want := []string{"engram-backup-20261206T103000Z.tar.gz", "engram-backup-20261206T103000Z-2.tar.gz", "engram-backup-20261206T103000Z-3.tar.gz"}
	for i, p := range paths {
		if filepath.Base(p) != want[i] {
			t.Fatalf("backup %d written to %s, want %s", i+1, filepath.Base(p), want[i])
		}
		if _, err := Preview(context.Background(), p, t.TempDir(), nil); err != nil {
			t.Fatalf("backup %d unreadable: %v", i+1, err)
		}
	}
	entries, err := os.ReadDir(filepath.Dir(paths[0]))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".gz" {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("%d archives in the folder, want 3", n)
	}
	list, err := List(filepath.Dir(paths[0]))
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 {
		t.Fatalf("List shows %d backups, want 3", len(list))
	}
}
