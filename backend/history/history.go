// Package history keeps the memory folder in a git repository when the person turns it on:
// every apply_batch becomes one commit naming its actor and operations, hand edits are
// committed by the watcher, any version of a memory can be listed, diffed and restored, and a
// configured remote keeps several machines in step (see sync.go). Pure Go (go-git): no git
// binary is needed. The index, locks, trash and snapshots stay out of git (.gitignore).
package history

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"engram/backend/memory"
)

// Branch is the one branch Engram commits to and syncs.
const Branch = plumbing.Main

// disabledMarker inside .git turns history off while keeping every commit: enable removes it.
const disabledMarker = "engram-disabled"

// ignoreText keeps everything but the memories, the agents' kv.json files (and this file) out
// of git: the index and its WAL, the lock, the trash, the organizer's snapshots and temp files
// of writes in flight. Attach rewrites an older version Engram wrote (ignoreHeader).
const ignoreText = ignoreHeader + ` The index, the lock,
# the trash, the snapshots and temp files are this machine's own state.
*
!*/
!*.md
!/agents/*/kv.json
!/.gitignore
/.trash/
/.snapshots/
.tmp-*
`

// ignoreHeader starts every .gitignore Engram wrote; one that starts otherwise is the
// person's own and is never rewritten.
const ignoreHeader = "# Written by Engram: only the memories are versioned."

// Repo is the git history of one memory folder. Writes to it happen under the store's
// writer lock (the AppliedHook runs there; the other writers call Store.Locked or
// ExternalChange), so processes sharing the home never commit at once; mu guards the cached
// repository handle within this process.
type Repo struct {
	root string
	log  *slog.Logger
	now  func() time.Time

	mu   sync.Mutex
	repo *git.Repository
	// packs names the packfiles there were when repo was opened: go-git reads the list of
	// packfiles once per handle, so a pack written since (a sync's fetch, here or in another
	// process) is seen only through a new handle. The names, not the folder's modification
	// time: a pack renamed in within the same timestamp tick as an open left the handle
	// without it, and every read of its objects failed until another pack came.
	packs string
	// pending are paths whose commit failed: the next commit takes them along.
	pending map[string]bool
	// initHook, for tests, runs once a new repository is made, before it moves in.
	initHook func(tmp string)
	// auth authenticates syncs with SSH and HTTPS remotes (SetAuth); nil: go-git's defaults.
	auth *Auth
}

// New returns the history of the memory folder root; nothing is created until Enable.
func New(root string, log *slog.Logger) *Repo {
	if log == nil {
		log = slog.Default()
	}
	return &Repo{root: root, log: log, now: time.Now, pending: map[string]bool{}}
}

// Root is the memory folder.
func (r *Repo) Root() string { return r.root }

func (r *Repo) gitDir() string { return filepath.Join(r.root, ".git") }

// Exists reports whether the memory folder is a git repository (enabled or not).
func (r *Repo) Exists() bool {
	info, err := os.Stat(r.gitDir())
	return err == nil && info.IsDir()
}

// Enabled reports whether writes are committed: the folder is a repository and history was
// not turned off. Read from disk each time, so every process on the home agrees.
func (r *Repo) Enabled() bool {
	if !r.Exists() {
		return false
	}
	_, err := os.Stat(filepath.Join(r.gitDir(), disabledMarker))
	return errors.Is(err, os.ErrNotExist)
}

// open returns the repository handle, opening it once.
func (r *Repo) open() (*git.Repository, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	packs := packList(filepath.Join(r.gitDir(), "objects", "pack"))
	if r.repo != nil && packs == r.packs {
		return r.repo, nil
	}
	if _, err := repairPackIndexes(filepath.Join(r.gitDir(), "objects", "pack")); err != nil {
		return nil, err
	}
	repo, err := git.PlainOpen(r.root)
	if err != nil {
		return nil, fmt.Errorf("history: unable to open repository %s: %w", r.root, err)
	}
	repo = withWholePacks(repo, r.gitDir())
	r.repo, r.packs = repo, packs
	return repo, nil
}

// Attach registers the commit hook on st and commits what was edited by hand while no
// Engram process ran. Called once by the wiring of every process (app, serve, MCP, CLI);
// while history is off the hook does nothing.
func Attach(st *memory.Store, r *Repo) {
	st.OnApplied(r.Commit)
	if r.remoteMayHoldSecret() {
		if err := st.Locked(func() error { _, err := r.mendRemote(); return err }); err != nil {
			r.log.Warn("history: unable to take the secret out of the sync remote", "err", err)
		}
	}
	if r.Enabled() && r.staleIgnore() {
		// Written by an older Engram (before kv.json files were versioned): the new rules go
		// in with the files they now admit, in one commit.
		err := st.Locked(func() error {
			if !r.staleIgnore() {
				return nil
			}
			if err := memory.WriteFileAtomic(filepath.Join(r.root, ".gitignore"), []byte(ignoreText)); err != nil {
				return fmt.Errorf("history: unable to write .gitignore: %w", err)
			}
			_, err := r.commitAll(memory.ActorUser, "version the agents' key-value files")
			return err
		})
		if err != nil {
			r.log.Warn("history: unable to update .gitignore", "err", err)
		}
	}
	if st.ChangedAtOpen() && r.Enabled() {
		if err := st.Locked(func() error { _, err := r.commitAll(memory.ActorHand, "edits found at start"); return err }); err != nil {
			r.log.Warn("history: unable to commit hand edits found at start", "err", err)
		}
	}
}

// staleIgnore reports whether the .gitignore is one an older Engram wrote.
func (r *Repo) staleIgnore() bool {
	data, err := os.ReadFile(filepath.Join(r.root, ".gitignore"))
	return err == nil && strings.HasPrefix(string(data), ignoreHeader) && string(data) != ignoreText
}

// Enable makes the memory folder a git repository (or turns an existing one back on),
// writes the .gitignore and commits the current files. The caller holds the writer lock.
func (r *Repo) Enable() (string, error) {
	if err := r.ensureRepo(); err != nil {
		return "", err
	}
	if err := os.Remove(filepath.Join(r.gitDir(), disabledMarker)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("history: unable to turn history on: %w", err)
	}
	if err := memory.WriteFileAtomic(filepath.Join(r.root, ".gitignore"), []byte(ignoreText)); err != nil {
		return "", fmt.Errorf("history: unable to write .gitignore: %w", err)
	}
	h, err := r.commitAll(memory.ActorUser, "history enabled")
	if err != nil || h.IsZero() {
		return "", err
	}
	return h.String(), nil
}

// Disable stops committing; the repository and its commits stay, and Enable resumes.
func (r *Repo) Disable() error {
	if !r.Exists() {
		return nil
	}
	if err := os.WriteFile(filepath.Join(r.gitDir(), disabledMarker), []byte("history turned off in Engram\n"), 0o600); err != nil {
		return fmt.Errorf("history: unable to turn history off: %w", err)
	}
	return nil
}

// Status is what Settings and `engram history status` show.
type Status struct {
	Enabled bool   `json:"enabled"`
	Exists  bool   `json:"exists"`
	Head    string `json:"head,omitempty"`
	Commits int    `json:"commits"`
	Remote  string `json:"remote,omitempty"`
	// LastCommit is when HEAD was committed (RFC 3339), empty without commits.
	LastCommit string `json:"last_commit,omitempty"`
}

// Status reads the repository's state.
func (r *Repo) Status() (Status, error) {
	st := Status{Enabled: r.Enabled(), Exists: r.Exists()}
	if !st.Exists {
		return st, nil
	}
	repo, err := r.open()
	if err != nil {
		return st, err
	}
	if rem, err := repo.Remote(RemoteName); err == nil && len(rem.Config().URLs) > 0 {
		st.Remote = redact(rem.Config().URLs[0]) // a secret an older build kept there is not shown
	}
	head, err := r.head(repo)
	if err != nil || head == nil {
		return st, err
	}
	st.Head = head.Hash.String()
	st.LastCommit = head.Committer.When.UTC().Format(time.RFC3339)
	iter, err := repo.Log(&git.LogOptions{From: head.Hash})
	if err != nil {
		return st, fmt.Errorf("history: unable to read log: %w", err)
	}
	_ = iter.ForEach(func(*object.Commit) error { st.Commits++; return nil })
	return st, nil
}

// packList is the sorted names of the packfiles in packDir, joined.
func packList(packDir string) string {
	names, _ := filepath.Glob(filepath.Join(packDir, "pack-*.pack"))
	sort.Strings(names)
	return strings.Join(names, "\n")
}

// CommitRestored commits the memory files as an in-place restore of a backup left them, while
// history is on: the restore swaps the files outside apply_batch, and a backup made before
// history was turned on keeps this home's history (backup.keepHistory), whose last commit no
// longer matches them. The caller holds the writer lock. It returns the commit, "" when
// nothing differed.
func (r *Repo) CommitRestored() (string, error) {
	if !r.Enabled() {
		return "", nil
	}
	// A backup made before history was on has no .gitignore; the one Enable wrote goes back.
	ignore := filepath.Join(r.root, ".gitignore")
	if _, err := os.Lstat(ignore); errors.Is(err, os.ErrNotExist) {
		if err := memory.WriteFileAtomic(ignore, []byte(ignoreText)); err != nil {
			return "", fmt.Errorf("history: unable to write .gitignore: %w", err)
		}
	}
	h, err := r.commitAll(memory.ActorUser, "backup restored")
	if err != nil || h.IsZero() {
		return "", err
	}
	return h.String(), nil
}
