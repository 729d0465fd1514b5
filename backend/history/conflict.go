package history

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"engram/backend/memory"
	"engram/backend/memory/format"
)

// Conflict is a memory both machines changed: ours stays, theirs became Copy (a sibling,
// unreviewed memory that conflicts_with the original), or CopyError says why it could not.
// For an agent's kv.json, Key is a key both machines set differently ("*": a version that did
// not parse) of Agent: ours stays (Value) and theirs (Other) is in commit Theirs, a parent of
// the merge. The machine that merges (that syncs after the other pushed) wins. In
// SyncResult.Replaced the same fields tell a choice a merge on another machine made against
// this one: the other machine's version is here now (Value), this machine's is Copy (a
// memory) or in commit Theirs (Other).
type Conflict struct {
	Path      string `json:"path"`
	Slug      string `json:"slug"`
	Copy      string `json:"copy,omitempty"`
	CopyID    string `json:"copy_id,omitempty"`
	CopyError string `json:"copy_error,omitempty"`
	Key       string `json:"key,omitempty"`
	Agent     string `json:"agent,omitempty"`
	// Value is the key's value kept here, Other the one in commit Theirs: JSON text cut to a
	// line (shownValue), "" when the key is not set there; whole in kv.json and commit Theirs.
	Value string `json:"value,omitempty"`
	Other string `json:"other,omitempty"`
	// Day is a journal day both machines changed where one version is not a journal day:
	// this machine's stays, the other is in Theirs.
	Day    string `json:"day,omitempty"`
	Theirs string `json:"theirs,omitempty"`
	// Deleted is set when one machine deleted what the other changed (a memory, a journal day,
	// a kv key, or a kv.json whole: Key "*"): a change wins over a delete, whichever machine
	// merges. DeletedHere: this machine deleted it and the other machine's changed version is
	// back here (Value: the value now here, Other ""); DeletedThere (only in Conflicts): the
	// other machine deleted it and this machine's changed version stays (Value: ours, Other "").
	Deleted string `json:"deleted,omitempty"`
}

// Conflict.Deleted: which machine deleted what the other changed.
const (
	DeletedHere  = "here"
	DeletedThere = "there"
)

// pendingCopy is their version of a memory both sides changed, written after the merge.
type pendingCopy struct {
	path  string
	short string
	data  []byte
}

// foreignTree refuses to merge a history unrelated to ours that holds a file no memory folder
// versions (anything but .gitignore, Markdown and the agents' kv.json). Two machines that each
// turned history on before sharing a remote have unrelated histories of memory files, and
// merge; a remote mistyped as another repository (the project's code, a notes vault) was
// merged too — its files pulled into the memory folder, and every memory pushed to it, where
// it may be public. git refuses unrelated histories for the same reason.
func foreignTree(theirs map[string]plumbing.Hash, remote string) error {
	var foreign []string
	for p := range theirs {
		if p != ".gitignore" && !tracked(p) {
			foreign = append(foreign, p)
		}
	}
	if len(foreign) == 0 {
		return nil
	}
	sort.Strings(foreign)
	return &Error{Code: CodeRemoteForeign, Args: map[string]any{"Remote": redact(remote), "Path": foreign[0], "Count": len(foreign)},
		msg: fmt.Sprintf("history: %s shares no history with this memory folder and holds %d files that are not memories (%s): not merged", redact(remote), len(foreign), foreign[0])}
}

// merge is a three-way merge by file of their commit into ours: a file only one side changed
// takes that side; a file both changed keeps ours, and theirs is kept as a conflict copy
// (a daily file is merged line by line instead, an agent's kv.json key by key, and a file
// deleted on one side but changed on the other is kept changed and named, see deleteConflict). The merge commit has both parents, so the next sync of the
// other machine fast-forwards to it.
func (r *Repo) merge(repo *git.Repository, our, their *object.Commit, res *SyncResult) ([]string, []pendingCopy, error) {
	baseTree := plumbing.ZeroHash
	bases, err := our.MergeBase(their)
	if err != nil {
		return nil, nil, fmt.Errorf("history: unable to find the merge base: %w", err)
	}
	if len(bases) > 0 {
		baseTree = bases[0].TreeHash
	}
	base, err := flatten(repo, baseTree)
	if err != nil {
		return nil, nil, err
	}
	ours, err := flatten(repo, our.TreeHash)
	if err != nil {
		return nil, nil, err
	}
	theirs, err := flatten(repo, their.TreeHash)
	if err != nil {
		return nil, nil, err
	}
	if len(bases) == 0 {
		if err := foreignTree(theirs, res.Remote); err != nil {
			return nil, nil, err
		}
	}
	all := map[string]bool{}
	for _, m := range []map[string]plumbing.Hash{base, ours, theirs} {
		for p := range m {
			all[p] = true
		}
	}
	changes := map[string]plumbing.Hash{}
	var copies []pendingCopy
	before := len(res.Conflicts)
	for p := range all {
		b, o, t := base[p], ours[p], theirs[p]
		switch {
		case o == t, b == t:
			continue
		case b == o:
			changes[p] = t // only theirs changed
			continue
		}
		if isKV(p) { // key by key; a kv.json one side deleted is a file without keys
			h, cs, err := mergeKVFile(repo, p, b, o, t, their.Hash)
			if err != nil {
				return nil, nil, err
			}
			if h != o {
				changes[p] = h
			}
			res.Conflicts = append(res.Conflicts, cs...)
			continue
		}
		if o.IsZero() || t.IsZero() {
			// One side deleted what the other changed: the change wins (a delete loses nothing
			// the person wrote), and the result names it — it used to happen without a word.
			if o.IsZero() {
				changes[p] = t
			}
			if kindOf(p) != 0 {
				c, err := deleteConflict(repo, p, o, t, their.Hash)
				if err != nil {
					return nil, nil, err
				}
				res.Conflicts = append(res.Conflicts, c)
			}
			continue
		}
		theirData, err := blobBytes(repo.Storer, t)
		if err != nil {
			return nil, nil, err
		}
		if strings.HasPrefix(p, "daily/") {
			ourData, err := blobBytes(repo.Storer, o)
			if err != nil {
				return nil, nil, err
			}
			var baseData []byte
			if !b.IsZero() {
				if baseData, err = blobBytes(repo.Storer, b); err != nil {
					return nil, nil, err
				}
			}
			merged, ok := mergeDaily(baseData, ourData, theirData)
			if !ok {
				// One side is not a journal day (a hand edit broke it): ours stays, theirs is
				// in their commit, a parent of the merge, and the result names the day.
				res.Conflicts = append(res.Conflicts, Conflict{Path: p, Day: strings.TrimSuffix(path.Base(p), ".md"), Theirs: their.Hash.String()})
				continue
			}
			h, err := storeBlob(repo.Storer, merged)
			if err != nil {
				return nil, nil, err
			}
			if h != o { // theirs added no entry: ours stays as it is, nothing changes here
				changes[p] = h
			}
			continue
		}
		if tracked(p) {
			copies = append(copies, pendingCopy{path: p, short: t.String()[:7], data: theirData})
		}
	}
	tree, err := updateTree(repo.Storer, our.TreeHash, changes)
	if err != nil {
		return nil, nil, err
	}
	// One count, by kind, for the subject and the result: the files this merge writes here
	// and the conflict copies it will write; every conflict (memory, journal day, kv key).
	files := map[string]fileKind{}
	for p := range changes {
		if k := kindOf(p); k != 0 {
			files[p] = k
		}
	}
	for _, c := range copies {
		files[copyKey(c)] = kindCopy
	}
	conflicts := len(res.Conflicts) - before + len(copies)
	msg := message(memory.ActorSync, []string{mergeSubject(res.Remote, countFiles(files), conflicts)})
	if _, err := r.writeCommit(repo, tree, []plumbing.Hash{our.Hash, their.Hash}, msg); err != nil {
		return nil, nil, err
	}
	written, err := r.writeFiles(repo, changes)
	if err != nil {
		return nil, nil, err
	}
	for p, k := range files {
		res.note(p, k)
	}
	res.tally()
	return written, copies, nil
}

// deleteConflict names a memory or journal day one side deleted and the other changed, which
// the merge keeps changed: o zero, we deleted it and theirs (t) comes back; t zero, they
// deleted it and ours (o) stays. The slug is the kept version's, or the file's name.
func deleteConflict(repo *git.Repository, p string, o, t, their plumbing.Hash) (Conflict, error) {
	c := Conflict{Path: p, Theirs: their.String(), Deleted: DeletedThere}
	kept := o
	if o.IsZero() {
		c.Deleted, kept = DeletedHere, t
	}
	name := strings.TrimSuffix(path.Base(p), ".md")
	if kindOf(p) == kindDay {
		c.Day = name
		return c, nil
	}
	data, err := blobBytes(repo.Storer, kept)
	if err != nil {
		return c, err
	}
	c.Slug = memorySlug(p, data)
	return c, nil
}

// memorySlug is the slug of the memory at p with content data: its header's, else the file's
// name.
func memorySlug(p string, data []byte) string {
	if m, err := memory.Parse(data); err == nil && m.Slug != "" {
		return m.Slug
	}
	return strings.TrimSuffix(path.Base(p), ".md")
}

// revivedKeys are the kv keys a fast-forward brings back here that this machine had deleted:
// a merge on another machine kept its change of them (deleted: the merge's choices, where
// DeletedThere is a key this machine's side deleted), was and now this machine's keys before
// and after. Each is like lost, with the key, its value now and Deleted DeletedHere.
func revivedKeys(deleted map[string]string, was, now map[string]json.RawMessage, lost Conflict) []Conflict {
	var out []Conflict
	for k, side := range deleted {
		_, had := was[k]
		v, has := now[k]
		if side != DeletedThere || had || !has {
			continue // this machine's delete was not the one undone, or the key is gone still
		}
		c := lost
		c.Key, c.Value, c.Other, c.Deleted = k, shownValue(kvText(v)), "", DeletedHere
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// conflictSlug is "<slug>-conflict-<short>", the slug cut so the whole stays a valid slug.
func conflictSlug(slug, short string) string {
	suffix := "-conflict-" + short
	if len(slug)+len(suffix) > 64 {
		slug = format.CutSlug(slug, 64-len(suffix))
	}
	return slug + suffix
}

// writeCopy writes their version of a conflicting memory as a sibling through the store:
// unreviewed (the sync actor is not a person), conflicts_with the original, so it waits in
// Review for the person to keep one, merge them or reject it. A version that does not parse
// is written beside the original as a file, which the index reports as a problem.
func (r *Repo) writeCopy(ctx context.Context, st *memory.Store, c pendingCopy) Conflict {
	base := strings.TrimSuffix(path.Base(c.path), ".md")
	out := Conflict{Path: c.path, Slug: base}
	m, err := memory.Parse(c.data)
	if err != nil {
		rel := path.Join(path.Dir(c.path), conflictSlug(base, c.short)+".md")
		_, err = st.ExternalChange(ctx, func() ([]string, error) {
			return []string{rel}, memory.WriteFileAtomic(filepath.Join(r.root, filepath.FromSlash(rel)), c.data)
		})
		out.Copy = strings.TrimSuffix(path.Base(rel), ".md")
		if err != nil {
			out.CopyError = err.Error()
		}
		return out
	}
	out.Slug = m.Slug
	slug := conflictSlug(m.Slug, c.short)
	title, body, quote, reasoning, subject := m.Title, m.Body, m.SourceQuote, m.Reasoning, m.Subject
	it := memory.Item{Op: memory.OpWrite, Scope: m.Scope, Workdir: m.Workdir, Agent: m.Agent, Type: m.Type, Slug: slug,
		Title: &title, Body: &body, Confidence: m.Confidence, SourceQuote: &quote, Reasoning: &reasoning, Subject: &subject,
		Aliases: m.Aliases, Tags: m.Tags, ConflictsWith: []string{m.Slug}}
	res, err := st.ApplyBatch(ctx, memory.Batch{Actor: memory.ActorSync, Items: []memory.Item{it}})
	switch {
	case err != nil:
		out.CopyError = err.Error()
	case !res.Results[0].OK:
		out.CopyError = res.Results[0].Message
	default:
		out.Copy, out.CopyID = slug, res.Results[0].ID
	}
	return out
}
