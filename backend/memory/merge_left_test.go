package memory

import (
	"path/filepath"
	"strings"
	"testing"
)

// A person who edited the keeper (or a source) by hand after a merge was killed and before
// the next open lost the edit: the mend rewrote the keeper with the journal's old text, or
// went on trashing sources the edited keeper might no longer hold. The mend now keeps every
// hand-edited file as it is, undoes or finishes the rest, and doctor says the merge was left
// half done, naming what still stands, until the person changes or removes one of them.
func TestKilledMergeKeepsAFileEditedByHandBeforeTheNextOpen(t *testing.T) {
	const merged = "Drinks green tea and oolong, no coffee."
	const (
		keeperRel = "global/user/tea-habit.md"
		src1Rel   = "global/user/oolong-habit.md"
		src2Rel   = "global/user/no-coffee.md"
	)
	for _, tc := range []struct {
		name, step, edit string
		keeperBody       string   // the keeper's body after the open, the hand line aside
		live             []string // sources live after the open
		left             []string // the finding's sources still standing; nil: no finding
	}{
		// Phase planned, keeper written then edited: the edit stays, the sources stand.
		{"keeper edited, merge undone", "item 1", keeperRel, merged, []string{src1Rel, src2Rel}, []string{src1Rel, src2Rel}},
		// Phase deleting, one source trashed, keeper edited: the other source stays.
		{"keeper edited, merge half finished", "item 2", keeperRel, merged, []string{src2Rel}, []string{src2Rel}},
		// Phase deleting, a source edited: it stays, the other goes, the keeper is merged.
		{"source edited, merge finished around it", "deleting", src1Rel, merged, []string{src1Rel}, []string{src1Rel}},
		// Phase planned, a source edited: the merge is undone whole, nothing is half done.
		{"source edited, merge undone", "item 1", src1Rel, "Drinks green tea.", []string{src1Rel, src2Rel}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			keeper := e.ok(wr("tea-habit", "Tea", "Drinks green tea."))
			src1 := e.ok(wr("oolong-habit", "Oolong", "Drinks oolong."))
			src2 := e.ok(wr("no-coffee", "Coffee", "No coffee."))
			e.s.Close()
			killMerge(t, e, tc.step, "", keeper.ID, src1.ID, src2.ID)
			e.editByHand(tc.edit, func(m *Memory) { m.Body += "\n\nAdded by hand." })
			e.s = e.open()

			k := e.get(keeper.ID)
			if want := tc.keeperBody; tc.edit == keeperRel && k.Body != want+"\n\nAdded by hand." || tc.edit != keeperRel && k.Body != want {
				t.Errorf("keeper body %q, want %q (with the hand line if it was edited)", k.Body, want)
			}
			ids := map[string]string{src1Rel: src1.ID, src2Rel: src2.ID}
			for rel, id := range ids {
				_, err := e.s.Get(e.ctx, id)
				wantLive := strings.Contains(strings.Join(tc.live, " "), rel)
				if (err == nil) != wantLive || e.exists(rel) != wantLive {
					t.Errorf("%s: live in index %v, on disk %v, want %v", rel, err == nil, e.exists(rel), wantLive)
				}
				if !wantLive {
					if _, _, err := e.s.trashedBySlug(Item{Slug: strings.TrimSuffix(filepath.Base(rel), ".md"), Scope: ScopeGlobal}); err != nil {
						t.Errorf("%s is neither live nor in the trash: %v", rel, err)
					}
				}
			}
			if tc.edit != keeperRel {
				if got := e.s.abs(tc.edit); !strings.Contains(string(e.fileAt(got)), "Added by hand.") {
					t.Errorf("the hand edit of %s is lost", tc.edit)
				}
			}
			rep := e.doctor()
			f, found := findingCodes(rep)[CodeMergeLeftHalfDone]
			if tc.left == nil {
				if found {
					t.Fatalf("a merge undone whole is reported half done: %+v", f)
				}
				return
			}
			if !found || rep.OK {
				t.Fatalf("doctor does not say the merge was left half done (ok=%v): %+v", rep.OK, rep.Findings)
			}
			if f.Args["Keeper"] != keeperRel || f.Args["Edited"] != tc.edit || f.Args["Left"] != strings.Join(tc.left, ", ") || f.Fixed {
				t.Errorf("finding %+v", f)
			}
			cat := loadCatalog(t)
			for _, lang := range []string{"en", "zh-CN"} {
				msg := cat.T(lang, "doctor.finding."+f.Code, f.Args)
				if !strings.Contains(msg, keeperRel) || !strings.Contains(msg, tc.left[0]) || strings.Contains(msg, "<no value>") {
					t.Errorf("%s: %q", lang, msg)
				}
			}
			wantChinese(t, cat.T("zh-CN", "doctor.finding."+f.Code, f.Args), keeperRel, strings.Join(tc.left, " "), "Engram engram delete SLUG organize")
			// The person acts: deletes what the keeper already holds. The note goes.
			for _, rel := range tc.left {
				e.ok(Item{Op: OpDelete, ID: ids[rel]})
			}
			if after := e.doctor(); findingCodes(after)[CodeMergeLeftHalfDone].Code != "" {
				t.Errorf("the finding stays after the person deleted the sources: %+v", after.Findings)
			}
		})
	}
}

// A merge whose keeper is renamed (a new slug) or archived, which a batch through the api may
// send, ran without a journal: killed between the keeper's change and its sources' deletes it
// left both. Both shapes are journalled now, and the next open finishes or undoes them.
func TestKilledMergeWithARenamedOrArchivedKeeper(t *testing.T) {
	const merged = "Drinks green tea and oolong, no coffee."
	for _, shape := range []string{"rename", "archive"} {
		for _, tc := range []struct {
			step     string
			finished bool
		}{
			{"planned", false}, {"item 1", false}, {"deleting", true}, {"item 2", true}, {"committed", true}, {"", true},
		} {
			t.Run(shape+"/"+strings.ReplaceAll(tc.step, " ", "-"), func(t *testing.T) {
				e := newEnv(t)
				keeper := e.ok(wr("tea-habit", "Tea", "Drinks green tea."))
				src1 := e.ok(wr("oolong-habit", "Oolong", "Drinks oolong."))
				src2 := e.ok(wr("no-coffee", "Coffee", "No coffee."))
				e.s.Close()
				killMerge(t, e, tc.step, shape, keeper.ID, src1.ID, src2.ID)
				e.s = e.open()
				k := e.get(keeper.ID)
				live := func(id string) bool { _, err := e.s.Get(e.ctx, id); return err == nil }
				onDisk := e.exists("global/user/tea-habit.md")
				switch {
				case !tc.finished:
					if k.Archived || k.Slug != "tea-habit" || k.Body != "Drinks green tea." || !onDisk || e.exists("global/user/tea-and-oolong.md") {
						t.Errorf("keeper not undone: %s archived=%v %q, old file %v", k.Slug, k.Archived, k.Body, onDisk)
					}
				case shape == "rename":
					if k.Slug != "tea-and-oolong" || k.Body != merged || onDisk || !e.exists("global/user/tea-and-oolong.md") {
						t.Errorf("rename not finished: %s %q, old file %v", k.Slug, k.Body, onDisk)
					}
				case shape == "archive":
					if !k.Archived || onDisk || !e.exists(k.Path) {
						t.Errorf("archive not finished: archived=%v at %s, old file %v", k.Archived, k.Path, onDisk)
					}
				}
				if live(src1.ID) == tc.finished || live(src2.ID) == tc.finished {
					t.Errorf("sources live %v %v, merge finished %v", live(src1.ID), live(src2.ID), tc.finished)
				}
				if left, _ := filepath.Glob(filepath.Join(e.home, mergeJournalPrefix+"*")); len(left) != 0 {
					t.Errorf("journal left: %v", left)
				}
				if f, ok := findingCodes(e.doctor())[CodeMergeLeftHalfDone]; ok {
					t.Errorf("no file was edited, yet: %+v", f)
				}
			})
		}
	}
}

// A merge group whose other item is an op the journal cannot undo (reject, restore,
// append_daily) deleted its sources unjournalled. It is refused whole with a coded error.
func TestMergeOfAnOpTheJournalCannotUndoIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		item func(e *env) Item
	}{
		{"reject", func(e *env) Item { return Item{Op: OpReject, ID: e.ok(wr("to-reject", "R", "Reject me.")).ID} }},
		{"restore", func(e *env) Item {
			id := e.ok(wr("to-restore", "R", "Restore me.")).ID
			e.ok(Item{Op: OpDelete, ID: id})
			return Item{Op: OpRestore, ID: id}
		}},
		{"append_daily", func(e *env) Item { return Item{Op: OpAppendDaily, Text: "a journal line"} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			src := e.ok(wr("oolong-habit", "Oolong", "Drinks oolong."))
			first := tc.item(e)
			first.GroupID = "merge-1"
			res := e.batch(ActorUser, first, Item{Op: OpDelete, ID: src.ID, GroupID: "merge-1"})
			cat := loadCatalog(t)
			for _, r := range res.Results {
				if r.OK || r.Code != CodeMergeUnsupported {
					t.Errorf("item %d (%s): ok=%v code %q, want %s", r.Index, r.Op, r.OK, r.Code, CodeMergeUnsupported)
				}
				if en := cat.T("en", "error."+r.Code, r.Args); !strings.Contains(en, string(first.Op)) || strings.Contains(en, "<no value>") {
					t.Errorf("en: %q", en)
				}
				wantChinese(t, cat.T("zh-CN", "error."+r.Code, r.Args), "merge-1", string(first.Op))
			}
			if _, err := e.s.Get(e.ctx, src.ID); err != nil || !e.exists("global/user/oolong-habit.md") {
				t.Errorf("the source was deleted: %v", err)
			}
		})
	}
}

// The mend writes its note, then removes the journal: killed in between, the next open mends
// the same journal again and wrote a second note, so doctor showed one half-done merge twice.
// The note is named by its journal and group, and written over itself.
func TestMendRunTwiceWritesOneNote(t *testing.T) {
	e := newEnv(t)
	keeper := e.ok(wr("tea-habit", "Tea", "Drinks green tea."))
	src := e.ok(wr("oolong-habit", "Oolong", "Drinks oolong."))
	j := &mergeJournal{path: filepath.Join(e.home, mergeJournalPrefix+"01JOURNAL.json")}
	g := mergeGroup{Group: "g", Keepers: []mergeFile{{Rel: keeper.Path}}, Sources: []mergeFile{{Rel: src.Path}}}
	for i := 0; i < 2; i++ {
		if err := e.s.noteMergeLeft(j, g, keeper.Path, []string{src.Path}); err != nil {
			t.Fatal(err)
		}
	}
	notes, _ := filepath.Glob(filepath.Join(e.home, mergeLeftPrefix+"*.json"))
	if len(notes) != 1 {
		t.Errorf("%d notes for one half-done merge: %v", len(notes), notes)
	}
	if n := len(findingCodes(e.doctor())); n == 0 {
		t.Error("doctor shows no half-done merge")
	}
	other := mergeGroup{Group: "h", Keepers: g.Keepers, Sources: g.Sources}
	if err := e.s.noteMergeLeft(j, other, keeper.Path, []string{src.Path}); err != nil {
		t.Fatal(err)
	}
	if notes, _ := filepath.Glob(filepath.Join(e.home, mergeLeftPrefix+"*.json")); len(notes) != 2 {
		t.Errorf("another group's note replaced the first: %v", notes)
	}
}
