package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// writeFileAtomic makes data appear at path whole or not at all: temp file in the same folder,
// fsync, rename, fsync the folder so the rename itself survives a crash.
// dirs, when not nil, collects the folder instead of syncing it now: a batch syncs each folder
// once before it commits and acknowledges, instead of once per item.
// check, when not nil, runs right before the file is put in place and may refuse: a hand edit
// that landed after the caller's version check must not be overwritten. With create the file
// is linked into place, which fails instead of replacing a file that appeared meanwhile.
func writeFileAtomic(path string, data []byte, dirs map[string]bool, check func() error, create bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("memory: unable to create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("memory: unable to create temp file: %w", err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			_ = os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("memory: unable to write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("memory: unable to sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("memory: unable to close %s: %w", path, err)
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	if create {
		switch err := placeNew(tmp, path, os.Link, renameNoReplace); {
		case errors.Is(err, fs.ErrExist):
			if check != nil {
				if cerr := check(); cerr != nil {
					return cerr
				}
			}
			return fmt.Errorf("memory: %s appeared while it was being written: %w", path, err)
		case err != nil:
			return fmt.Errorf("memory: unable to put %s in place: %w", path, err)
		}
	} else if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("memory: unable to rename into %s: %w", path, err)
	}
	ok = true
	if dirs != nil {
		dirs[dir] = true
		return nil
	}
	return syncDir(dir)
}

// syncDirs makes every collected folder's renames durable.
func syncDirs(dirs map[string]bool) error {
	for d := range dirs {
		if err := syncDir(d); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("memory: unable to open dir %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("memory: unable to sync dir %s: %w", dir, err)
	}
	return nil
}

// moveFile renames src to dst durably, creating dst's folder.
func moveFile(src, dst string, dirs map[string]bool) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Errorf("memory: unable to create %s: %w", filepath.Dir(dst), err)
	}
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("memory: unable to move %s: %w", src, err)
	}
	if dirs != nil {
		dirs[filepath.Dir(dst)], dirs[filepath.Dir(src)] = true, true
		return nil
	}
	if err := syncDir(filepath.Dir(dst)); err != nil {
		return err
	}
	return syncDir(filepath.Dir(src))
}

// trashName is where a deleted file goes: a timestamp keeps every deletion, even of one slug
// many times, and the original relative path stays readable in the name.
func trashName(rel string, now time.Time) string {
	return ".trash/" + now.UTC().Format("20060102T150405.000000000Z") + "__" + strings.ReplaceAll(rel, "/", "__")
}

// trashOrigin recovers the original relative path from a trash name.
func trashOrigin(trashRel string) (string, bool) {
	base := strings.TrimPrefix(trashRel, ".trash/")
	i := strings.Index(base, "__")
	if i < 0 {
		return "", false
	}
	return strings.ReplaceAll(base[i+2:], "__", "/"), true
}

// placeNew moves the written file tmp to path only if nothing is at path yet, else fails with
// fs.ErrExist and leaves tmp for the caller to remove. Two writers creating the same file (two
// processes claiming one project, a memory written twice at once) must not both win, so a
// plain rename, which replaces, is never used. In order of preference: a hard link (then tmp is
// removed); where the file system has none (FAT, some FUSE mounts answer EPERM), an exclusive
// rename (renameat2 RENAME_NOREPLACE); where neither exists, the name is claimed first by an
// O_EXCL create and the file renamed over the claim, which this writer then holds (a reader may
// see the empty claim for that moment; it is never a file another writer made).
func placeNew(tmp, path string, link, renameExcl func(oldpath, newpath string) error) error {
	err := link(tmp, path)
	if err == nil {
		_ = os.Remove(tmp)
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return err
	}
	err = renameExcl(tmp, path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	claim, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	err = claim.Close()
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(path) // the claim, empty: this writer made it
	}
	return err
}
