package history

import (
	"fmt"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// foreignBranches refuses a remote without Engram's branch (main) whose other branches hold
// files no memory folder versions: a project's repository whose branch is master, named as
// the remote by mistake. It was taken for an empty remote, and the first sync pushed every
// memory to it as a new main branch — where it may be public — since the unrelated-history
// check (foreignTree) only looks at a main the remote has. Branches of memory files alone
// (Engram's own, under another name) are no reason to refuse. repo holds the branches' objects;
// each branch's newest tree is checked.
func foreignBranches(repo *git.Repository, branches storer.ReferenceIter, remote string) error {
	defer branches.Close()
	var found error
	err := branches.ForEach(func(ref *plumbing.Reference) error {
		if ref.Type() != plumbing.HashReference || ref.Name().Short() == Branch.Short() ||
			ref.Name().Short() == RemoteName+"/"+Branch.Short() {
			return nil
		}
		c, err := repo.CommitObject(ref.Hash())
		if err != nil {
			return nil // not a commit (a tag's object, a branch not fetched): nothing to judge
		}
		files, err := flatten(repo, c.TreeHash)
		if err != nil {
			return fmt.Errorf("history: unable to read branch %s of %s: %w", ref.Name().Short(), redact(remote), err)
		}
		if err := foreignTree(files, remote); err != nil {
			found = err
			return storer.ErrStop
		}
		return nil
	})
	if err != nil {
		return err
	}
	return found
}
