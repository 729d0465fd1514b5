package history

import (
	"fmt"
	"os"
	"path/filepath"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// localPath returns the folder of a remote on this machine (a path or file:// URL), "" for a
// network remote. Local remotes are read and written directly, object by object: go-git's
// file transport needs the git binaries, and its in-process server refuses a fetch whose
// client has commits it lacks (two machines' unrelated first commits).
func localPath(url string) string {
	ep, err := transport.NewEndpoint(url)
	if err != nil || ep.Protocol != "file" {
		return ""
	}
	return ep.Path
}

// IsFolderRemote reports whether url names a folder of this machine (a path or file://) rather
// than another machine (SSH, HTTPS, git). A url that is no remote at all counts as a folder;
// CheckRemote tells it apart first.
func IsFolderRemote(url string) bool {
	ep, err := transport.NewEndpoint(url)
	return err != nil || ep.Protocol == "file"
}

// openLocal opens a local remote (bare or not).
func openLocal(dir string) (*git.Repository, error) {
	if _, err := repairPackIndexes(filepath.Join(localGitDir(dir), "objects", "pack")); err != nil {
		return nil, err
	}
	repo, err := git.PlainOpen(dir)
	if err != nil {
		return nil, fmt.Errorf("history: unable to open remote %s: %w", dir, err)
	}
	if info, err := os.Stat(filepath.Join(localGitDir(dir), "objects")); err == nil && info.IsDir() {
		repo = withWholePacks(repo, localGitDir(dir))
	}
	return repo, nil
}

// branchOf returns the hash the branch points at in repo, zero when it has none.
func branchOf(repo *git.Repository) plumbing.Hash {
	ref, err := repo.Reference(plumbing.NewBranchReferenceName(Branch.Short()), true)
	if err != nil {
		return plumbing.ZeroHash
	}
	return ref.Hash()
}

// fetchLocal copies the remote branch's missing objects in and sets refs/remotes/origin/main
// (whole: setRef).
func (r *Repo) fetchLocal(repo *git.Repository, dir string) (bool, error) {
	remote, err := openLocal(dir)
	if err != nil {
		return false, err
	}
	h := branchOf(remote)
	if h.IsZero() {
		branches, err := remote.Branches()
		if err != nil {
			return false, fmt.Errorf("history: unable to list the remote's branches: %w", err)
		}
		return false, foreignBranches(remote, branches, dir)
	}
	if err := copyCommit(remote.Storer, repo.Storer, h); err != nil {
		return false, err
	}
	ref := plumbing.NewHashReference(plumbing.NewRemoteReferenceName(RemoteName, Branch.Short()), h)
	if err := r.setRef(ref); err != nil {
		return false, fmt.Errorf("history: unable to record the fetched branch: %w", err)
	}
	return true, nil
}

// pushLocal copies our branch's missing objects out and moves the remote's branch, only if
// it is still where the fetch saw it (or ours already contains it).
func pushLocal(repo *git.Repository, dir string, ours plumbing.Hash) (bool, error) {
	remote, err := openLocal(dir)
	if err != nil {
		return false, err
	}
	cur := branchOf(remote)
	if cur == ours {
		return false, nil
	}
	if !cur.IsZero() {
		oc, err := repo.CommitObject(ours)
		if err != nil {
			return false, fmt.Errorf("history: unable to read commit %s: %w", ours, err)
		}
		rc, err := repo.CommitObject(cur)
		if err != nil { // the remote has a commit we never fetched
			return false, errRemoteMoved
		}
		if ok, err := rc.IsAncestor(oc); err != nil || !ok {
			return false, errRemoteMoved
		}
	}
	if err := copyCommit(repo.Storer, remote.Storer, ours); err != nil {
		return false, err
	}
	if err := moveRemoteBranch(remote, dir, cur, ours); err != nil {
		return false, err
	}
	return true, nil
}

// copyCommit copies commit h and everything it reaches that dst lacks; a commit dst already
// has is taken to come with its whole past (both sides only ever store complete histories).
// The objects go over as one packfile when dst takes one (a folder of thousands of loose
// objects is most of a first sync's cost otherwise).
func copyCommit(src, dst storer.EncodedObjectStorer, h plumbing.Hash) error {
	var missing []plumbing.Hash
	stack := []plumbing.Hash{h}
	seen := map[plumbing.Hash]bool{}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[c] || dst.HasEncodedObject(c) == nil {
			continue
		}
		seen[c] = true
		commit, err := object.GetCommit(src, c)
		if err != nil {
			return fmt.Errorf("history: unable to read commit %s: %w", c, err)
		}
		if err := missingTree(src, dst, commit.TreeHash, seen, &missing); err != nil {
			return err
		}
		missing = append(missing, c)
		stack = append(stack, commit.ParentHashes...)
	}
	if len(missing) == 0 {
		return nil
	}
	if pw, ok := dst.(storer.PackfileWriter); ok {
		w, err := pw.PackfileWriter()
		if err != nil {
			return fmt.Errorf("history: unable to write a packfile: %w", err)
		}
		if _, err := packfile.NewEncoder(w, src, false).Encode(missing, 0); err != nil {
			w.Close()
			return fmt.Errorf("history: unable to write a packfile: %w", err)
		}
		if err := w.Close(); err != nil {
			return fmt.Errorf("history: unable to write a packfile: %w", err)
		}
		return nil
	}
	for _, m := range missing {
		obj, err := src.EncodedObject(plumbing.AnyObject, m)
		if err != nil {
			return fmt.Errorf("history: unable to read object %s: %w", m, err)
		}
		if _, err := dst.SetEncodedObject(obj); err != nil {
			return fmt.Errorf("history: unable to copy object %s: %w", m, err)
		}
	}
	return nil
}

// missingTree lists a tree and the blobs and subtrees under it that dst lacks.
func missingTree(src, dst storer.EncodedObjectStorer, h plumbing.Hash, seen map[plumbing.Hash]bool, out *[]plumbing.Hash) error {
	if seen[h] || dst.HasEncodedObject(h) == nil {
		return nil
	}
	seen[h] = true
	t, err := object.GetTree(src, h)
	if err != nil {
		return fmt.Errorf("history: unable to read tree %s: %w", h, err)
	}
	for _, e := range t.Entries {
		switch {
		case e.Mode == filemode.Dir:
			if err := missingTree(src, dst, e.Hash, seen, out); err != nil {
				return err
			}
		case e.Mode.IsFile() && !seen[e.Hash] && dst.HasEncodedObject(e.Hash) != nil:
			seen[e.Hash] = true
			*out = append(*out, e.Hash)
		}
	}
	*out = append(*out, h)
	return nil
}
