package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A home that cannot be made (a file in its place) is said in words, in the person's
// language, not as Go's "mkdir …: not a directory".
func TestUnusableHomeSaysWhy(t *testing.T) {
	h := newHome(t)
	file := filepath.Join(t.TempDir(), "not-a-home")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.dir = file
	code, _, errs := h.run("", "list")
	if code != 1 || !strings.Contains(errs, "cannot be used") || !strings.Contains(errs, "a part of its path is a file") || strings.Contains(errs, "mkdir") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}
