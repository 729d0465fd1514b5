package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// sync_net.go holds the steps of a sync that talk to the remote, which run outside the
// store's writer lock (see syncOnce), and the lock that runs syncs one at a time instead.

// syncLockName is the file in .git whose flock one sync of the home holds at a time.
const syncLockName = "engram-sync.flock"

// lockSync waits until no other sync of the home runs (in this process or another) and
// returns its release. No repository: nothing to lock (the checks that follow say so).
func (r *Repo) lockSync(ctx context.Context) (func(), error) {
	f, err := os.OpenFile(filepath.Join(r.gitDir(), syncLockName), os.O_RDWR|os.O_CREATE, 0o600)
	if errors.Is(err, os.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("history: unable to lock the sync: %w", err)
	}
	for tryFlock(f) == flockBusy {
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return func() { f.Close() }, nil
}

// openFresh opens the repository through a handle of its own, for the network steps that run
// beside commits made through the shared one (open); a handle reads the list of packfiles
// once, and the shared one sees the fetched pack at its next open.
func (r *Repo) openFresh() (*git.Repository, error) {
	repo, err := git.PlainOpen(r.root)
	if err != nil {
		return nil, fmt.Errorf("history: unable to open repository %s: %w", r.root, err)
	}
	return withWholePacks(repo, r.gitDir()), nil
}

// fetch brings the remote's branch into the repository (its objects and the remote-tracking
// branch), outside the writer lock. It reports whether there may be something to merge.
func (r *Repo) fetch(ctx context.Context, res *SyncResult) (bool, error) {
	repo, err := r.openFresh()
	if err != nil {
		return false, err
	}
	if syncStageHook != nil {
		syncStageHook("fetching", r.gitDir())
	}
	if dir := localPath(res.Remote); dir != "" {
		res.Fetched, err = r.fetchLocal(repo, dir)
		if err != nil {
			return false, remoteFailed("fetch", res.Remote, err)
		}
		return res.Fetched, nil
	}
	auth, ca, done, err := r.remoteOptions(res.Remote)
	defer done()
	if err != nil {
		return false, remoteFailed("fetch", res.Remote, err)
	}
	err = repo.FetchContext(ctx, &git.FetchOptions{RemoteName: RemoteName, Auth: auth, CABundle: ca})
	switch {
	case err == nil || errors.Is(err, git.NoErrAlreadyUpToDate):
		if _, err := repo.Reference(plumbing.NewRemoteReferenceName(RemoteName, Branch.Short()), true); err != nil {
			// Branches, none of them main: a repository of something else, or memories.
			refs, err := repo.References()
			if err != nil {
				return false, fmt.Errorf("history: unable to list the fetched branches: %w", err)
			}
			remotes := storer.NewReferenceFilteredIter(func(ref *plumbing.Reference) bool { return ref.Name().IsRemote() }, refs)
			return false, foreignBranches(repo, remotes, res.Remote)
		}
		res.Fetched = err == nil
		return true, nil // a branch fetched before and not merged yet is merged now
	case errors.Is(err, transport.ErrEmptyRemoteRepository), errors.Is(err, git.NoMatchingRefSpecError{}):
		return false, nil // a new remote: the push fills it
	}
	return false, remoteFailed("fetch", res.Remote, err)
}

// push sends head to the remote, outside the writer lock.
func (r *Repo) push(ctx context.Context, res *SyncResult, head plumbing.Hash) error {
	repo, err := r.openFresh()
	if err != nil {
		return err
	}
	if dir := localPath(res.Remote); dir != "" {
		res.Pushed, err = pushLocal(repo, dir, head)
		var he *Error
		if err != nil && !errors.Is(err, errRemoteMoved) && !(errors.As(err, &he) && he.Code == CodeRemoteLocked) {
			return remoteFailed("push", res.Remote, err)
		}
		return err
	}
	auth, ca, done, err := r.remoteOptions(res.Remote)
	defer done()
	if err != nil {
		return remoteFailed("push", res.Remote, err)
	}
	err = repo.PushContext(ctx, &git.PushOptions{RemoteName: RemoteName, Auth: auth, CABundle: ca,
		RefSpecs: []config.RefSpec{config.RefSpec(Branch.String() + ":" + Branch.String())}})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		if errors.Is(err, git.ErrNonFastForwardUpdate) {
			return errRemoteMoved
		}
		return remoteFailed("push", res.Remote, err)
	}
	res.Pushed = err == nil
	return nil
}
