package history

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"engram/backend/memory"
)

// Fix commands of the history's findings.
const (
	// FixCommitNow commits the files as they are (turning history on again is idempotent:
	// it commits what differs from HEAD, and nothing when nothing does).
	FixCommitNow = "engram history enable"
	// FixSetAside keeps a repository git cannot read out of the way and starts a new history
	// from the files; the old one stays on disk for whoever wants to rescue it.
	FixSetAside = "mv MEMORY/.git MEMORY/.git-broken && engram history enable"
)

// Check is doctor's look at the history (nothing while the folder was never a repository):
// a repository git cannot open or whose branch points at a missing commit, and memories on
// disk that differ from the last commit while history is on — edits no process committed
// (the watcher commits hand edits while an Engram process runs; the next start commits the
// rest, so a finding here means no process has run since, or a commit failed). Read-only: it
// hashes the files without writing a blob.
func (r *Repo) Check() []memory.Finding {
	if !r.Exists() {
		return nil
	}
	aside := func(err error) []memory.Finding {
		fix := withMemory(FixSetAside, r.root)
		if interruptedInit(r.gitDir()) {
			fix = FixCommitNow // it holds nothing: Enable makes it again
		}
		return []memory.Finding{{Code: "git_unreadable", Args: map[string]any{"Detail": err.Error()}, Fix: fix}}
	}
	repo, err := r.open()
	if err != nil {
		return aside(err)
	}
	head, err := r.head(repo)
	if err != nil {
		return aside(err)
	}
	if !r.Enabled() {
		return nil
	}
	committed := map[string]plumbing.Hash{}
	if head != nil {
		tree, err := head.Tree()
		if err != nil {
			return aside(err)
		}
		err = tree.Files().ForEach(func(f *object.File) error {
			if tracked(f.Name) {
				committed[f.Name] = f.Hash
			}
			return nil
		})
		if err != nil && !errors.Is(err, io.EOF) {
			return aside(err)
		}
	}
	changed := 0
	_ = r.eachTracked(func(rel, abs string) error {
		data, err := os.ReadFile(abs)
		if err != nil {
			return nil
		}
		h, ok := committed[rel]
		delete(committed, rel)
		if !ok || h != plumbing.ComputeHash(plumbing.BlobObject, data) {
			changed++
		}
		return nil
	})
	changed += len(committed) // committed, and gone from disk since
	if changed == 0 {
		return nil
	}
	return []memory.Finding{{Code: "git_uncommitted", Count: changed, Fix: FixCommitNow}}
}

// withMemory puts the memory folder, quoted for a POSIX shell, into a fix command.
func withMemory(fix, root string) string {
	return strings.ReplaceAll(fix, "MEMORY", "'"+strings.ReplaceAll(root, "'", `'\''`)+"'")
}
