package backup

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// keepHistory copies the memory folder's git history (root/.git) into the staged memory folder
// when the archive holds none (a backup made before history was turned on), so the swap puts
// it back instead of dropping it. An in-place restore of such a backup removed .git with every
// commit in it and turned history off without a word (the commits were only in the pre-restore
// backup); now the history goes on, and the restored files are committed on top of it
// (api: "backup restored"), so every earlier version stays reachable. A copy, not a move: a
// swap that fails or is killed leaves the live .git as it was. The caller holds the store's
// lock, so no commit lands while it copies. It reports whether it copied.
func keepHistory(root, staged string) (bool, error) {
	src := filepath.Join(root, ".git")
	dst := filepath.Join(staged, ".git")
	if fi, err := os.Lstat(src); err != nil || !fi.IsDir() {
		return false, nil
	}
	if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
		return false, nil // the archive's own history, or something in its place
	}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o700)
		case d.Type().IsRegular():
			return copyOne(p, to)
		}
		return nil // a link or a socket in .git is none of git's data
	})
	if err != nil {
		os.RemoveAll(dst)
		return false, fmt.Errorf("backup: unable to keep the git history %s: %w", src, err)
	}
	return true, nil
}

func copyOne(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
