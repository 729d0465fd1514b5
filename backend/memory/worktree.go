package memory

import (
	"path/filepath"
	"strings"
)

// trustFolder is the folder whose trust a workdir shares: the main work tree of the repository
// when wd is a linked worktree git registered (coding agents work in worktrees all day, and
// each must not need the person's word), wd itself otherwise. It returns the files read.
//
// A linked worktree's .git is a file "gitdir: <repo>/.git/worktrees/<name>"; git writes the
// way back in that folder's "gitdir" file, naming the worktree's .git file. Both ends must
// agree: a .git file alone is content anyone can put in an archive, but the back-link lives
// inside the person's own repository, which only git (run by the person) writes.
func trustFolder(wd string) (string, []string) {
	dotGit := filepath.Join(wd, ".git")
	admin, err := gitdirOf(wd)
	if err != nil {
		return wd, nil // a folder (a clone's own repository), none, or not a gitdir file
	}
	back, common := filepath.Join(admin, "gitdir"), filepath.Join(admin, "commondir")
	files := []string{back, common}
	if filepath.Base(filepath.Dir(admin)) != "worktrees" {
		return wd, files // a submodule's or a separate git dir: no repository to share with
	}
	gitDir := filepath.Dir(filepath.Dir(admin))
	link, err := readSmallFile(back, maxIDFileBytes)
	if err != nil {
		return wd, files
	}
	named := strings.TrimSpace(string(link))
	if !filepath.IsAbs(named) {
		named = filepath.Join(admin, named)
	}
	if !samePath(named, dotGit) {
		return wd, files
	}
	if dir, ok := commonDirOf(admin); ok && !samePath(dir, gitDir) {
		return wd, files
	}
	main := gitDir
	if filepath.Base(gitDir) == ".git" {
		main = filepath.Dir(gitDir)
	}
	if canon, err := filepath.EvalSymlinks(main); err == nil {
		return canon, files
	}
	return wd, files
}

// samePath reports whether a and b name one file once symlinks are resolved.
func samePath(a, b string) bool {
	ca, err1 := filepath.EvalSymlinks(a)
	cb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ca == cb
}
