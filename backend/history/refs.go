package history

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// setRef moves a reference by writing its file whole and renaming it into place. go-git's
// own SetReference opens the file truncated and then writes it: a process killed between the
// two left an empty branch file, and the next commit, finding no branch, started a new history
// holding only its own files — every memory committed before was missing at HEAD (the faults
// suite's kill-git-commit scenario, about one run in five). The caller holds the store's lock,
// so nothing else moves the reference meanwhile.
func (r *Repo) setRef(ref *plumbing.Reference) error {
	path := filepath.Join(r.gitDir(), filepath.FromSlash(ref.Name().String()))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("history: unable to move %s: %w", ref.Name(), err)
	}
	// The temporary file is made in the .git folder itself, not beside the reference: one left
	// in refs/ by a kill would read as a branch of its own.
	f, err := os.CreateTemp(r.gitDir(), refTempPrefix+"*")
	if err != nil {
		return fmt.Errorf("history: unable to move %s: %w", ref.Name(), err)
	}
	tmp := f.Name()
	_, err = f.WriteString(ref.Hash().String() + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("history: unable to move %s: %w", ref.Name(), err)
	}
	// What a process killed while writing left behind goes once it is clearly not being written.
	stale, _ := filepath.Glob(filepath.Join(r.gitDir(), refTempPrefix+"*"))
	for _, name := range stale {
		if info, err := os.Stat(name); err == nil && time.Since(info.ModTime()) > time.Hour {
			_ = os.Remove(name)
		}
	}
	return nil
}

const refTempPrefix = "engram-ref-"

// ErrBranchDamaged is a branch file that exists but names no commit: an older build killed
// while moving it (see setRef). Committing on top would start a new history without the old
// one, so commits are refused and doctor reports it (its fix sets the repository aside).
var ErrBranchDamaged = &Error{Code: CodeBranchDamaged, msg: "history: the branch file is empty or damaged (a process was killed while moving it)"}

// branchFileDamaged reports whether the branch's loose file exists yet go-git found no branch.
func (r *Repo) branchFileDamaged() bool {
	_, err := os.Stat(filepath.Join(r.gitDir(), filepath.FromSlash(plumbing.NewBranchReferenceName(Branch.Short()).String())))
	return err == nil
}
