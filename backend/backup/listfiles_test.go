package backup

import (
	"net"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// An archive holds the memories and the agents' files, never this machine's running state: the
// index (copied apart), locks, the watcher's files and interrupted writes.
func TestListFilesLeavesRunningStateOut(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{
		"global/user/name.md", "agents/bot/kv.json", "daily/2026-12-01.md", ".trash/x.md",
		"index.sqlite3", "index.sqlite3-wal", ".lock", ".watch.lock", ".watch-sync-0123abcd",
		".tmp-123", "global/user/.tmp-9", "global/user/.watch-notes.md",
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The watcher's socket is this machine's running state too, not a special file to report.
	if l, err := net.Listen("unix", filepath.Join(root, ".watch.sock")); err == nil {
		defer l.Close()
	}
	got, left, err := listFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".trash/x.md", "agents/bot/kv.json", "daily/2026-12-01.md", "global/user/.watch-notes.md", "global/user/name.md"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("listed %q, want %q", got, want)
	}
	if len(left) != 0 {
		t.Fatalf("left out %+v: running state is no one's data", left)
	}
}
