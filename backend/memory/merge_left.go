package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// mergeLeftPrefix names the notes, in the home beside the merge journals, of merges the mend
// left half done because a person had edited one of their files by hand after the kill
// (finishGroup, undoGroup). Doctor shows each as a merge_left_half_done finding until the
// person changes or removes any file it names: the keeper and the sources still beside it.
const mergeLeftPrefix = ".merge-left-"

// mergeLeft is one such note: Files maps each file named to its checksum when the note was
// written ("" for a file not there).
type mergeLeft struct {
	Group  string            `json:"group"`
	Keeper string            `json:"keeper"`
	Edited string            `json:"edited"`
	Left   []string          `json:"left"`
	Files  map[string]string `json:"files"`
}

// CodeMergeLeftHalfDone is doctor's finding for a mergeLeft note.
const CodeMergeLeftHalfDone = "merge_left_half_done"

// noteMergeLeft writes the note for group g of j, whose mend kept the hand-edited file edited
// and left the sources left standing. A merge whose sources are all gone is not half done:
// its keeper, edited or not, is all there is, and no note is written.
func (s *Store) noteMergeLeft(j *mergeJournal, g mergeGroup, edited string, left []string) error {
	if len(left) == 0 {
		return nil
	}
	n := mergeLeft{Group: g.Group, Edited: edited, Left: left, Files: map[string]string{}}
	if len(g.Keepers) > 0 {
		k := g.Keepers[0]
		n.Keeper = k.Rel
		if k.To != "" {
			n.Keeper = k.To
		}
	}
	for _, rel := range append([]string{n.Keeper}, left...) {
		sum, err := s.fileState(rel)
		if err != nil {
			return err
		}
		n.Files[rel] = sum
	}
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(s.home, mergeLeftName(j, g)), b, nil, nil, false)
}

// mergeLeftName names the note of group g of journal j by the two, so a mend killed after
// writing it and run again at the next open writes the same note over itself: doctor showed
// the one half-done merge twice.
func mergeLeftName(j *mergeJournal, g mergeGroup) string {
	journal := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(j.path), mergeJournalPrefix), ".json")
	sum := sha256.Sum256([]byte(g.Group))
	return mergeLeftPrefix + journal + "-" + hex.EncodeToString(sum[:6]) + ".json"
}

// mergeLeftFindings turns the notes still standing into doctor's findings and removes the
// notes whose files the person has since changed or removed (they acted on it).
func (s *Store) mergeLeftFindings() []Finding {
	paths, _ := filepath.Glob(filepath.Join(s.home, mergeLeftPrefix+"*.json"))
	sort.Strings(paths)
	var out []Finding
	for _, p := range paths {
		data, err := os.ReadFile(p)
		var n mergeLeft
		if err == nil {
			err = json.Unmarshal(data, &n)
		}
		if err != nil {
			s.log.Warn("memory: unable to read a half-done merge note; leaving it", "path", p, "err", err)
			continue
		}
		acted := false
		for rel, sum := range n.Files {
			if cur, err := s.fileState(rel); err == nil && cur != sum {
				acted = true
			}
		}
		if acted {
			if !s.readOnly {
				_ = os.Remove(p)
			}
			continue
		}
		fix := "$EDITOR " + shellQuote(s.abs(n.Keeper))
		for _, rel := range n.Left {
			fix += " " + shellQuote(s.abs(rel))
		}
		out = append(out, Finding{Code: CodeMergeLeftHalfDone, Path: n.Keeper, Count: len(n.Left), Fix: fix,
			Args: map[string]any{"Keeper": n.Keeper, "Edited": n.Edited, "Left": strings.Join(n.Left, ", ")}})
	}
	return out
}
