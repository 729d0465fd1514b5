package history

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"

	"engram/backend/memory"
)

// setRef moves a reference by writing its file whole and renaming it into place. go-git's
// own SetReference opens the file truncated and then writes it: a process killed between the
// two left an empty branch file, and the next commit, finding no branch, started a new history
// holding only its own files — every memory committed before was missing at HEAD (the faults
// suite's kill-git-commit scenario, about one run in five). The caller holds the store's lock,
// so nothing else moves the reference meanwhile.
func (r *Repo) setRef(ref *plumbing.Reference) error {
	path := filepath.Join(r.gitDir(), filepath.FromSlash(ref.Name().String()))
	// The folders under .git, never .git itself: one moved away meanwhile (a restore in place)
	// must not be made again holding only this reference.
	if _, err := os.Stat(r.gitDir()); err != nil {
		return fmt.Errorf("history: unable to move %s: %w", ref.Name(), err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("history: unable to move %s: %w", ref.Name(), err)
	}
	// The temporary file is made in the .git folder itself, not beside the reference: one left
	// in refs/ by a kill would read as a branch of its own.
	if err := memory.WriteWholeDurable(path, r.gitDir(), refTempPrefix, []byte(ref.Hash().String()+"\n")); err != nil {
		return fmt.Errorf("history: unable to move %s: %w", ref.Name(), err)
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
