package history

import (
	"bytes"
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
)

// pendingCopy is their version of a memory both sides changed, written after the merge.
type pendingCopy struct {
	path  string
	short string
	data  []byte
}

// merge is a three-way merge by file of their commit into ours: a file only one side changed
// takes that side; a file both changed keeps ours, and theirs is kept as a conflict copy
// (a daily file is merged line by line instead, and a file deleted on one side but changed on
// the other is kept changed). The merge commit has both parents, so the next sync of the
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
		case b == o, o.IsZero():
			changes[p] = t // only theirs changed, or we deleted what they changed: theirs
			continue
		case t.IsZero():
			continue // they deleted what we changed: ours stays
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
		if isKV(p) {
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
			merged, kept := mergeKV(p, baseData, ourData, theirData)
			if merged != nil {
				h, err := storeBlob(repo.Storer, merged)
				if err != nil {
					return nil, nil, err
				}
				if h != o { // every key theirs changed we changed too: ours stays as it is
					changes[p] = h
				}
			}
			res.Conflicts = append(res.Conflicts, kvConflicts(p, ourData, theirData, kept, their.Hash)...)
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

// kvConflicts names the keys of an agent's kv.json that a merge kept as ours although theirs
// set them too: the agent, the key, our value (kept) and theirs (in commit theirs).
func kvConflicts(rel string, ours, theirs []byte, kept []string, commit plumbing.Hash) []Conflict {
	o, _ := memory.ParseKV(rel, ours)
	t, _ := memory.ParseKV(rel, theirs)
	out := make([]Conflict, 0, len(kept))
	for _, k := range kept {
		c := Conflict{Path: rel, Agent: kvAgent(rel), Key: k, Theirs: commit.String()}
		if k != "*" {
			c.Value, c.Other = shownValue(kvText(o[k])), shownValue(kvText(t[k]))
		}
		out = append(out, c)
	}
	return out
}

// mergeKV merges two machines' versions of an agent's kv.json key by key against their common
// base: a key only one side set or deleted takes that side; a key both sides set to different
// values keeps ours, and is listed in kept (their value stays in their commit, a parent of the
// merge, and the sync result names it). A version that does not parse keeps ours whole (nil:
// nothing to change), every key of theirs listed.
func mergeKV(rel string, base, ours, theirs []byte) ([]byte, []string) {
	b := map[string]json.RawMessage{}
	if base != nil {
		if m, err := memory.ParseKV(rel, base); err == nil {
			b = m
		}
	}
	o, oerr := memory.ParseKV(rel, ours)
	t, terr := memory.ParseKV(rel, theirs)
	if oerr != nil || terr != nil {
		return nil, []string{"*"}
	}
	var kept []string
	for k, tv := range t {
		ov, inOurs := o[k]
		bv, inBase := b[k]
		switch {
		case inOurs && bytes.Equal(ov, tv):
		case inBase && bytes.Equal(bv, tv):
			// only ours changed (or deleted) it: ours stays, no conflict — it fell to the
			// default below and was reported as one whenever theirs changed another key
		case inBase && inOurs && bytes.Equal(bv, ov):
			o[k] = tv // only theirs changed it
		case !inOurs && !inBase:
			o[k] = tv // new on their side
		case !inOurs:
			o[k] = tv // we deleted what they changed: theirs, nothing lost
		default:
			kept = append(kept, k) // both changed it: ours stays
		}
	}
	for k, bv := range b {
		if _, inTheirs := t[k]; inTheirs {
			continue
		}
		if ov, inOurs := o[k]; inOurs && bytes.Equal(ov, bv) {
			delete(o, k) // they deleted it, we left it alone
		}
	}
	sort.Strings(kept)
	out, err := memory.RenderKV(o)
	if err != nil {
		return nil, []string{"*"}
	}
	return out, kept
}

// conflictSlug is "<slug>-conflict-<short>", the slug cut so the whole stays a valid slug.
func conflictSlug(slug, short string) string {
	suffix := "-conflict-" + short
	if len(slug)+len(suffix) > 64 {
		slug = strings.TrimRight(slug[:64-len(suffix)], "-")
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
