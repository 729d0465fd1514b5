package memory

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"
)

// finishMergesLocked finishes or undoes every merge a killed or failed batch left (see
// mergeJournalPrefix), holding the store's lock; it reports whether a file changed, so that
// the caller brings the index in line.
//
// A file a person edited (or removed) by hand after the kill and before this mend — a keeper
// neither at its pre-merge nor at its merged checksum, a source not at the version the merge
// read — is never overwritten or moved: the person's file stays as it is, the rest of the
// merge is undone (phase planned) or stops short of trashing what still stands (phase
// deleting), and a note (mergeLeftPrefix) makes doctor say the merge was left half done.
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

// fileState is what a journalled file holds now: its checksum, or "" when it is not there.
func (s *Store) fileState(rel string) (string, error) {
	cur, err := readNoFollow(s.abs(rel))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return Checksum(cur), nil
}

func (s *Store) finishMerge(j *mergeJournal, changed *bool) error {
	dirs := map[string]bool{}
	now := s.opts.Now()
	var errs []error
	for _, g := range j.Groups {
		if j.Phase == mergePhaseDeleting {
			errs = append(errs, s.finishGroup(j, g, now, dirs, changed))
			continue
		}
		errs = append(errs, s.undoGroup(j, g, now, dirs, changed))
	}
	errs = append(errs, syncDirs(dirs))
	return errors.Join(errs...)
}

// finishGroup trashes the sources of a group whose keepers were all written — unless a keeper
// is no longer as the merge wrote it (edited or removed by hand): then what the person's
// keeper holds is not known, and every source still standing stays. A source edited by hand
// stays too.
func (s *Store) finishGroup(j *mergeJournal, g mergeGroup, now time.Time, dirs map[string]bool, changed *bool) error {
	var edited string // the first file found edited by hand
	var errs []error
	for _, f := range g.Keepers {
		want, at := f.Post, f.To
		if !f.Placed {
			want, at = f.Version, f.Rel // nothing to write (archiving what was archived)
		}
		cur, err := s.fileState(at)
		if err != nil {
			return err
		}
		if cur != want && edited == "" {
			edited = at
		}
	}
	keeperEdited := edited != ""
	var left []string
	for _, f := range g.Sources {
		cur, err := s.fileState(f.Rel)
		switch {
		case err != nil:
			errs = append(errs, err)
		case cur == "":
			// Moved already by the batch (or removed by hand): nothing to do.
		case cur != f.Version:
			if edited == "" {
				edited = f.Rel
			}
			left = append(left, f.Rel)
		case keeperEdited:
			left = append(left, f.Rel)
		default:
			errs = append(errs, s.moveAside(f.Rel, trashName(f.Rel, now), dirs))
			*changed = true
		}
	}
	if edited != "" {
		errs = append(errs, s.noteMergeLeft(j, g, edited, left))
		s.log.Warn("memory: left an interrupted merge half done: a file was edited by hand", "group", g.Group, "edited", edited)
		return errors.Join(errs...)
	}
	s.log.Info("memory: finished a merge an interrupted process left", "group", g.Group, "actor", j.Actor)
	return errors.Join(errs...)
}

// undoGroup gives each keeper of a group whose writes did not all land its old file back —
// only where the file is the batch's own write (at Post): a keeper edited or removed by hand
// since is kept as it is. Sources are not touched before phase deleting, so they all stand.
func (s *Store) undoGroup(j *mergeJournal, g mergeGroup, now time.Time, dirs map[string]bool, changed *bool) error {
	var edited string
	var errs []error
	for _, f := range g.Keepers {
		e, err := s.undoKeeper(f, now, dirs, changed)
		if err != nil {
			errs = append(errs, err)
		}
		if e != "" && edited == "" {
			edited = e
		}
	}
	if edited != "" {
		var left []string
		for _, f := range g.Sources {
			if cur, err := s.fileState(f.Rel); err == nil && cur != "" {
				left = append(left, f.Rel)
			}
		}
		errs = append(errs, s.noteMergeLeft(j, g, edited, left))
		s.log.Warn("memory: left an interrupted merge half done: its keeper was edited by hand", "group", g.Group, "edited", edited)
		return errors.Join(errs...)
	}
	s.log.Info("memory: undid a merge an interrupted process left half done", "group", g.Group, "actor", j.Actor)
	return errors.Join(errs...)
}

// undoKeeper puts one keeper back as it was before the batch; edited names the file it left
// alone because a person changed it after the batch's write ("" when none).
func (s *Store) undoKeeper(f mergeFile, now time.Time, dirs map[string]bool, changed *bool) (edited string, err error) {
	if !f.Placed {
		return "", nil // the batch never put this keeper in place: whatever is there is not its
	}
	to := f.To
	if to == "" {
		to = f.Rel
	}
	atTo, err := s.fileState(to)
	if err != nil {
		return "", err
	}
	atRel := atTo
	if to != f.Rel {
		if atRel, err = s.fileState(f.Rel); err != nil {
			return "", err
		}
	}
	switch {
	case to == f.Rel && atTo == f.Version && f.Version != "":
		return "", nil // killed before the rename: untouched
	case to == f.Rel && atTo == "" && f.Version == "":
		return "", nil // a new keeper killed before it was linked in place
	case to != f.Rel && atTo == "" && atRel == f.Version && f.Version != "":
		return "", nil // a rename or archive killed before the move
	case atTo != f.Post:
		return to, nil // edited or removed by hand since the batch wrote it
	case to != f.Rel && atRel != "" && atRel != f.Version:
		return f.Rel, nil // the old place holds a hand-made file
	}
	// The file at to is the batch's own. A new keeper goes to the trash; a moved one goes back
	// (its old text, when the old file is gone); one rewritten in place gets its old text.
	*changed = true
	switch {
	case f.Version == "":
		return "", s.moveAside(to, trashName(to, now), dirs)
	case to != f.Rel && atRel == f.Version:
		return "", s.moveAside(to, trashName(to, now), dirs) // renamed, old file still there
	case to != f.Rel && f.Post == f.Version:
		return "", s.move(to, f.Rel, dirs) // archived: the same file moves back
	case to != f.Rel:
		if err := s.writeFile(f.Rel, f.Old, dirs, nil, true); err != nil {
			return "", err
		}
		return "", s.moveAside(to, trashName(to, now), dirs)
	}
	still := func() error { // a hand edit landing during the mend is not overwritten either
		if cur, err := s.fileState(to); err != nil || cur != f.Post {
			return errors.Join(err, errors.New("memory: the keeper changed while its merge was being undone"))
		}
		return nil
	}
	return "", s.writeFile(f.Rel, f.Old, dirs, still, false)
}
