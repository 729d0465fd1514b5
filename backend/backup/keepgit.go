package backup

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// keepHistory copies the memory folder's git history (root/.git) into the staged memory folder,
// so the swap puts it back instead of dropping it, and the restored files are committed on top
// of it (api: "backup restored"), every earlier version still reachable.
//   - An archive without history (a backup made before history was turned on): an in-place
//     restore removed .git with every commit in it and turned history off without a word.
//   - An archive with its own history: the archive's .git replaced this home's, and the commits
//     made since the backup were only in the pre-restore backup. This home's history is kept
//     now and the archive's is added to it — its objects copied in, its head kept as the branch
//     ref (refs/backups/<stamp>) — so neither loses a commit. Unless this home's history cannot
//     be read (no head): then the archive's stands, as before.
//
// A copy, not a move: a swap that fails or is killed leaves the live .git as it was. The caller
// holds the store's lock, so no commit lands while it copies. It reports whether it kept this
// home's history and the ref that holds the archive's ("" when it had none).
func keepHistory(root, staged, stamp string) (kept bool, ref string, err error) {
	src := filepath.Join(root, ".git")
	dst := filepath.Join(staged, ".git")
	if fi, err := os.Lstat(src); err != nil || !fi.IsDir() {
		return false, "", nil
	}
	var theirs string // the archive's history, moved aside within the staging folder
	if fi, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
		if err != nil || !fi.IsDir() || headOf(src) == "" || headOf(dst) == "" {
			return false, "", nil // something else in its place, or a history without a head
		}
		theirs = filepath.Join(staged, ".git-of-the-backup")
		if err := os.Rename(dst, theirs); err != nil {
			return false, "", fmt.Errorf("backup: unable to set the backup's history aside: %w", err)
		}
		defer os.RemoveAll(theirs)
	}
	fail := func(err error) (bool, string, error) {
		os.RemoveAll(dst)
		if theirs != "" {
			os.Rename(theirs, dst)
		}
		return false, "", fmt.Errorf("backup: unable to keep the git history %s: %w", src, err)
	}
	if err := copyTree(src, dst, false); err != nil {
		return fail(err)
	}
	if theirs == "" {
		return true, "", nil
	}
	// Content-addressed: an object or pack this history has already is the same bytes.
	if err := copyTree(filepath.Join(theirs, "objects"), filepath.Join(dst, "objects"), true); err != nil {
		return fail(err)
	}
	ref = "refs/backups/" + stamp
	if err := os.MkdirAll(filepath.Join(dst, "refs", "backups"), 0o700); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(dst, filepath.FromSlash(ref)), []byte(headOf(theirs)+"\n"), 0o600); err != nil {
		return fail(err)
	}
	return true, ref, nil
}

// copyTree copies the regular files under from into to. skipExisting leaves a file to already
// has alone (objects); the info folder (alternates: other object stores to read) is not copied
// when it does, as an archive's must not point this history at other folders.
func copyTree(from, to string, skipExisting bool) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		if skipExisting && (rel == "info" || strings.HasPrefix(rel, "info"+string(filepath.Separator))) {
			return fs.SkipDir
		}
		target := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case d.Type().IsRegular():
			if skipExisting {
				if _, err := os.Lstat(target); err == nil {
					return nil
				}
			}
			return copyOne(p, target)
		}
		return nil // a link or a socket in .git is none of git's data
	})
}

var hexHash = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// headOf is the commit gitDir's HEAD names (through its branch, loose or packed), "" when it
// names none.
func headOf(gitDir string) string {
	data, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	head := strings.TrimSpace(string(data))
	name, isRef := strings.CutPrefix(head, "ref: ")
	if !isRef {
		if hexHash.MatchString(head) {
			return head
		}
		return ""
	}
	name = strings.TrimSpace(name)
	if !strings.HasPrefix(name, "refs/") || strings.Contains(name, "..") {
		return ""
	}
	if data, err := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(name))); err == nil {
		if h := strings.TrimSpace(string(data)); hexHash.MatchString(h) {
			return h
		}
	}
	packed, err := os.ReadFile(filepath.Join(gitDir, "packed-refs"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(packed), "\n") {
		if h, n, ok := strings.Cut(strings.TrimSpace(line), " "); ok && n == name && hexHash.MatchString(h) {
			return h
		}
	}
	return ""
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
