package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"engram/backend/memory"
)

// What a sync changed is counted once, by kind of file, from the paths it wrote: the merge
// commit's subject and the sync result are both made from the same count. They used to be
// counted apart — the subject counted the merge's changes (a kv.json or journal day that came
// out as ours included) and neither the conflict copies nor the kv keys, the result counted
// only the memories reconciled — and disagreed with each other and with the files.

// fileKind is what a changed path is; 0 is a file that holds no data (the .gitignore).
type fileKind uint8

const (
	kindMemory fileKind = iota + 1
	kindDay
	kindKV
	kindCopy // the other machine's version of a memory both changed, written beside ours
)

func kindOf(p string) fileKind {
	switch {
	case isKV(p):
		return kindKV
	case !tracked(p):
		return 0
	case strings.HasPrefix(p, "daily/"):
		return kindDay
	}
	return kindMemory
}

// copyKey stands for a conflict copy still to be written (its path is the store's choice).
func copyKey(c pendingCopy) string { return "\x00copy/" + c.path + "@" + c.short }

// syncCounts is a count of changed files by kind.
type syncCounts struct{ memories, days, kv, copies int }

func countFiles(files map[string]fileKind) syncCounts {
	var c syncCounts
	for _, k := range files {
		switch k {
		case kindMemory:
			c.memories++
		case kindDay:
			c.days++
		case kindKV:
			c.kv++
		case kindCopy:
			c.copies++
		}
	}
	return c
}

func (c syncCounts) total() int { return c.memories + c.days + c.kv + c.copies }

func plural(n int, one, other string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, other)
}

// String is the count as the merge commit's subject gives it: "3 changed: 1 journal day,
// 1 kv file, 1 conflict copy" (kinds without a change left out).
func (c syncCounts) String() string {
	var kinds []string
	for _, k := range []struct {
		n          int
		one, other string
	}{{c.memories, "memory", "memories"}, {c.days, "journal day", "journal days"},
		{c.kv, "kv file", "kv files"}, {c.copies, "conflict copy", "conflict copies"}} {
		if k.n > 0 {
			kinds = append(kinds, plural(k.n, k.one, k.other))
		}
	}
	if len(kinds) == 0 {
		return "0 changed"
	}
	return fmt.Sprintf("%d changed: %s", c.total(), strings.Join(kinds, ", "))
}

// mergeSubject is the merge commit's operation: "merge R (3 changed: …; 2 conflicts)".
func mergeSubject(remote string, c syncCounts, conflicts int) string {
	return fmt.Sprintf("merge %s (%s; %s)", remote, c, plural(conflicts, "conflict", "conflicts"))
}

// note records that the sync changed p, of kind k (tally counts the result again).
func (res *SyncResult) note(p string, k fileKind) {
	if k == 0 {
		return
	}
	if res.files == nil {
		res.files = map[string]fileKind{}
	}
	res.files[p] = k
}

// forget takes back a file the sync meant to write and did not (a conflict copy that failed).
func (res *SyncResult) forget(p string) {
	delete(res.files, p)
	res.tally()
}

func (res *SyncResult) tally() {
	c := countFiles(res.files)
	res.Memories, res.Days, res.KVFiles, res.Copies, res.Changed = c.memories, c.days, c.kv, c.copies, c.total()
}

// absorb adds what an earlier attempt of the same sync did (one that merged, then found the
// remote moved before its push): the files it changed are changed all the same.
func (res *SyncResult) absorb(first SyncResult) {
	res.Fetched = res.Fetched || first.Fetched
	res.Merged = res.Merged || first.Merged
	res.FastForward = res.FastForward || first.FastForward
	res.Conflicts = append(first.Conflicts, res.Conflicts...)
	res.Replaced = append(first.Replaced, res.Replaced...)
	for p, k := range first.files {
		if _, ok := res.files[p]; !ok {
			res.note(p, k)
		}
	}
	res.tally()
}

// bothChanged reports whether a three-way merge of one path must choose: both sides changed
// it, differently, and neither deleted it (see merge).
func bothChanged(b, o, t plumbing.Hash) bool {
	return o != t && b != t && b != o && !o.IsZero() && !t.IsZero()
}

// shownValueRunes bounds a kv value a Conflict carries: a value may hold 64 KiB, and a sync's
// result (the window, the bridge, the CLI) names it to recognise it, not to restore it (the
// whole value is in commit Theirs).
const shownValueRunes = 80

// shownValue is a kv value as a Conflict carries it: at most shownValueRunes runes, a longer
// one cut on a rune boundary and ended with "…".
func shownValue(v string) string {
	if utf8.RuneCountInString(v) <= shownValueRunes {
		return v
	}
	n := 0
	for i := range v {
		if n == shownValueRunes-1 {
			return v[:i] + "…"
		}
		n++
	}
	return v
}

// kvText is a kv value as compact JSON text ("" for none).
func kvText(v json.RawMessage) string {
	if v == nil {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}

// kvValues parses an agent's kv.json blob (the zero hash: no file, no keys).
func kvValues(repo *git.Repository, rel string, h plumbing.Hash) (map[string]json.RawMessage, error) {
	if h.IsZero() {
		return map[string]json.RawMessage{}, nil
	}
	data, err := blobBytes(repo.Storer, h)
	if err != nil {
		return nil, err
	}
	return memory.ParseKV(rel, data)
}

// kvAgent is the agent of agents/<agent>/kv.json.
func kvAgent(rel string) string { return strings.Split(rel, "/")[1] }

// replacedHere lists what a fast-forward from → to brings that a sync on another machine
// decided against this machine. A merge keeps the merging machine's version of a memory, a
// journal day or a kv key both machines changed (the later sync wins); the machine that pushed
// first finds its version replaced when it next syncs, by a fast-forward that says nothing of
// it. Every sync merge between from and to is looked at again, and each of its choices whose
// losing side is what this machine held (from) and which changed it here is returned: a key's
// value now and this machine's (in commit Theirs, the merge's parent that holds it), a memory's
// copy (this machine's version, written beside it by the merge's machine). So is what this
// machine deleted and the merging machine changed, which the merge kept changed and is back
// here (Deleted DeletedHere; Theirs holds this machine's delete). copies are the paths of
// those copies.
func replacedHere(repo *git.Repository, from, to *object.Commit, old, next map[string]plumbing.Hash) ([]Conflict, map[string]bool, error) {
	var changed []string
	for p, h := range next {
		if old[p] != h && kindOf(p) != 0 {
			changed = append(changed, p)
		}
	}
	for p := range old {
		if _, ok := next[p]; !ok && kindOf(p) != 0 {
			changed = append(changed, p)
		}
	}
	out, copies := []Conflict{}, map[string]bool{}
	if len(changed) == 0 {
		return out, copies, nil
	}
	merges, err := syncMergesBetween(repo, from, to)
	if err != nil {
		return out, copies, err
	}
	seen := map[string]bool{}
	var written map[string][]string // files next added or changed, by name: made once, when needed
	add := func(c Conflict) {
		if k := c.Path + "\x00" + c.Key; !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	for _, m := range merges {
		p1, err := repo.CommitObject(m.ParentHashes[0])
		if err != nil {
			return out, copies, err
		}
		p2, err := repo.CommitObject(m.ParentHashes[1])
		if err != nil {
			return out, copies, err
		}
		trees := [3]*object.Tree{}
		if bases, err := p1.MergeBase(p2); err == nil && len(bases) > 0 {
			trees[0], _ = bases[0].Tree()
		}
		if trees[1], err = p1.Tree(); err != nil {
			return out, copies, err
		}
		if trees[2], err = p2.Tree(); err != nil {
			return out, copies, err
		}
		for _, p := range changed {
			b, o, t := blobAt(trees[0], p), blobAt(trees[1], p), blobAt(trees[2], p)
			// gone: the other side of that merge deleted what the merging machine changed,
			// which the merge kept changed; here, where it was deleted, it is back.
			gone := !b.IsZero() && t.IsZero() && !o.IsZero() && o != b
			if !bothChanged(b, o, t) && !gone {
				continue
			}
			data := [3][]byte{}
			for i, h := range []plumbing.Hash{b, o, t} {
				switch {
				case !h.IsZero():
					if data[i], err = blobBytes(repo.Storer, h); err != nil {
						return out, copies, err
					}
				case i > 0 && isKV(p):
					data[i] = emptyKV // a kv.json deleted whole: no keys
				}
			}
			lost := Conflict{Path: p, Theirs: p2.Hash.String()}
			if gone {
				lost.Deleted = DeletedHere
			}
			switch kindOf(p) {
			case kindDay:
				if gone {
					if t == old[p] {
						lost.Day = strings.TrimSuffix(path.Base(p), ".md")
						add(lost)
					}
					continue
				}
				if _, ok := mergeDaily(data[0], data[1], data[2]); !ok && t == old[p] {
					lost.Day = strings.TrimSuffix(path.Base(p), ".md")
					add(lost)
				}
			case kindKV:
				_, kept, deleted := mergeKV(p, data[0], data[1], data[2])
				lost.Agent = kvAgent(p)
				if len(kept) == 1 && kept[0] == "*" {
					if t == old[p] {
						lost.Key = "*"
						add(lost)
					}
					continue
				}
				lost.Deleted = ""
				was, err := kvValues(repo, p, old[p])
				if err != nil {
					continue
				}
				now, _ := kvValues(repo, p, next[p])
				theirs, err := memory.ParseKV(p, data[2])
				if err != nil {
					continue
				}
				for _, k := range kept {
					w, ok := was[k]
					if !ok || kvText(w) != kvText(theirs[k]) || kvText(now[k]) == kvText(w) {
						continue // this machine did not hold the losing value, or holds it still
					}
					c := lost
					c.Key, c.Value, c.Other = k, shownValue(kvText(now[k])), shownValue(kvText(w))
					add(c)
				}
				for _, c := range revivedKeys(deleted, was, now, lost) {
					add(c)
				}
			default:
				if t != old[p] {
					continue
				}
				if gone {
					lost.Slug = memorySlug(p, data[1])
					add(lost)
					continue
				}
				lost.Slug = strings.TrimSuffix(path.Base(p), ".md")
				if mm, err := memory.Parse(data[2]); err == nil {
					lost.Slug = mm.Slug
				}
				want := conflictSlug(lost.Slug, t.String()[:7]) + ".md"
				if written == nil {
					written = writtenByName(old, next)
				}
				if q := copyPath(written[want], path.Dir(p)); q != "" {
					lost.Copy = strings.TrimSuffix(want, ".md")
					copies[q] = true
				}
				add(lost)
			}
		}
	}
	return out, copies, nil
}

// writtenByName indexes the files next adds or changes (those a memory's conflict copy can be)
// by their file name, each name's paths sorted.
func writtenByName(old, next map[string]plumbing.Hash) map[string][]string {
	out := map[string][]string{}
	for q, h := range next {
		if old[q] != h {
			out[path.Base(q)] = append(out[path.Base(q)], q)
		}
	}
	for _, qs := range out {
		sort.Strings(qs)
	}
	return out
}

// copyPath picks a memory's conflict copy among the written files of its name: the one beside
// the memory (in dir), where the merge writes it, else the first; "" when there is none.
func copyPath(paths []string, dir string) string {
	for _, q := range paths {
		if path.Dir(q) == dir {
			return q
		}
	}
	if len(paths) > 0 {
		return paths[0]
	}
	return ""
}

// blobAt is the blob at p in tree (nil: no tree), the zero hash when there is none.
func blobAt(tree *object.Tree, p string) plumbing.Hash {
	if tree == nil {
		return plumbing.ZeroHash
	}
	e, err := tree.FindEntry(p)
	if err != nil || !e.Mode.IsFile() {
		return plumbing.ZeroHash
	}
	return e.Hash
}

// maxRangeWalk bounds the commits syncMergesBetween reads: a report, not worth a long walk.
const maxRangeWalk = 20000

// syncMergesBetween lists the sync merges reachable from to and not from from (git's
// from..to), newest first. Commits are taken newest first, each marked as reachable from
// from, to or both, and the walk ends when only commits reachable from from are left.
func syncMergesBetween(repo *git.Repository, from, to *object.Commit) ([]*object.Commit, error) {
	const mine, theirs = 1, 2
	flags := map[plumbing.Hash]uint8{to.Hash: theirs}
	flags[from.Hash] |= mine
	queue := []*object.Commit{to, from}
	var out []*object.Commit
	onlyTheirs := func() bool {
		for _, c := range queue {
			if flags[c.Hash] == theirs {
				return true
			}
		}
		return false
	}
	for n := 0; n < maxRangeWalk && onlyTheirs(); n++ {
		i := 0
		for j, c := range queue {
			if c.Committer.When.After(queue[i].Committer.When) {
				i = j
			}
		}
		c := queue[i]
		queue = append(queue[:i], queue[i+1:]...)
		f := flags[c.Hash]
		if f == theirs && len(c.ParentHashes) == 2 && strings.HasPrefix(c.Message, memory.ActorSync+": merge ") {
			out = append(out, c)
		}
		for _, ph := range c.ParentHashes {
			if flags[ph]|f == flags[ph] {
				continue // nothing new to carry
			}
			flags[ph] |= f
			pc, err := repo.CommitObject(ph)
			if err != nil {
				return nil, fmt.Errorf("history: unable to read commit %s: %w", ph, err)
			}
			queue = append(queue, pc)
		}
	}
	return out, nil
}

// logChoices writes to the log what a scheduled sync decided or brought, which no one may be
// there to read in its result: each conflict and each version of this machine replaced by the
// other's (paths, slugs, days and keys; never a value).
func (r *Repo) logChoices(res SyncResult) {
	for _, c := range res.Conflicts {
		msg := "history: sync kept this machine's version"
		switch c.Deleted {
		case DeletedHere:
			msg = "history: sync brought back what this machine deleted and the other machine changed"
		case DeletedThere:
			msg = "history: sync kept this machine's change of what the other machine deleted"
		}
		r.log.Info(msg, "path", c.Path, "slug", c.Slug, "key", c.Key,
			"day", c.Day, "copy", c.Copy, "theirs", c.Theirs, "copy_error", c.CopyError, "deleted", c.Deleted)
	}
	for _, c := range res.Replaced {
		r.log.Warn("history: another machine's sync replaced this machine's version", "path", c.Path, "slug", c.Slug,
			"key", c.Key, "day", c.Day, "copy", c.Copy, "commit", c.Theirs, "deleted", c.Deleted)
	}
}
