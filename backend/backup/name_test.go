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
	// Newest first: the last one written in the second first (name order put "…Z" before
	// "…Z-3", and Prune keeps by this order).
	for i, w := range []string{want[2], want[1], want[0]} {
		if list[i].Name != w {
			t.Fatalf("List order %v, want %s at %d", []string{list[0].Name, list[1].Name, list[2].Name}, w, i)
		}
	}
}

// A pre-restore backup is ordered by its time among the others, not before all of them.
func TestListOrdersByTimeAcrossKinds(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"engram-pre-restore-20261201T080000Z.tar.gz", "engram-backup-20261205T080000Z.tar.gz", "engram-backup-20261130T080000Z.tar.gz"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	list, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{list[0].Name, list[1].Name, list[2].Name}
	if got[0] != "engram-backup-20261205T080000Z.tar.gz" || got[1] != "engram-pre-restore-20261201T080000Z.tar.gz" {
		t.Fatalf("order %v", got)
	}
}
