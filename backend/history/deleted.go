package history

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"

	"engram/backend/memory"
)

// DeletedMemory is a memory file the history saw removed and that is not back at its path:
// deleted to the trash, and possibly purged from it since (engram cleanup, an emptied trash).
// Commit holds its last version, the one RestoreDeleted brings back.
type DeletedMemory struct {
	Path      string `json:"path"`
	ID        string `json:"id,omitempty"`
	Slug      string `json:"slug"`
	Title     string `json:"title"`
	Commit    string `json:"commit"`
	Short     string `json:"short"`
	DeletedAt string `json:"deleted_at"`
	DeletedBy string `json:"deleted_by"`
}

// maxDeletedWalk bounds the commits Deleted reads (each is compared with its first parent).
const maxDeletedWalk = 5000

// Deleted lists the memories the history saw deleted and that are not at their path now,
// newest deletion first, at most limit (≤ 0: MaxVersions). A memory purged from the trash
// is gone from the index, the trash and its path, so nothing else names it: a person who
// purged by mistake found no way back, though git kept every version. Daily files are left
// out (a day is never deleted whole by Engram).
func (r *Repo) Deleted(ctx context.Context, limit int) ([]DeletedMemory, error) {
	limit = versionLimit(limit)
	head, err := r.newest()
	if err != nil || head == nil {
		return []DeletedMemory{}, err
	}
	headTree, err := head.Tree()
	if err != nil {
		return nil, fmt.Errorf("history: unable to read the newest commit: %w", err)
	}
	out := []DeletedMemory{}
	seen := map[string]bool{}
	c := head
	for n := 0; c != nil && n < maxDeletedWalk && len(out) < limit; n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if c.NumParents() == 0 {
			break
		}
		parent, err := c.Parent(0)
		if err != nil {
			return nil, fmt.Errorf("history: unable to walk commits: %w", err)
		}
		gone, err := removedIn(parent, c)
		if err != nil {
			return nil, err
		}
		for _, g := range gone {
			if seen[g.path] {
				continue
			}
			seen[g.path] = true
			d := DeletedMemory{Path: g.path, Commit: parent.Hash.String(), Short: parent.Hash.String()[:8],
				DeletedAt: c.Committer.When.UTC().Format(time.RFC3339), DeletedBy: actorOf(c.Message)}
			if m, err := memory.Parse(g.data); err == nil {
				d.ID, d.Slug, d.Title = m.ID, m.Slug, m.Title
			}
			if backAtItsPath(headTree, g.path, d.ID) || backAtItsPath(headTree, liveOf(g.path), d.ID) {
				continue
			}
			if d.Slug == "" {
				base := g.path[strings.LastIndex(g.path, "/")+1:]
				d.Slug = strings.TrimSuffix(base, ".md")
			}
			out = append(out, d)
			if len(out) == limit {
				break
			}
		}
		c = parent
	}
	return out, nil
}

// backAtItsPath reports whether the newest commit holds the memory id (any file, when id is
// "") at path: brought back. Another memory since written under the slug does not hide it.
func backAtItsPath(head *object.Tree, path, id string) bool {
	f, err := head.File(path)
	if err != nil {
		return false
	}
	if id == "" {
		return true
	}
	text, err := f.Contents()
	if err != nil {
		return true
	}
	m, err := memory.Parse([]byte(text))
	return err != nil || m.ID == id
}

// liveOf is the live path of an archived file (.archive/YEAR/rel → rel); other paths as they are.
func liveOf(p string) string {
	parts := strings.SplitN(p, "/", 3)
	if len(parts) == 3 && parts[0] == ".archive" {
		return parts[2]
	}
	return p
}

type removedFile struct {
	path string
	data []byte
}

// removedIn lists the memory files in parent that c no longer holds, with their text in parent.
func removedIn(parent, c *object.Commit) ([]removedFile, error) {
	from, err := parent.Tree()
	if err != nil {
		return nil, fmt.Errorf("history: unable to read commit %s: %w", parent.Hash, err)
	}
	to, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("history: unable to read commit %s: %w", c.Hash, err)
	}
	changes, err := object.DiffTree(from, to)
	if err != nil {
		return nil, fmt.Errorf("history: unable to compare commits: %w", err)
	}
	archived := map[string]bool{}
	for _, ch := range changes {
		if ch.From.Name == "" && strings.HasPrefix(ch.To.Name, ".archive/") {
			archived[liveOf(ch.To.Name)] = true
		}
	}
	var out []removedFile
	for _, ch := range changes {
		p := ch.From.Name
		if ch.To.Name != "" || !strings.HasSuffix(p, ".md") || strings.HasPrefix(p, "daily/") || archived[p] {
			continue // an archive is a move, not a delete
		}
		f, err := from.File(p)
		if err != nil {
			continue
		}
		text, err := f.Contents()
		if err != nil {
			continue
		}
		out = append(out, removedFile{path: p, data: []byte(text)})
	}
	return out, nil
}

// RestoreDeleted brings back the version of the memory file rel that commit holds, for a
// memory deleted and maybe purged since (Deleted lists them). A memory whose id is live gets
// the version as an update (Restore); one still in the trash or the archive comes back from
// there first; one purged is written again as itself (its id, slug, scope, type, text and
// evidence). A slug taken since is refused with already_exists, nothing overwritten. The api
// lets only a person call it.
func (r *Repo) RestoreDeleted(ctx context.Context, st *memory.Store, rel, commit, actor string) (memory.ItemResult, error) {
	data, err := r.Read(rel, commit)
	if err != nil {
		return memory.ItemResult{}, err
	}
	old, err := memory.Parse(data)
	if err != nil {
		return memory.ItemResult{}, err
	}
	if old.ID != "" {
		if _, err := st.Get(ctx, old.ID); err != nil {
			// In the trash or the archive: back from there, then to the version asked for.
			res, err := st.ApplyBatch(ctx, memory.Batch{Actor: actor, Items: []memory.Item{{Op: memory.OpRestore, ID: old.ID}}})
			if err != nil {
				return memory.ItemResult{}, err
			}
			if r0 := res.Results[0]; !r0.OK && r0.Code != memory.CodeNotInTrash && r0.Code != memory.CodeNotFound {
				return r0, nil
			}
		}
		// Live, maybe at another path (a file renamed or moved by hand): the version asked
		// for is the one read from rel. Restore read it from the live path, where the commit
		// held nothing, and said "that commit holds no version" of a memory Deleted had just
		// listed with that very commit.
		if cur, err := st.Get(ctx, old.ID); err == nil && !cur.Archived {
			return restoreVersion(ctx, st, cur, data, actor)
		}
	}
	title, body, quote, reasoning, subject := old.Title, old.Body, old.SourceQuote, old.Reasoning, old.Subject
	it := memory.Item{Op: memory.OpWrite, ID: old.ID, Slug: old.Slug, Scope: old.Scope, Workdir: old.Workdir, Agent: old.Agent,
		Type: old.Type, Title: &title, Body: &body, Confidence: old.Confidence, SourceQuote: &quote,
		Reasoning: &reasoning, Subject: &subject, Aliases: nonNil(old.Aliases), Tags: nonNil(old.Tags),
		Supersedes: nonNil(old.Supersedes), ConflictsWith: nonNil(old.ConflictsWith)}
	res, err := st.ApplyBatch(ctx, memory.Batch{Actor: actor, Items: []memory.Item{it}, KeepIDs: true})
	if err != nil {
		return memory.ItemResult{}, err
	}
	return res.Results[0], nil
}
