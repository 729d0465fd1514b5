package memory

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A merge's sources moved to the trash while the keeper's rename was not yet synced to its
// folder (folders were synced once, at the end of the batch): a power cut could keep the
// moves and lose the merged keeper. The keepers' folders are synced before the first source
// moves.
func TestMergeKeeperIsDurableBeforeASourceMoves(t *testing.T) {
	e := newEnv(t)
	keeper := e.ok(wr("tea-habit", "Tea", "Drinks green tea."))
	src := e.ok(wr("oolong-habit", "Oolong", "Drinks oolong."))
	var pending []string
	mergeKilled = func(step string) {
		if step == "deleting" {
			for d := range e.s.batchDirs {
				pending = append(pending, d)
			}
		}
	}
	defer func() { mergeKilled = nil }()
	res := e.batch(ActorOrganizer, Item{Op: OpUpdate, ID: keeper.ID, GroupID: "g", Mode: "replace", Body: sp("Tea and oolong.")},
		Item{Op: OpDelete, ID: src.ID, GroupID: "g"})
	if res.Failed != 0 {
		t.Fatalf("merge failed: %+v", res.Results)
	}
	if len(pending) != 0 {
		t.Errorf("folders not synced when the sources began to move: %v", pending)
	}
}

// A renamed memory's old file was unlinked after the new one went in, unchecked: a hand edit
// landing on it in between (a merge renaming its keeper, a person's rename) was deleted for
// good. The old file is checked again; an edited one goes to the trash.
func TestRenameKeepsAHandEditOfTheOldFile(t *testing.T) {
	e := newEnv(t)
	m := e.ok(wr("tea-habit", "Tea", "Drinks green tea."))
	e.s.beforeRemove = func(rel string) {
		e.editByHand(rel, func(m *Memory) { m.Body += "\n\nAdded by hand." })
	}
	r := e.ok(Item{Op: OpUpdate, ID: m.ID, NewSlug: "tea-and-oolong", Body: sp("Also oolong.")})
	e.s.beforeRemove = nil
	if r.Slug != "tea-and-oolong" || e.exists("global/user/tea-habit.md") {
		t.Fatalf("not renamed: %+v", r)
	}
	found := false
	entries, _ := os.ReadDir(filepath.Join(e.s.Root(), ".trash"))
	for _, de := range entries {
		if strings.Contains(string(e.fileAt(filepath.Join(e.s.Root(), ".trash", de.Name()))), "Added by hand.") {
			found = true
		}
	}
	if !found {
		t.Error("the hand edit of the old file is gone: not in the trash")
	}
	e.reopen()
	if got := e.get(m.ID); got.Slug != "tea-and-oolong" {
		t.Errorf("after reopen the memory is %s", got.Slug)
	}
}

// A merge one of whose sources is already gone (deleted since the organizer's scan) still
// journals the rest: the other source is deleted under the journal, the gone one fails alone.
func TestMergeWithASourceGoneIsJournalledWithoutIt(t *testing.T) {
	e := newEnv(t)
	keeper := e.ok(wr("tea-habit", "Tea", "Drinks green tea."))
	src := e.ok(wr("oolong-habit", "Oolong", "Drinks oolong."))
	gone := e.ok(wr("no-coffee", "Coffee", "No coffee."))
	e.ok(Item{Op: OpDelete, ID: gone.ID})
	journalled := false
	mergeKilled = func(step string) {
		if left, _ := filepath.Glob(filepath.Join(e.home, mergeJournalPrefix+"*")); step == "deleting" && len(left) == 1 {
			journalled = true
		}
	}
	defer func() { mergeKilled = nil }()
	res := e.batch(ActorOrganizer, Item{Op: OpUpdate, ID: keeper.ID, GroupID: "g", Mode: "replace", Body: sp("Tea and oolong.")},
		Item{Op: OpDelete, ID: src.ID, GroupID: "g"}, Item{Op: OpDelete, ID: gone.ID, GroupID: "g"})
	if !res.Results[0].OK || !res.Results[1].OK || res.Results[2].Code != CodeNotFound {
		t.Fatalf("results %+v", res.Results)
	}
	if !journalled || e.exists("global/user/oolong-habit.md") {
		t.Errorf("journalled %v; source still there %v", journalled, e.exists("global/user/oolong-habit.md"))
	}
}

// A hand-written source without an id is rewritten with its id right before its delete moves
// it (stampHandID): a kill in between left a source the mend took for a hand edit, left live
// beside the keeper. The journal takes the stamped checksum as the source's version.
func TestMergeJournalsTheIDStampedIntoAHandWrittenSource(t *testing.T) {
	e := newEnv(t)
	keeper := e.ok(wr("tea-habit", "Tea", "Drinks green tea."))
	e.put("global/user/oolong-note.md", []byte("Drinks oolong.\n"))
	if rep := e.reconcile(); rep.Added != 1 {
		t.Fatalf("reconcile: %+v", rep)
	}
	srcID := handID("global/user/oolong-note.md")
	var journalled string
	mergeKilled = func(step string) {
		if step != "item 2" {
			return
		}
		paths, _ := filepath.Glob(filepath.Join(e.home, mergeJournalPrefix+"*"))
		var j mergeJournal
		if len(paths) == 1 {
			data, _ := os.ReadFile(paths[0])
			_ = json.Unmarshal(data, &j)
		}
		if len(j.Groups) == 1 && len(j.Groups[0].Sources) == 1 {
			journalled = j.Groups[0].Sources[0].Version
		}
	}
	defer func() { mergeKilled = nil }()
	res := e.batch(ActorOrganizer, Item{Op: OpUpdate, ID: keeper.ID, GroupID: "g", Mode: "replace", Body: sp("Tea and oolong.")},
		Item{Op: OpDelete, ID: srcID, GroupID: "g"})
	if res.Failed != 0 {
		t.Fatalf("merge failed: %+v", res.Results)
	}
	entries, _ := os.ReadDir(filepath.Join(e.s.Root(), ".trash"))
	if len(entries) != 1 {
		t.Fatalf("trash holds %d files", len(entries))
	}
	trashed := e.fileAt(filepath.Join(e.s.Root(), ".trash", entries[0].Name()))
	if journalled != Checksum(trashed) {
		t.Errorf("the journal holds version %q for the source, which was trashed at %q", journalled, Checksum(trashed))
	}
}

// A delete that names the version it saw (a merge's source, the edit form's delete) checked the
// file and then moved it to the trash unchecked: a hand edit saved in between went to the trash
// with it, and the merge never took it in. The file is read again after the move; an edited one
// goes back and the delete is a conflict, as an edit seen before the move is.
func TestDeleteOfACheckedVersionKeepsAnEditSavedMeanwhile(t *testing.T) {
	for _, merge := range []bool{false, true} {
		e := newEnv(t)
		keeper := e.ok(wr("tea-habit", "Tea", "Drinks green tea."))
		src := e.ok(wr("oolong-habit", "Oolong", "Drinks oolong."))
		e.s.beforeRemove = func(rel string) {
			if rel == src.Path {
				e.editByHand(rel, func(m *Memory) { m.Body += "\n\nAdded by hand." })
			}
		}
		items := []Item{{Op: OpDelete, ID: src.ID, ExpectedVersion: e.get(src.ID).Version}}
		if merge {
			items = []Item{{Op: OpUpdate, ID: keeper.ID, GroupID: "g", Mode: "replace", Body: sp("Tea and oolong.")},
				{Op: OpDelete, ID: src.ID, GroupID: "g", ExpectedVersion: items[0].ExpectedVersion}}
		}
		res := e.batch(ActorOrganizer, items...)
		e.s.beforeRemove = nil
		del := res.Results[len(res.Results)-1]
		if del.OK || del.Code != CodeVersionConflict {
			t.Errorf("merge=%v: delete = ok %v code %q, want %s", merge, del.OK, del.Code, CodeVersionConflict)
		}
		if !e.exists(src.Path) || !strings.Contains(string(e.file(src.Path)), "Added by hand.") {
			t.Errorf("merge=%v: the edited memory is not where it was", merge)
		}
		e.reopen()
		if got := e.get(src.ID); !strings.Contains(got.Body, "Added by hand.") {
			t.Errorf("merge=%v: after reopen the memory reads %q", merge, got.Body)
		}
	}
}
