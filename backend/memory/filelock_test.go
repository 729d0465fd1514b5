package memory

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFileLockTryLockRefusesASecondHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".organizer.lock")
	a, err := OpenFileLock(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenFileLock(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if ok, err := a.TryLock(); !ok || err != nil {
		t.Fatalf("first TryLock = %v %v", ok, err)
	}
	if ok, err := b.TryLock(); ok || err != nil {
		t.Fatalf("second holder took a held lock: %v %v", ok, err)
	}
	a.Unlock()
	if ok, err := b.TryLock(); !ok || err != nil {
		t.Fatalf("TryLock after Unlock = %v %v", ok, err)
	}
	b.Unlock()
}

func TestWriteFileAtomicCreatesTheFolderAndLeavesNoTemp(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "manifest.json")
	for _, data := range []string{"one", "two"} {
		if err := WriteFileAtomic(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != data {
			t.Fatalf("content = %q, want %q", got, data)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("folder holds %d entries, want only the file", len(entries))
	}
}
