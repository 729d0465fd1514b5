package memory

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
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
// keeper that did not exist) and a keeper's text before it (Old), to undo the write.
type mergeFile struct {
	Rel     string `json:"rel"`
	Version string `json:"version"`
	Old     []byte `json:"old,omitempty"`
}

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
func (s *Store) planMerges(ctx context.Context, tx *sql.Tx, b *Batch, deferred map[int]bool) (*mergeJournal, error) {
	byGroup := map[string]*mergeGroup{}
	var order []string
	for i, it := range b.Items {
		if deferred[i] && byGroup[it.GroupID] == nil {
			byGroup[it.GroupID] = &mergeGroup{Group: it.GroupID}
			order = append(order, it.GroupID)
		}
	}
	if len(order) == 0 {
		return nil, nil
	}
	for i, it := range b.Items {
		g := byGroup[it.GroupID]
		if g == nil || g.failed {
			continue
		}
		f, ok := s.mergeFileOf(ctx, tx, it, deferred[i])
		switch {
		case !ok:
			g.failed = true
		case deferred[i]:
			g.Sources = append(g.Sources, f)
		default:
			g.Keepers = append(g.Keepers, f)
		}
	}
	j := &mergeJournal{Phase: mergePhasePlanned, Actor: b.Actor,
		path: filepath.Join(s.home, mergeJournalPrefix+ulid.Make().String()+".json")}
	for _, id := range order {
		if g := byGroup[id]; !g.failed {
			j.Groups = append(j.Groups, *g)
		}
	}
	if len(j.Groups) == 0 {
		return nil, nil
	}
	return j, j.save()
}

// mergeFileOf resolves the file an item of a merge changes; ok is false for an item that
// cannot be (it will fail) or whose change a journal cannot undo (a rename, an archive).
func (s *Store) mergeFileOf(ctx context.Context, tx *sql.Tx, it Item, source bool) (mergeFile, bool) {
	switch {
	case source || (it.Op == OpUpdate && (it.NewSlug == "" || it.NewSlug == it.Slug)):
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

// finishMergesLocked finishes or undoes every merge a killed or failed batch left (see
// mergeJournalPrefix), holding the store's lock; it reports whether a file changed, so that
// the caller brings the index in line. A source changed since the journal was written (a hand
// edit) is left live; a keeper being undone gets the text the journal kept.
func (s *Store) finishMergesLocked() bool {
	paths, _ := filepath.Glob(filepath.Join(s.home, mergeJournalPrefix+"*.json"))
	changed := false
	for _, p := range paths {
		data, err := os.ReadFile(p)
		var j mergeJournal
		if err == nil {
			err = json.Unmarshal(data, &j)
		}
		if err != nil {
			s.log.Warn("memory: unable to read a merge journal; leaving it", "path", p, "err", err)
			continue
		}
		j.path = p
		if err := s.finishMerge(&j, &changed); err != nil {
			s.log.Warn("memory: unable to finish an interrupted merge; it is tried again at the next open", "path", p, "err", err)
			continue
		}
		j.remove(s.home)
	}
	return changed
}

func (s *Store) finishMerge(j *mergeJournal, changed *bool) error {
	dirs := map[string]bool{}
	now := s.opts.Now()
	var errs []error
	for _, g := range j.Groups {
		if j.Phase == mergePhaseDeleting {
			for _, f := range g.Sources {
				if cur, err := readNoFollow(s.abs(f.Rel)); err == nil && Checksum(cur) == f.Version {
					errs = append(errs, s.moveAside(f.Rel, trashName(f.Rel, now), dirs))
					*changed = true
				}
			}
			s.log.Info("memory: finished a merge an interrupted process left", "group", g.Group, "actor", j.Actor)
			continue
		}
		for _, f := range g.Keepers {
			cur, err := readNoFollow(s.abs(f.Rel))
			switch {
			case err != nil:
				// Gone: nothing of the batch's to undo.
			case f.Version == "":
				errs = append(errs, s.moveAside(f.Rel, trashName(f.Rel, now), dirs))
				*changed = true
			case Checksum(cur) != f.Version:
				errs = append(errs, writeFileAtomic(s.abs(f.Rel), f.Old, dirs, nil, false))
				*changed = true
			}
		}
		s.log.Info("memory: undid a merge an interrupted process left half done", "group", g.Group, "actor", j.Actor)
	}
	errs = append(errs, syncDirs(dirs))
	return errors.Join(errs...)
}
