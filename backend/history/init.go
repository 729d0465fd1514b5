package history

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
)

// initTempPrefix names the folder a new repository is made in before it moves into the memory
// folder. A dot folder: the scan and the watcher pass it by.
const initTempPrefix = ".git-init-"

// ensureRepo makes the memory folder a repository unless it is one already. go-git's init
// writes the folders, then HEAD, then the config, one file at a time, and an Enable killed
// between them left a .git that did not open; since it existed, every later Enable skipped the
// init and failed, for good. Now a new repository is made in a temporary folder and moved in
// by one rename, and a .git such a kill left (by an older build) is made again — only when it
// holds nothing of a history. The caller holds the writer lock.
func (r *Repo) ensureRepo() error {
	r.dropInitTemps()
	if r.Exists() {
		if !interruptedInit(r.gitDir()) {
			return nil
		}
		r.log.Warn("history: the repository's creation was cut short; it is made again", "path", r.gitDir())
		if err := os.RemoveAll(r.gitDir()); err != nil {
			return fmt.Errorf("history: unable to remove the unfinished repository %s: %w", r.gitDir(), err)
		}
		r.mu.Lock()
		r.repo = nil
		r.mu.Unlock()
	}
	return r.initRepo()
}

// initRepo creates the repository in a temporary folder beside the memories, syncs it and
// renames its .git into the memory folder.
func (r *Repo) initRepo() error {
	tmp, err := os.MkdirTemp(r.root, initTempPrefix)
	if err != nil {
		return fmt.Errorf("history: unable to create repository in %s: %w", r.root, err)
	}
	defer os.RemoveAll(tmp)
	if _, err := git.PlainInitWithOptions(tmp, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: Branch},
	}); err != nil {
		return fmt.Errorf("history: unable to create repository in %s: %w", r.root, err)
	}
	// On disk before the rename makes it the memory folder's: a power cut must not leave a
	// .git of empty files either.
	if err := syncTree(filepath.Join(tmp, ".git")); err != nil {
		return fmt.Errorf("history: unable to create repository in %s: %w", r.root, err)
	}
	if r.initHook != nil {
		r.initHook(tmp)
	}
	if err := os.Rename(filepath.Join(tmp, ".git"), r.gitDir()); err != nil {
		return fmt.Errorf("history: unable to create repository in %s: %w", r.root, err)
	}
	if err := syncPath(r.root); err != nil {
		return fmt.Errorf("history: unable to create repository in %s: %w", r.root, err)
	}
	return nil
}

// dropInitTemps removes the temporary folders of inits that were killed before their rename.
func (r *Repo) dropInitTemps() {
	entries, err := os.ReadDir(r.root)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), initTempPrefix) {
			if err := os.RemoveAll(filepath.Join(r.root, e.Name())); err != nil {
				r.log.Warn("history: unable to remove an unfinished repository", "path", e.Name(), "err", err)
			}
		}
	}
}

// interruptedInit reports whether gitDir is what an init cut short leaves: nothing of a history
// (no object, no branch or tag, no packed refs) and a HEAD or a config that is missing or cut
// short. A .git that holds any history is never taken for one, whatever else is wrong with it:
// that is the person's to rescue (doctor says how).
func interruptedInit(gitDir string) bool {
	if holdsHistory(gitDir) {
		return false
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	// go-git and git end HEAD with a newline: one without was cut short.
	if err != nil || len(head) == 0 || head[len(head)-1] != '\n' {
		return true
	}
	data, err := os.ReadFile(filepath.Join(gitDir, "config"))
	if err != nil || len(data) == 0 || data[len(data)-1] != '\n' {
		return true
	}
	cfg := config.NewConfig()
	return cfg.Unmarshal(data) != nil
}

// holdsHistory reports whether gitDir has a file under objects or refs, or packed refs.
func holdsHistory(gitDir string) bool {
	if _, err := os.Lstat(filepath.Join(gitDir, "packed-refs")); err == nil {
		return true
	}
	found := errors.New("found")
	for _, sub := range []string{"objects", "refs"} {
		err := filepath.WalkDir(filepath.Join(gitDir, sub), func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return found // unreadable: not ours to judge empty
			}
			if !d.IsDir() {
				return found
			}
			return nil
		})
		if err != nil {
			return true
		}
	}
	return false
}

// syncTree fsyncs every file and folder under dir, the folders after what they hold.
func syncTree(dir string) error {
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		return syncPath(p)
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := syncPath(dirs[i]); err != nil {
			return err
		}
	}
	return nil
}

func syncPath(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
