package history

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	git "github.com/go-git/go-git/v5"
)

// A remote folder that holds no repository (a typo, a folder not yet made a bare repository)
// is named as such, with the command that makes one; it read "unable to open remote …:
// repository does not exist", in English in every language.
func TestSyncToAFolderWithoutARepository(t *testing.T) {
	st, r := openHome(t, t.TempDir(), true)
	good := filepath.Join(t.TempDir(), "good.git")
	if _, err := git.PlainInit(good, true); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Sync(context.Background(), st, good); err != nil {
		t.Fatal(err)
	}
	for _, remote := range []string{filepath.Join(t.TempDir(), "missing.git"), t.TempDir()} {
		_, err := r.Sync(context.Background(), st, remote)
		var he *Error
		if !errors.As(err, &he) || he.Code != CodeRemoteNotRepo || he.Args["Remote"] != remote {
			t.Fatalf("sync to %s: %v", remote, err)
		}
		// A mistyped remote does not replace the one that worked.
		if got := r.Remote(); got != good {
			t.Fatalf("remote after a failed sync to %s: %s", remote, got)
		}
	}
}
