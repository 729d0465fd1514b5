package history

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"engram/backend/memory"
)

// Signature of Engram's commits; the actor is in the message, the first word of its subject.
const (
	authorName  = "Engram"
	authorEmail = "engram@localhost"
)

// maxSubject bounds a commit's first line; the full list of operations follows in its body.
const maxSubject = 200

// tracked reports whether a memory-relative path belongs in git: Markdown files and the
// agents' kv.json files (their key-value facts) outside the trash and snapshots, never a temp
// file or anything under .git (see ignoreText).
func tracked(rel string) bool {
	if !strings.HasSuffix(rel, ".md") && !isKV(rel) {
		return false
	}
	for _, part := range strings.Split(rel, "/") {
		if part == "" || part == ".git" || part == ".trash" || part == ".snapshots" || strings.HasPrefix(part, ".tmp-") || part == ".." {
			return false
		}
	}
	return true
}

// isKV reports whether rel is an agent's key-value file, agents/<agent>/kv.json.
func isKV(rel string) bool {
	parts := strings.Split(rel, "/")
	return len(parts) == 3 && parts[0] == "agents" && parts[2] == memory.KVFileName && memory.ValidAgent(parts[1])
}

// Commit is the store's AppliedHook: one commit for the batch (or hand edit) a names, holding
// the files at a.Paths as they are now on disk. Nothing happens while history is off or when
// the files equal HEAD (the watcher re-reporting our own write). The caller holds the lock.
func (r *Repo) Commit(a memory.Applied) error {
	if !r.Enabled() {
		return nil
	}
	if a.Paths == nil {
		_, err := r.commitAll(a.Actor, strings.Join(a.Ops, ", "))
		return err
	}
	r.mu.Lock()
	paths := append([]string(nil), a.Paths...)
	for p := range r.pending {
		paths = append(paths, p)
	}
	r.mu.Unlock()
	_, err := r.commitPaths(paths, message(a.Actor, a.Ops))
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		for _, p := range paths {
			r.pending[p] = true
		}
		return err
	}
	r.pending = map[string]bool{}
	return nil
}

// message is "actor: op, op, …" with the full list in the body when the subject is cut.
func message(actor string, ops []string) string {
	subject := actor + ": " + strings.Join(ops, ", ")
	if len(ops) == 0 {
		subject = actor + ": change"
	}
	if len(subject) <= maxSubject {
		return subject + "\n"
	}
	cut := subject[:maxSubject]
	if i := strings.LastIndex(cut, ", "); i > len(actor) {
		cut = cut[:i]
	}
	return fmt.Sprintf("%s, … (%d operations)\n\n%s\n", cut, len(ops), strings.Join(ops, "\n"))
}

// head returns the commit the branch points at, nil on a repository without commits.
func (r *Repo) head(repo *git.Repository) (*object.Commit, error) {
	ref, err := repo.Reference(plumbing.NewBranchReferenceName(Branch.Short()), true)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		if r.branchFileDamaged() {
			return nil, ErrBranchDamaged
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("history: unable to read the branch: %w", err)
	}
	c, err := repo.CommitObject(ref.Hash())
	if err != nil {
		return nil, fmt.Errorf("history: unable to read commit %s: %w", ref.Hash(), err)
	}
	return c, nil
}

// commitPaths commits the given paths as they are on disk on top of HEAD; it returns the
// new commit, or the zero hash when nothing differs from HEAD.
func (r *Repo) commitPaths(paths []string, msg string) (plumbing.Hash, error) {
	repo, err := r.open()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	head, err := r.head(repo)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	changes := map[string]plumbing.Hash{}
	for _, p := range paths {
		if !tracked(p) {
			continue
		}
		h, err := r.blobOfFile(repo.Storer, p)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		changes[p] = h
	}
	base := plumbing.ZeroHash
	var parents []plumbing.Hash
	if head != nil {
		base = head.TreeHash
		parents = []plumbing.Hash{head.Hash}
	}
	tree, err := updateTree(repo.Storer, base, changes)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if head != nil && tree == base {
		return plumbing.ZeroHash, nil
	}
	return r.writeCommit(repo, tree, parents, msg)
}

// eachTracked calls fn with every tracked file on disk (slash path relative to the memory
// folder, and its path), skipping .git, the trash and the snapshots; entries that cannot be
// read are passed over.
func (r *Repo) eachTracked(fn func(rel, abs string) error) error {
	return filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(r.root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if p != r.root && (d.Name() == ".git" || d.Name() == ".trash" || d.Name() == ".snapshots") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !tracked(rel) {
			return nil
		}
		return fn(rel, p)
	})
}

// commitAll commits every tracked file on disk (a full walk): used when history is turned
// on, before a sync, and when a full reconcile found hand edits anywhere.
func (r *Repo) commitAll(actor, what string) (plumbing.Hash, error) {
	repo, err := r.open()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	head, err := r.head(repo)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	files := map[string]plumbing.Hash{}
	if err := r.blobIfTracked(repo.Storer, ".gitignore", files); err != nil {
		return plumbing.ZeroHash, err
	}
	err = r.eachTracked(func(rel, _ string) error {
		return r.blobIfTracked(repo.Storer, rel, files)
	})
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("history: unable to walk %s: %w", r.root, err)
	}
	base := plumbing.ZeroHash
	if head != nil {
		// On top of the branch, not from nothing: a file the branch holds that Engram never
		// versions (a notes.txt of the person's own repository, where history was turned on)
		// stays as it is. The tree was rebuilt from the tracked files alone, and turning history
		// on deleted the person's own files from their branch — and, at a sync, from their
		// remote. A tracked file no longer on disk is removed.
		base = head.TreeHash
		had, err := flatten(repo, base)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		for p := range had {
			if _, ok := files[p]; !ok && (p == ".gitignore" || tracked(p)) {
				files[p] = plumbing.ZeroHash
			}
		}
	}
	tree, err := updateTree(repo.Storer, base, files)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	var parents []plumbing.Hash
	if head != nil {
		if head.TreeHash == tree {
			return plumbing.ZeroHash, nil
		}
		parents = []plumbing.Hash{head.Hash}
	}
	return r.writeCommit(repo, tree, parents, message(actor, []string{what}))
}

func (r *Repo) blobIfTracked(s storer.EncodedObjectStorer, rel string, into map[string]plumbing.Hash) error {
	h, err := r.blobOfFile(s, rel)
	if err != nil {
		return err
	}
	if !h.IsZero() {
		into[rel] = h
	}
	return nil
}

// blobOfFile stores the file at rel as a blob and returns its hash; the zero hash when the
// file is gone (or is not a regular file: a link is never followed into git).
func (r *Repo) blobOfFile(s storer.EncodedObjectStorer, rel string) (plumbing.Hash, error) {
	abs := filepath.Join(r.root, filepath.FromSlash(rel))
	info, err := os.Lstat(abs)
	if err != nil || !info.Mode().IsRegular() {
		return plumbing.ZeroHash, nil
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return plumbing.ZeroHash, nil
		}
		return plumbing.ZeroHash, fmt.Errorf("history: unable to read %s: %w", rel, err)
	}
	return storeBlob(s, data)
}

// storeBlob writes data as a blob unless the repository has it already.
func storeBlob(s storer.EncodedObjectStorer, data []byte) (plumbing.Hash, error) {
	h := plumbing.ComputeHash(plumbing.BlobObject, data)
	if s.HasEncodedObject(h) == nil {
		return h, nil
	}
	obj := s.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("history: unable to store blob: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("history: unable to store blob: %w", err)
	}
	_ = w.Close()
	if _, err := s.SetEncodedObject(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("history: unable to store blob: %w", err)
	}
	return h, nil
}

// writeCommit stores a commit of tree over parents and moves the branch to it.
func (r *Repo) writeCommit(repo *git.Repository, tree plumbing.Hash, parents []plumbing.Hash, msg string) (plumbing.Hash, error) {
	sig := object.Signature{Name: authorName, Email: authorEmail, When: r.now()}
	c := &object.Commit{Author: sig, Committer: sig, Message: msg, TreeHash: tree, ParentHashes: parents}
	obj := repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("history: unable to encode commit: %w", err)
	}
	h, err := repo.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("history: unable to store commit: %w", err)
	}
	ref := plumbing.NewHashReference(plumbing.NewBranchReferenceName(Branch.Short()), h)
	if err := r.setRef(ref); err != nil {
		return plumbing.ZeroHash, err
	}
	return h, nil
}

// updateTree returns the tree base with changes applied (path → blob, the zero hash removes
// the path); only the trees on the changed paths are rebuilt. An empty tree is the zero hash.
func updateTree(s storer.EncodedObjectStorer, base plumbing.Hash, changes map[string]plumbing.Hash) (plumbing.Hash, error) {
	entries := map[string]object.TreeEntry{}
	if !base.IsZero() {
		t, err := object.GetTree(s, base)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("history: unable to read tree %s: %w", base, err)
		}
		for _, e := range t.Entries {
			entries[e.Name] = e
		}
	}
	sub := map[string]map[string]plumbing.Hash{}
	for p, h := range changes {
		dir, rest, nested := strings.Cut(p, "/")
		if !nested {
			if h.IsZero() {
				delete(entries, p)
			} else {
				entries[p] = object.TreeEntry{Name: p, Mode: filemode.Regular, Hash: h}
			}
			continue
		}
		if sub[dir] == nil {
			sub[dir] = map[string]plumbing.Hash{}
		}
		sub[dir][rest] = h
	}
	for dir, ch := range sub {
		childBase := plumbing.ZeroHash
		if e, ok := entries[dir]; ok && e.Mode == filemode.Dir {
			childBase = e.Hash
		}
		h, err := updateTree(s, childBase, ch)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if h.IsZero() {
			delete(entries, dir)
		} else {
			entries[dir] = object.TreeEntry{Name: dir, Mode: filemode.Dir, Hash: h}
		}
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, nil
	}
	t := &object.Tree{}
	for _, e := range entries {
		t.Entries = append(t.Entries, e)
	}
	sort.Slice(t.Entries, func(i, j int) bool { return gitName(t.Entries[i]) < gitName(t.Entries[j]) })
	obj := s.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("history: unable to encode tree: %w", err)
	}
	if s.HasEncodedObject(obj.Hash()) == nil {
		return obj.Hash(), nil
	}
	h, err := s.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("history: unable to store tree: %w", err)
	}
	return h, nil
}

// gitName is the name git sorts a tree entry by: a folder sorts as if followed by "/".
func gitName(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

// readBlob returns the bytes of the blob at rel in tree, ok false when rel is not there.
func readBlob(repo *git.Repository, tree *object.Tree, rel string) ([]byte, plumbing.Hash, bool, error) {
	e, err := tree.FindEntry(rel)
	if err != nil {
		return nil, plumbing.ZeroHash, false, nil
	}
	b, err := repo.BlobObject(e.Hash)
	if err != nil {
		return nil, e.Hash, false, fmt.Errorf("history: unable to read %s: %w", rel, err)
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, e.Hash, false, fmt.Errorf("history: unable to read %s: %w", rel, err)
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, e.Hash, false, fmt.Errorf("history: unable to read %s: %w", rel, err)
	}
	return data, e.Hash, true, nil
}
