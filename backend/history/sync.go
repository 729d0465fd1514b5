package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"

	"engram/backend/memory"
)

// RemoteName is the remote Engram syncs with.
const RemoteName = "origin"

// SyncResult says what one sync did. Changed is the number of files the sync changed in the
// memory folder, the sum of Memories, Days (journal days), KVFiles (agents' kv.json) and
// Copies (conflict copies written): the same count as its merge commit's subject. Conflicts
// are the choices this sync made (this machine's version kept; of a delete against a change,
// the change, Conflict.Deleted), Replaced the ones a sync on another machine made against this
// machine that this sync brought here (a version of the other's, or what this machine had
// deleted, back).
type SyncResult struct {
	Remote      string     `json:"remote"`
	Fetched     bool       `json:"fetched"`
	FastForward bool       `json:"fast_forward"`
	Merged      bool       `json:"merged"`
	Changed     int        `json:"changed"`
	Memories    int        `json:"memories"`
	Days        int        `json:"days"`
	KVFiles     int        `json:"kv_files"`
	Copies      int        `json:"copies"`
	Pushed      bool       `json:"pushed"`
	Head        string     `json:"head"`
	Conflicts   []Conflict `json:"conflicts"`
	Replaced    []Conflict `json:"replaced"`

	files map[string]fileKind // what Changed counts, by path (see note)
}

// SetRemote points the sync remote at url (a path, file://, ssh or https URL). A password in
// an HTTPS URL (https://me:token@host/…) goes to the home's credentials file and the URL is
// kept without it, so .git/config in the memory folder never holds a secret.
func (r *Repo) SetRemote(url string) error {
	if err := CheckRemote(url); err != nil {
		return err
	}
	if clean, user, pass, secret := splitUserinfo(url); secret {
		a := r.authConfig()
		if a == nil || a.Credentials == nil {
			return &Error{Code: CodeCredentialsInURL, Args: map[string]any{"Remote": redact(url)},
				msg: "history: a password in the remote URL cannot be kept safely here"}
		}
		if err := a.Credentials.Set(clean, user, pass); err != nil {
			return err
		}
		url = clean
	}
	return r.writeRemote(url)
}

// writeRemote saves url as the sync remote, unchanged when it already is.
func (r *Repo) writeRemote(url string) error {
	repo, err := r.open()
	if err != nil {
		return err
	}
	cfg, err := repo.Config()
	if err != nil {
		return fmt.Errorf("history: unable to read config: %w", err)
	}
	if rem := cfg.Remotes[RemoteName]; rem != nil && len(rem.URLs) == 1 && rem.URLs[0] == url {
		return nil
	}
	if rem := cfg.Remotes[RemoteName]; rem != nil && len(rem.URLs) > 0 && credentialKey(rem.URLs[0]) != credentialKey(url) {
		if err := dropRemoteRefs(repo); err != nil {
			return err
		}
	}
	cfg.Remotes[RemoteName] = &config.RemoteConfig{Name: RemoteName, URLs: []string{url},
		Fetch: []config.RefSpec{config.RefSpec("+refs/heads/*:refs/remotes/" + RemoteName + "/*")}}
	if err := r.setConfig(cfg); err != nil {
		return fmt.Errorf("history: unable to save remote: %w", err)
	}
	return nil
}

// CheckRemote refuses a remote that is no git endpoint (CodeRemoteInvalid) before it reaches
// the config: a NUL or newline written there made the config unreadable, and every later
// commit failed (a remote comes from a browser over the bridge as well as from the person's
// command line). A folder must be named by its full path: a relative one would depend on the
// process's directory.
func CheckRemote(url string) error {
	bad := func() error {
		return &Error{Code: CodeRemoteInvalid, Args: map[string]any{"Remote": redact(strings.ToValidUTF8(url, "?"))},
			msg: "history: not a remote: " + redact(strings.ToValidUTF8(url, "?"))}
	}
	if strings.TrimSpace(url) != url || url == "" || strings.HasPrefix(url, "-") || !utf8.ValidString(url) {
		return bad()
	}
	for _, c := range url {
		if c < 0x20 || c == 0x7f {
			return bad()
		}
	}
	ep, err := transport.NewEndpoint(url)
	if err != nil || (ep.Protocol == "file" && (!filepath.IsAbs(ep.Path) || !(filepath.IsAbs(url) || strings.HasPrefix(url, "file://")))) {
		return bad()
	}
	return checkSSHPassword(ep)
}

// setConfig writes the repository's config whole, through a temporary file in .git renamed
// into place: go-git's SetConfig truncates the file and then writes it, and a process killed
// between the two left a config go-git cannot open the repository with.
func (r *Repo) setConfig(cfg *config.Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	b, err := cfg.Marshal()
	if err != nil {
		return err
	}
	return memory.WriteWholeDurable(filepath.Join(r.gitDir(), "config"), r.gitDir(), configTempPrefix, b)
}

const configTempPrefix = "engram-config-"

// Remote is the configured sync remote, "" when none.
func (r *Repo) Remote() string {
	if !r.Exists() {
		return ""
	}
	repo, err := r.open()
	if err != nil {
		return ""
	}
	rem, err := repo.Remote(RemoteName)
	if err != nil || len(rem.Config().URLs) == 0 {
		return ""
	}
	return rem.Config().URLs[0]
}

// Sync fetches the remote, merges it into the memory folder and pushes the result. Files
// are changed and the index reconciled under the writer lock (Store.ExternalChange: only the
// tables derived from files are rebuilt); a memory both sides changed keeps ours and gets
// theirs as a sibling unreviewed memory (see conflict.go), so nothing is lost on either side;
// what one side deleted and the other changed stays changed, named in the result.
// url, when set, becomes the configured remote first.
func (r *Repo) Sync(ctx context.Context, st *memory.Store, url string) (SyncResult, error) {
	res, err := r.syncOnce(ctx, st, url)
	if errors.Is(err, errRemoteMoved) { // another machine pushed between our fetch and push
		var again SyncResult
		again, err = r.syncOnce(ctx, st, "")
		again.absorb(res)
		res = again
	}
	return res, err
}

// syncStageHook, for tests, runs at moments of a sync: "fetching" (the fetch's handle is open,
// nothing written yet) and "fetched".
var syncStageHook func(stage, gitDir string)

// syncNetTimeout bounds a sync's fetch and its push: a remote that accepts the connection and
// never answers would otherwise hold the sync lock (not the writer lock: writes go on) until the
// process ends. An hour, not minutes: a first sync of a large history over a slow link takes
// long, and a bound it cannot finish within would fail it at every try.
const syncNetTimeout = time.Hour

// syncOnce fetches, merges and pushes once. Only what touches the memory folder holds the
// writer lock — committing the edits so far, merging what was fetched, reading the head —
// never the network: a sync used to fetch and push under it, so a remote that stopped
// answering (or a stalled network mount) froze every write of every agent until the process
// ended. Syncs of every process on the home run one at a time (lockSync) instead.
func (r *Repo) syncOnce(ctx context.Context, st *memory.Store, url string) (SyncResult, error) {
	var res SyncResult
	release, err := r.lockSync(ctx)
	if err != nil {
		return res, err
	}
	defer release()
	// The repository the sync began with: a restore in place (which holds the writer lock, not
	// the sync's) may swap .git while the fetch runs, and what was fetched into the old one
	// must not be merged into the new.
	var began os.FileInfo
	var prevRemote string
	same := func() error {
		now, err := os.Stat(r.gitDir())
		if err != nil || !os.SameFile(began, now) {
			return errHistoryReplaced
		}
		return nil
	}
	err = st.Locked(func() error {
		if !r.Enabled() {
			return ErrOff
		}
		var err error
		if began, err = os.Stat(r.gitDir()); err != nil {
			return ErrOff
		}
		if url != "" {
			prevRemote = r.Remote()
			if err := r.SetRemote(url); err != nil {
				return err
			}
		} else {
			// A secret an older build (or a restored backup) left in .git/config leaves it
			// now; best effort, the sync goes on as before if it cannot.
			_, _ = r.mendRemote()
		}
		if res.Remote = r.Remote(); res.Remote == "" {
			return ErrNoRemote
		}
		_, err = r.commitAll(memory.ActorHand, "edits before sync")
		return err
	})
	if err != nil {
		return res, err
	}
	fetchCtx, cancelFetch := context.WithTimeout(ctx, syncNetTimeout)
	proceed, err := r.fetch(fetchCtx, &res)
	cancelFetch()
	var he *Error
	if err != nil && errors.As(err, &he) && (he.Code == CodeRemoteNotRepo || he.Code == CodeRemoteForeign) && prevRemote != "" && prevRemote != res.Remote {
		// A mistyped remote holds no repository, or another's: the one that worked stays configured.
		_ = st.Locked(func() error { return r.SetRemote(prevRemote) })
	}
	if err != nil {
		return res, err
	}
	if syncStageHook != nil {
		syncStageHook("fetched", r.gitDir())
	}
	var theirs []pendingCopy
	if proceed {
		_, err = st.ExternalChange(ctx, func() ([]string, error) {
			if !r.Enabled() { // turned off while the fetch ran
				return nil, ErrOff
			}
			if err := same(); err != nil {
				return nil, err
			}
			changed, copies, err := r.integrate(&res)
			theirs = copies
			return changed, err
		})
		if err != nil && errors.As(err, &he) && he.Code == CodeRemoteForeign && prevRemote != "" && prevRemote != res.Remote {
			// Another repository named by mistake: the remote that worked stays configured.
			_ = st.Locked(func() error { return r.SetRemote(prevRemote) })
		}
		if err != nil {
			return res, err
		}
	}
	for _, c := range theirs {
		done := r.writeCopy(ctx, st, c)
		if done.CopyError != "" {
			res.forget(copyKey(c)) // named with its error, not counted as written
		}
		res.Conflicts = append(res.Conflicts, done)
	}
	if res.Conflicts == nil {
		res.Conflicts = []Conflict{}
	}
	if res.Replaced == nil {
		res.Replaced = []Conflict{}
	}
	var head plumbing.Hash
	err = st.Locked(func() error {
		if err := same(); err != nil {
			return err
		}
		repo, err := r.open()
		if err != nil {
			return err
		}
		h, err := r.head(repo)
		if err != nil || h == nil {
			return err
		}
		head = h.Hash
		return nil
	})
	if err != nil || head.IsZero() {
		return res, err
	}
	res.Head = head.String()
	// A deadline of its own: the merge above may have waited long for the writer lock.
	pushCtx, cancelPush := context.WithTimeout(ctx, syncNetTimeout)
	defer cancelPush()
	return res, r.push(pushCtx, &res, head)
}

// integrate merges the fetched remote-tracking branch into ours, under the writer lock; it
// returns the memory paths whose files it changed and the conflicting versions of theirs still
// to be written as sibling memories.
func (r *Repo) integrate(res *SyncResult) ([]string, []pendingCopy, error) {
	repo, err := r.open()
	if err != nil {
		return nil, nil, err
	}
	ref, err := repo.Reference(plumbing.NewRemoteReferenceName(RemoteName, Branch.Short()), true)
	if err != nil {
		return []string{}, nil, nil
	}
	their, err := repo.CommitObject(ref.Hash())
	if err != nil {
		return nil, nil, fmt.Errorf("history: unable to read fetched commit: %w", err)
	}
	our, err := r.head(repo)
	if err != nil {
		return nil, nil, err
	}
	if our != nil {
		if our.Hash == their.Hash {
			return []string{}, nil, nil
		}
		if done, err := their.IsAncestor(our); err != nil || done {
			return []string{}, nil, err
		}
	}
	ff := our == nil
	if !ff {
		if ff, err = our.IsAncestor(their); err != nil {
			return nil, nil, fmt.Errorf("history: unable to compare histories: %w", err)
		}
	}
	if ff {
		res.FastForward = true
		old, next, changes, err := r.treeChanges(repo, our, their.TreeHash)
		if err != nil {
			return nil, nil, err
		}
		changed, err := r.writeFiles(repo, changes)
		if err != nil {
			return nil, nil, err
		}
		if err := r.setRef(plumbing.NewHashReference(Branch, their.Hash)); err != nil {
			return nil, nil, err
		}
		for p := range changes {
			res.note(p, kindOf(p))
		}
		if our != nil {
			// What the other machine's merge decided against this one must not change here
			// without a word. The files are written already: a failure only loses the report.
			replaced, copies, err := replacedHere(repo, our, their, old, next)
			if err != nil {
				r.log.Warn("history: unable to tell what the other machine's sync replaced", "err", err)
			}
			res.Replaced = append(res.Replaced, replaced...)
			for p := range copies {
				res.note(p, kindCopy)
			}
		}
		res.tally()
		return changed, nil, nil
	}
	res.Merged = true
	return r.merge(repo, our, their, res)
}

// treeChanges lists the files of from (nil: nothing) and tree, and what differs between them
// (the zero hash: removed), for writeFiles.
func (r *Repo) treeChanges(repo *git.Repository, from *object.Commit, tree plumbing.Hash) (old, next, changes map[string]plumbing.Hash, err error) {
	old = map[string]plumbing.Hash{}
	if from != nil {
		if old, err = flatten(repo, from.TreeHash); err != nil {
			return nil, nil, nil, err
		}
	}
	if next, err = flatten(repo, tree); err != nil {
		return nil, nil, nil, err
	}
	changes = map[string]plumbing.Hash{}
	for p, h := range next {
		if old[p] != h {
			changes[p] = h
		}
	}
	for p := range old {
		if _, ok := next[p]; !ok {
			changes[p] = plumbing.ZeroHash
		}
	}
	return old, next, changes, nil
}

// writeFiles puts blobs on disk (the zero hash removes the file) and lists the memory paths
// (the Markdown files the index is reconciled with).
func (r *Repo) writeFiles(repo *git.Repository, changes map[string]plumbing.Hash) ([]string, error) {
	out := []string{}
	for p, h := range changes {
		if !tracked(p) && p != ".gitignore" {
			continue
		}
		abs := filepath.Join(r.root, filepath.FromSlash(p))
		if h.IsZero() {
			if err := os.Remove(abs); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("history: unable to remove %s: %w", p, err)
			}
		} else {
			data, err := blobBytes(repo.Storer, h)
			if err != nil {
				return nil, err
			}
			if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
				return nil, fmt.Errorf("history: unable to create %s: %w", filepath.Dir(p), err)
			}
			if err := memory.WriteFileAtomic(abs, data); err != nil {
				return nil, fmt.Errorf("history: unable to write %s: %w", p, err)
			}
		}
		if tracked(p) && !isKV(p) {
			out = append(out, p) // a kv.json is not indexed: the store reads it when asked
		}
	}
	return out, nil
}

// flatten lists every file of a tree by path.
func flatten(repo *git.Repository, tree plumbing.Hash) (map[string]plumbing.Hash, error) {
	out := map[string]plumbing.Hash{}
	if tree.IsZero() {
		return out, nil
	}
	t, err := repo.TreeObject(tree)
	if err != nil {
		return nil, fmt.Errorf("history: unable to read tree %s: %w", tree, err)
	}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err != nil {
			break
		}
		if e.Mode.IsFile() {
			out[name] = e.Hash
		}
	}
	return out, nil
}

// Schedule syncs with the configured remote while history is on, every(): the interval is
// read again after each round and whenever wake receives (Settings → Data changed it), so a
// new schedule takes effect at once; 0 means only on demand. Each failure is logged and the
// next round tries again. report, when set, hears each result. Runs until ctx ends.
func (r *Repo) Schedule(ctx context.Context, st *memory.Store, every func() time.Duration, wake <-chan struct{}, report func(SyncResult, error)) {
	for {
		var fire <-chan time.Time
		var t *time.Timer
		if d := every(); d > 0 {
			t = time.NewTimer(d)
			fire = t.C
		}
		select {
		case <-ctx.Done():
			if t != nil {
				t.Stop()
			}
			return
		case <-wake:
			if t != nil {
				t.Stop()
			}
			continue
		case <-fire:
		}
		if !r.Enabled() || r.Remote() == "" {
			continue
		}
		res, err := r.Sync(ctx, st, "")
		if err != nil {
			r.log.Warn("history: scheduled sync failed", "err", err)
		}
		r.logChoices(res)
		if report != nil {
			report(res, err)
		}
	}
}
