package history

import (
	"bytes"
	"encoding/json"
	"sort"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"engram/backend/memory"
)

// emptyKV is an agent's kv.json without keys: what a merge reads for a kv.json one side
// deleted whole, so its keys are merged one by one like any other delete.
var emptyKV, _ = memory.RenderKV(map[string]json.RawMessage{})

// kvBlob is a kv.json's content for a merge (the zero hash: a deleted file, no keys).
func kvBlob(repo *git.Repository, h plumbing.Hash) ([]byte, error) {
	if h.IsZero() {
		return emptyKV, nil
	}
	return blobBytes(repo.Storer, h)
}

// mergeKVFile merges an agent's kv.json that both sides changed (or one deleted and the other
// changed) key by key and returns the blob the merge keeps (o: ours as it is; the zero hash:
// still deleted) and the conflicts it names. A key one side deleted and the other changed
// takes the change; a version that does not parse keeps ours whole, unless ours deleted the
// file: then theirs, a change, comes back whole.
func mergeKVFile(repo *git.Repository, p string, b, o, t, their plumbing.Hash) (plumbing.Hash, []Conflict, error) {
	var baseData []byte
	var err error
	if !b.IsZero() {
		if baseData, err = blobBytes(repo.Storer, b); err != nil {
			return o, nil, err
		}
	}
	ourData, err := kvBlob(repo, o)
	if err != nil {
		return o, nil, err
	}
	theirData, err := kvBlob(repo, t)
	if err != nil {
		return o, nil, err
	}
	merged, kept, deleted := mergeKV(p, baseData, ourData, theirData)
	h := o
	switch {
	case merged == nil:
		if o.IsZero() {
			h = t // theirs does not parse, and we deleted the file: the change comes back
			deleted = map[string]string{"*": DeletedHere}
		} else if t.IsZero() {
			deleted = map[string]string{"*": DeletedThere}
		}
	case o.IsZero() && bytes.Equal(merged, emptyKV):
		// we deleted the file and nothing of theirs comes back: it stays deleted
	default:
		if h, err = storeBlob(repo.Storer, merged); err != nil {
			return o, nil, err
		}
	}
	return h, kvConflicts(p, ourData, theirData, kept, deleted, their), nil
}

// kvConflicts names the keys of an agent's kv.json that a merge kept as ours although theirs
// set them too: the agent, the key, our value (kept) and theirs (in commit theirs); and each
// key one side deleted and the other changed (deleted: which side deleted it; Value: the
// changed value the merge keeps). "*" is a version that did not parse.
func kvConflicts(rel string, ours, theirs []byte, kept []string, deleted map[string]string, commit plumbing.Hash) []Conflict {
	o, _ := memory.ParseKV(rel, ours)
	t, _ := memory.ParseKV(rel, theirs)
	out := make([]Conflict, 0, len(kept)+len(deleted))
	for _, k := range kept {
		c := Conflict{Path: rel, Agent: kvAgent(rel), Key: k, Theirs: commit.String(), Deleted: deleted[k]}
		if k != "*" {
			c.Value, c.Other = shownValue(kvText(o[k])), shownValue(kvText(t[k]))
		}
		out = append(out, c)
	}
	keys := make([]string, 0, len(deleted))
	for k := range deleted {
		if k != "*" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		c := Conflict{Path: rel, Agent: kvAgent(rel), Key: k, Theirs: commit.String(), Deleted: deleted[k]}
		if c.Deleted == DeletedHere {
			c.Value = shownValue(kvText(t[k])) // theirs, back here
		} else {
			c.Value = shownValue(kvText(o[k])) // ours, kept
		}
		out = append(out, c)
	}
	return out
}

// mergeKV merges two machines' versions of an agent's kv.json key by key against their common
// base: a key only one side set or deleted takes that side; a key both sides set to different
// values keeps ours, and is listed in kept (their value stays in their commit, a parent of the
// merge, and the sync result names it); a key one side deleted and the other changed keeps the
// change, and is listed in deleted with the side that deleted it (DeletedHere: we did, theirs
// comes back; DeletedThere: they did, ours stays). A version that does not parse keeps ours
// whole (nil: nothing to change), every key of theirs listed.
func mergeKV(rel string, base, ours, theirs []byte) ([]byte, []string, map[string]string) {
	b := map[string]json.RawMessage{}
	if base != nil {
		if m, err := memory.ParseKV(rel, base); err == nil {
			b = m
		}
	}
	o, oerr := memory.ParseKV(rel, ours)
	t, terr := memory.ParseKV(rel, theirs)
	if oerr != nil || terr != nil {
		return nil, []string{"*"}, nil
	}
	var kept []string
	deleted := map[string]string{}
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
			o[k] = tv // we deleted what they changed: theirs, nothing lost, and named
			deleted[k] = DeletedHere
		default:
			kept = append(kept, k) // both changed it: ours stays
		}
	}
	for k, bv := range b {
		if _, inTheirs := t[k]; inTheirs {
			continue
		}
		ov, inOurs := o[k]
		switch {
		case inOurs && bytes.Equal(ov, bv):
			delete(o, k) // they deleted it, we left it alone
		case inOurs:
			deleted[k] = DeletedThere // they deleted what we changed: ours stays, named
		}
	}
	sort.Strings(kept)
	out, err := memory.RenderKV(o)
	if err != nil {
		return nil, []string{"*"}, nil
	}
	return out, kept, deleted
}
