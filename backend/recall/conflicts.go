package recall

import (
	"context"
	"slices"
	"time"

	"engram/backend/memory"
)

// A memory whose conflicts_with names another is one the machine marked as disagreeing with it
// (DESIGN §5): an identity memory still stating a place a correction replaced ("Name: Alice
// Chen; Based in Paris" beside user-location "Based in Berlin"), a sync or project-move
// conflict copy beside the version kept. Until the person reviews it, it is the stale side
// when the memory it names is present and newer (changed after the marked memory was first
// written): search, build_context and the Memory Index put it below that memory, and a search
// that did not find that memory still weights it down. A reviewed memory is the person's word
// and ranks as any other; so does one whose named memory is gone, archived or older.

const (
	// conflictBelow caps a stale memory's score at this share of the newer memory's.
	conflictBelow = 0.9
	// conflictPenalty weights a stale memory whose newer memory the search did not find.
	conflictPenalty = 0.5
)

// staleSide reports whether m is an unreviewed memory marked conflicting with others.
func staleSide(m *memory.Memory) bool { return !m.Reviewed && len(m.ConflictsWith) > 0 }

// newerThan reports whether the named memory other settles what stale states: changed after
// stale was first written.
func newerThan(other time.Time, stale *memory.Memory) bool { return other.After(stale.Created) }

// slugKey names a memory by its scope instance and slug, as conflicts_with names it.
func slugKey(scope memory.Scope, key, slug string) string {
	return string(scope) + "\x00" + key + "\x00" + slug
}

// demoteConflicting lowers, after ranking weights, the candidates that are the stale side of a
// conflict: under the newer memory when it is a candidate too, else by conflictPenalty when
// the store holds it. Nothing is read when no candidate is marked (LoCoMo, most searches).
func (s *Service) demoteConflicting(ctx context.Context, cands map[int64]*cand) {
	var stale []*cand
	for _, c := range cands {
		if staleSide(c.m) {
			stale = append(stale, c)
		}
	}
	if len(stale) == 0 {
		return
	}
	slices.SortFunc(stale, func(a, b *cand) int { return int(a.rid - b.rid) })
	by := make(map[string]*cand, len(cands))
	for _, c := range cands {
		by[slugKey(c.m.Scope, c.m.ScopeKey(), c.m.Slug)] = c
	}
	capped := map[*cand][]*cand{} // stale → the newer candidates it must stay under
	for _, c := range stale {
		penal := false
		for _, slug := range c.m.ConflictsWith {
			if slug == c.m.Slug {
				continue
			}
			if o, ok := by[slugKey(c.m.Scope, c.m.ScopeKey(), slug)]; ok {
				if newerThan(o.m.Updated, c.m) {
					capped[c] = append(capped[c], o)
				}
				continue
			}
			// By the scope key the candidates are matched by: a synced project memory's
			// workdir may be another machine's path. A named memory that is gone, or cannot
			// be read, marks nothing.
			up, err := s.store.UpdatedBySlug(ctx, c.m.Scope, c.m.ScopeKey(), slug)
			penal = penal || (err == nil && newerThan(up, c.m))
		}
		if penal {
			c.score *= conflictPenalty
		}
	}
	// A newer memory may itself be capped under another: settle the chain (bounded: marks may
	// name each other).
	for range len(stale) + 1 {
		changed := false
		for _, c := range stale {
			for _, o := range capped[c] {
				if top := o.score * conflictBelow; c.score > top {
					c.score, changed = top, true
				}
			}
		}
		if !changed {
			break
		}
	}
}

// demoteConflictingEntries moves, in the Memory Index, each unreviewed entry marked
// conflicting with a newer memory below it: right after it in the same bucket, else to the
// end of its bucket.
func (s *Service) demoteConflictingEntries(ctx context.Context, buckets []memory.IndexBucket) {
	// The index's entries carry their review state, creation time and conflicts_with, so only
	// a named memory outside the index is looked up (most overviews look up nothing).
	listed := map[string]memory.IndexEntry{}
	stale := 0
	for _, bk := range buckets {
		for _, e := range bk.Entries {
			listed[slugKey(e.Scope, bk.Key, e.Slug)] = e
			if !e.Reviewed && len(e.ConflictsWith) > 0 {
				stale++
			}
		}
	}
	if stale == 0 {
		return
	}
	for b := range buckets {
		bk := &buckets[b]
		if !slices.ContainsFunc(bk.Entries, func(e memory.IndexEntry) bool { return !e.Reviewed && len(e.ConflictsWith) > 0 }) {
			continue
		}
		for _, e := range slices.Clone(bk.Entries) {
			if e.Reviewed || len(e.ConflictsWith) == 0 {
				continue
			}
			after, last := "", false // the newer entry of this bucket to go after; or the end
			for _, slug := range e.ConflictsWith {
				if slug == e.Slug {
					continue
				}
				if o, ok := listed[slugKey(e.Scope, bk.Key, slug)]; ok {
					if o.Updated.After(e.Created) {
						if o.Type == bk.Type {
							after = o.ID
						} else {
							last = true
						}
					}
					continue
				}
				up, err := s.store.UpdatedBySlug(ctx, e.Scope, bk.Key, slug)
				last = last || (err == nil && up.After(e.Created))
			}
			if after != "" || last {
				bk.Entries = moveEntry(bk.Entries, e.ID, after, last)
			}
		}
	}
}

// moveEntry moves the entry id just after the entry after when that comes later, or to the end
// when last; otherwise it leaves the list as it is.
func moveEntry(es []memory.IndexEntry, id, after string, last bool) []memory.IndexEntry {
	from := slices.IndexFunc(es, func(e memory.IndexEntry) bool { return e.ID == id })
	to := len(es) - 1
	if !last {
		to = slices.IndexFunc(es, func(e memory.IndexEntry) bool { return e.ID == after })
	}
	if from < 0 || to <= from {
		return es
	}
	e := es[from]
	es = slices.Delete(es, from, from+1)
	return slices.Insert(es, to, e)
}
