package history

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	fdiff "github.com/go-git/go-git/v5/plumbing/format/diff"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"

	"engram/backend/memory"
)

// Version is one state of a memory's file in git, with the unified diff from the version
// before it (from nothing for the first).
type Version struct {
	Commit  string `json:"commit"`
	Short   string `json:"short"`
	Time    string `json:"time"`
	Actor   string `json:"actor"`
	Message string `json:"message"`
	Diff    string `json:"diff"`
	// Added and Removed count the diff's lines.
	Added   int `json:"added"`
	Removed int `json:"removed"`
	// Deleted marks the commit that removed the file (the memory was deleted, or moved away):
	// its diff removes every line, and there is no version in it to restore.
	Deleted bool `json:"deleted,omitempty"`
}

// MaxVersions bounds one listing; the walk stops there.
const MaxVersions = 200

// Versions lists the versions of the file at rel, newest first: each commit whose blob at
// rel differs from every parent's, a commit that removed the file included (Deleted). The
// delete used to be left out, so a memory deleted and brought back showed no delete and its
// return as "+0 −0", diffed against the version before the delete. limit ≤ 0 takes
// MaxVersions.
func (r *Repo) Versions(ctx context.Context, rel string, limit int) ([]Version, error) {
	limit = versionLimit(limit)
	if !r.Exists() {
		return nil, ErrOff
	}
	repo, err := r.open()
	if err != nil {
		return nil, err
	}
	head, err := r.head(repo)
	if err != nil || head == nil {
		return []Version{}, err
	}
	type found struct {
		c    *object.Commit
		blob plumbing.Hash
	}
	var vs []found
	blobAt := func(c *object.Commit) plumbing.Hash {
		t, err := c.Tree()
		if err != nil {
			return plumbing.ZeroHash
		}
		e, err := t.FindEntry(rel)
		if err != nil {
			return plumbing.ZeroHash
		}
		return e.Hash
	}
	// One more than asked: the oldest listed version's diff needs the version before it.
	seen := map[plumbing.Hash]bool{}
	queue := []*object.Commit{head}
	for len(queue) > 0 && len(vs) <= limit {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Newest committer time first, so versions come out in time order across merges.
		best := 0
		for i, c := range queue {
			if c.Committer.When.After(queue[best].Committer.When) {
				best = i
			}
		}
		c := queue[best]
		queue = append(queue[:best], queue[best+1:]...)
		if seen[c.Hash] {
			continue
		}
		seen[c.Hash] = true
		mine := blobAt(c)
		// Absent here and in no parent (or a first commit without it) is no change.
		changed := !mine.IsZero() || c.NumParents() > 0
		err := c.Parents().ForEach(func(p *object.Commit) error {
			if blobAt(p) == mine {
				changed = false
			}
			if !seen[p.Hash] {
				queue = append(queue, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("history: unable to walk commits: %w", err)
		}
		if changed {
			vs = append(vs, found{c, mine})
		}
	}
	out := make([]Version, 0, min(len(vs), limit))
	for i := 0; i < len(vs) && i < limit; i++ {
		var before []byte
		if i+1 < len(vs) && !vs[i+1].blob.IsZero() {
			if before, err = blobBytes(repo.Storer, vs[i+1].blob); err != nil {
				return nil, err
			}
		}
		var after []byte
		if !vs[i].blob.IsZero() {
			if after, err = blobBytes(repo.Storer, vs[i].blob); err != nil {
				return nil, err
			}
		}
		d, add, rem := unified(rel, before, after)
		c := vs[i].c
		out = append(out, Version{Commit: c.Hash.String(), Short: c.Hash.String()[:8], Time: c.Committer.When.UTC().Format(time.RFC3339),
			Actor: actorOf(c.Message), Message: strings.TrimSpace(c.Message), Diff: d, Added: add, Removed: rem, Deleted: vs[i].blob.IsZero()})
	}
	return out, nil
}

// actorOf reads the actor from a commit subject "actor: …" (Engram's own commits).
func actorOf(msg string) string {
	subject, _, _ := strings.Cut(msg, "\n")
	if a, _, ok := strings.Cut(subject, ": "); ok && !strings.Contains(a, " ") {
		return a
	}
	return ""
}

// Read returns the bytes of the file at rel as commit holds it.
func (r *Repo) Read(rel, commit string) ([]byte, error) {
	if !r.Exists() {
		return nil, ErrOff
	}
	if !plumbing.IsHash(commit) {
		// A short hash is resolved against the repository.
		repo, err := r.open()
		if err != nil {
			return nil, err
		}
		h, err := repo.ResolveRevision(plumbing.Revision(commit))
		if err != nil {
			return nil, ErrNoVersion
		}
		commit = h.String()
	}
	repo, err := r.open()
	if err != nil {
		return nil, err
	}
	c, err := repo.CommitObject(plumbing.NewHash(commit))
	if err != nil {
		return nil, ErrNoVersion
	}
	t, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("history: unable to read commit %s: %w", commit, err)
	}
	data, _, ok, err := readBlob(repo, t, rel)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrNoVersion
	}
	return data, nil
}

func blobBytes(s interface {
	EncodedObject(plumbing.ObjectType, plumbing.Hash) (plumbing.EncodedObject, error)
}, h plumbing.Hash) ([]byte, error) {
	obj, err := s.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, fmt.Errorf("history: unable to read blob %s: %w", h, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("history: unable to read blob %s: %w", h, err)
	}
	defer rd.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(rd)
	return b.Bytes(), err
}

// unified is the unified diff (3 lines of context) from before to after, with the counts of
// added and removed lines.
func unified(rel string, before, after []byte) (string, int, int) {
	diffs := diff.Do(string(before), string(after))
	var chunks []fdiff.Chunk
	add, rem := 0, 0
	for _, d := range diffs {
		op := fdiff.Equal
		n := strings.Count(d.Text, "\n")
		if !strings.HasSuffix(d.Text, "\n") {
			n++
		}
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op, add = fdiff.Add, add+n
		case diffmatchpatch.DiffDelete:
			op, rem = fdiff.Delete, rem+n
		}
		chunks = append(chunks, chunk{d.Text, op})
	}
	if add == 0 && rem == 0 {
		return "", 0, 0
	}
	var from, to fdiff.File
	if len(before) > 0 {
		from = file{rel, plumbing.ComputeHash(plumbing.BlobObject, before)}
	}
	if after != nil {
		to = file{rel, plumbing.ComputeHash(plumbing.BlobObject, after)}
	}
	var b strings.Builder
	if err := fdiff.NewUnifiedEncoder(&b, fdiff.DefaultContextLines).Encode(patch{fp: filePatch{from, to, chunks}}); err != nil {
		return "", add, rem
	}
	return b.String(), add, rem
}

type chunk struct {
	text string
	op   fdiff.Operation
}

func (c chunk) Content() string       { return c.text }
func (c chunk) Type() fdiff.Operation { return c.op }

type file struct {
	path string
	hash plumbing.Hash
}

func (f file) Hash() plumbing.Hash     { return f.hash }
func (f file) Mode() filemode.FileMode { return filemode.Regular }
func (f file) Path() string            { return f.path }

type filePatch struct {
	from, to fdiff.File
	chunks   []fdiff.Chunk
}

func (p filePatch) IsBinary() bool                  { return false }
func (p filePatch) Files() (fdiff.File, fdiff.File) { return p.from, p.to }
func (p filePatch) Chunks() []fdiff.Chunk           { return p.chunks }

type patch struct{ fp filePatch }

func (p patch) FilePatches() []fdiff.FilePatch { return []fdiff.FilePatch{p.fp} }
func (p patch) Message() string                { return "" }

// Restore writes the version of memory id that commit holds as a new update through the
// store (so the index, graph and audit follow, and the history gets a commit of its own).
// The api lets only a person call it.
func (r *Repo) Restore(ctx context.Context, st *memory.Store, id, commit, actor string) (memory.ItemResult, error) {
	cur, err := st.Get(ctx, id)
	if err != nil {
		return memory.ItemResult{}, err
	}
	data, err := r.Read(cur.Path, commit)
	if err != nil {
		return memory.ItemResult{}, err
	}
	return restoreVersion(ctx, st, cur, data, actor)
}

// restoreVersion writes the memory version data (a file's text at some commit) over the live
// memory cur as an update at cur's version.
func restoreVersion(ctx context.Context, st *memory.Store, cur *memory.Memory, data []byte, actor string) (memory.ItemResult, error) {
	old, err := memory.Parse(data)
	if err != nil {
		return memory.ItemResult{}, err
	}
	title, body, quote, reasoning, subject := old.Title, old.Body, old.SourceQuote, old.Reasoning, old.Subject
	it := memory.Item{Op: memory.OpUpdate, ID: cur.ID, Mode: "replace", Title: &title, Body: &body,
		Confidence: old.Confidence, SourceQuote: &quote, Reasoning: &reasoning, Subject: &subject,
		Aliases: nonNil(old.Aliases), Tags: nonNil(old.Tags), Supersedes: nonNil(old.Supersedes), ConflictsWith: nonNil(old.ConflictsWith),
		ExpectedVersion: cur.Version}
	if old.Type.Writable() {
		it.Type = old.Type
	}
	res, err := st.ApplyBatch(ctx, memory.Batch{Actor: actor, Items: []memory.Item{it}})
	if err != nil {
		return memory.ItemResult{}, err
	}
	return res.Results[0], nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// versionLimit is a listing's limit: ≤ 0 or past MaxVersions takes MaxVersions.
func versionLimit(limit int) int {
	if limit <= 0 || limit > MaxVersions {
		return MaxVersions
	}
	return limit
}

// newest opens the repository and returns its newest commit on the branch: ErrOff when
// history is off, nil (no error) before the first commit.
func (r *Repo) newest() (*object.Commit, error) {
	if !r.Exists() {
		return nil, ErrOff
	}
	repo, err := r.open()
	if err != nil {
		return nil, err
	}
	return r.head(repo)
}
