package memory

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/oklog/ulid/v2"

	"engram/backend/memory/format"
)

// A merge is one batch group: the keeper's write, then its sources' deletes (batchOrder). Its
// files change one by one while the index waits for the batch's commit, so a process killed
// between the keeper's write and the last delete (the organizer applying a review, a SIGKILL,
// a power cut) left the merged keeper beside the sources it had taken in: duplicates, which
// the next open indexed as they were. A merge journal, in the home beside the memory folder,
// is written before the first change and removed after the commit; whoever next holds the
// lock and finds one (finishMergesLocked: the next open, the next batch of a running app)
// finishes the merge when every keeper was written (phase deleting: the sources still at
// their version go to the trash) and undoes it otherwise (phase planned: each keeper gets its
// old text back, a new keeper goes to the trash). Nothing is removed for good either way.
const mergeJournalPrefix = ".merge-journal-"

const (
	mergePhasePlanned  = "planned"  // keepers are being written; no source has moved
	mergePhaseDeleting = "deleting" // every journalled keeper is written; sources are moving to the trash
)

type mergeJournal struct {
	Phase  string       `json:"phase"`
	Actor  string       `json:"actor"`
	Groups []mergeGroup `json:"groups"`
	path   string
}

type mergeGroup struct {
	Group   string      `json:"group"`
	Keepers []mergeFile `json:"keepers"`
	Sources []mergeFile `json:"sources"`
	failed  bool
}

// mergeFile is a file a merge changes: its checksum before the batch (Version, "" for a
// keeper that did not exist) and a keeper's text before it (Old), to undo the write. To and
// Post are where a keeper's file goes (a rename or an archive moves it) and its checksum
// there, journalled right before it is put in place (noteKeeper): the mend tells the batch's
// own write (Post) and the untouched file (Version) from a hand edit made after the kill,
// which it must never overwrite.
type mergeFile struct {
	Rel     string `json:"rel"`
	Version string `json:"version"`
	Old     []byte `json:"old,omitempty"`
	To      string `json:"to,omitempty"`
	Post    string `json:"post,omitempty"`
	Placed  bool   `json:"placed,omitempty"` // Post is journalled: the file may be in place
	item    int
}

// CodeMergeUnsupported refuses every item of a merge group (a group_id with deletes) whose
// other item is an op the merge journal cannot undo (reject, restore, append_daily): its
// deletes would run unjournalled, and a kill between them would leave the merge half done.
const CodeMergeUnsupported = "merge_unsupported"

// mergeKilled, set by the tests' child process, is called at each step of a batch holding a
// merge ("planned", "item N", "deleting", "committed") and kills the process there.
var mergeKilled func(step string)

func killPoint(step string) {
	if mergeKilled != nil {
		mergeKilled(step)
	}
}

// planMerges journals the groups of b whose deletes wait for a write (deferred), before any
// file changes; nil when there are none. A group whose items cannot be resolved now is left
// out: its write will fail too, and a failed group deletes nothing.
//
// Only the groups in the journal may delete (journalled); a group holding an op the journal
// cannot undo is refused whole (refused, CodeMergeUnsupported), so that no caller — the
// organizer, a person's batch through the api or the bridge — trashes a merge's sources
// without a journal to mend a kill by.
func (s *Store) planMerges(ctx context.Context, tx *sql.Tx, b *Batch, deferred map[int]bool) (j *mergeJournal, journalled map[string]bool, refused map[string]Op, err error) {
	byGroup := map[string]*mergeGroup{}
	var order []string
	journalled, refused = map[string]bool{}, map[string]Op{}
	for i, it := range b.Items {
		if deferred[i] && byGroup[it.GroupID] == nil {
			byGroup[it.GroupID] = &mergeGroup{Group: it.GroupID}
			order = append(order, it.GroupID)
		}
	}
	if len(order) == 0 {
		return nil, journalled, refused, nil
	}
	for i, it := range b.Items {
		if g := byGroup[it.GroupID]; g != nil && !deferred[i] && !journalable(it.Op) {
			refused[it.GroupID], g.failed = it.Op, true
		}
	}
	for i, it := range b.Items {
		g := byGroup[it.GroupID]
		if g == nil || g.failed {
			continue
		}
		f, ok := s.mergeFileOf(ctx, tx, it, deferred[i])
		f.item = i
		switch {
		case !ok && deferred[i]:
			// A source gone or unreadable: its delete fails by itself; the rest of the
			// merge is journalled without it.
		case !ok:
			g.failed = true
		case deferred[i]:
			g.Sources = append(g.Sources, f)
		default:
			g.Keepers = append(g.Keepers, f)
		}
	}
	j = &mergeJournal{Phase: mergePhasePlanned, Actor: b.Actor,
		path: filepath.Join(s.home, mergeJournalPrefix+ulid.Make().String()+".json")}
	for _, id := range order {
		if g := byGroup[id]; !g.failed {
			j.Groups = append(j.Groups, *g)
			journalled[id] = true
		}
	}
	if len(j.Groups) == 0 {
		return nil, journalled, refused, nil
	}
	return j, journalled, refused, j.save()
}

// journalable reports whether a merge's keeper may be changed by op: the journal can undo a
// write, an update (in place or renamed), an accept and an archive.
func journalable(op Op) bool {
	switch op {
	case OpWrite, OpUpdate, OpAccept, OpArchive:
		return true
	}
	return false
}

// keeperNote returns, for item i of a journalled group, the function the write path calls
// right before the item's file is put in place (Store.mergeNote); nil for any other item. A
// keeper's destination and merged checksum are journalled; a source is written only when its
// delete first stamps an id into a hand-written file (stampHandID), and its new checksum
// becomes the version the mend trashes it at, not a hand edit to keep.
func (j *mergeJournal) keeperNote(i int) func(to, post string) error {
	for gi := range j.Groups {
		g := &j.Groups[gi]
		for ki := range g.Keepers {
			if f := &g.Keepers[ki]; f.item == i {
				return func(to, post string) error {
					f.To, f.Post, f.Placed = to, post, true
					return j.save()
				}
			}
		}
		for si := range g.Sources {
			if f := &g.Sources[si]; f.item == i {
				return func(_, post string) error {
					f.Version = post
					return j.save()
				}
			}
		}
	}
	return nil
}

// mergeFileOf resolves the file an item of a merge changes; ok is false for an item that
// cannot be (it will fail, and its group deletes nothing).
func (s *Store) mergeFileOf(ctx context.Context, tx *sql.Tx, it Item, source bool) (mergeFile, bool) {
	switch {
	case source || it.Op == OpUpdate || it.Op == OpAccept || it.Op == OpArchive:
		m, err := s.target(ctx, tx, it)
		if err != nil {
			return mergeFile{}, false
		}
		data, err := readNoFollow(s.abs(m.Path))
		if err != nil {
			return mergeFile{}, false
		}
		f := mergeFile{Rel: m.Path, Version: Checksum(data)}
		if !source {
			f.Old = data
		}
		return f, true
	case it.Op == OpWrite:
		slug := it.Slug
		if slug == "" {
			slug = format.SlugFromTitle(strings.TrimSpace(deref(it.Title)))
		}
		_, _, key, err := s.scopeKey(it.Scope, it.Workdir, it.Agent)
		if err != nil || !ValidSlug(slug) {
			return mergeFile{}, false
		}
		rel := relPath(it.Scope, key, it.Type, slug)
		if _, err := os.Lstat(s.abs(rel)); err == nil {
			return mergeFile{}, false // taken: the write fails with already_exists
		}
		return mergeFile{Rel: rel}, true
	}
	return mergeFile{}, false
}

func (j *mergeJournal) save() error {
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	return writeFileAtomic(j.path, b, nil, nil, false)
}

// written moves the journal to phase deleting once every write of the batch has run, keeping
// only the groups whose writes all succeeded (the others delete nothing).
func (j *mergeJournal) written(failed map[string]bool) error {
	kept := j.Groups[:0]
	for _, g := range j.Groups {
		if !failed[g.Group] {
			kept = append(kept, g)
		}
	}
	j.Groups, j.Phase = kept, mergePhaseDeleting
	return j.save()
}

func (j *mergeJournal) remove(home string) {
	_ = os.Remove(j.path)
	_ = syncDir(home)
}
