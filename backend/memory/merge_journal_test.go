package memory

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runMergeChild is the test binary applying one merge (keeper update, two deletes in a group,
// as the organizer does) and stopping at ENGRAM_TEST_KILL_AT: it prints "AT step" and waits
// there, holding the lock, for the parent to kill it.
func runMergeChild(home string) int {
	at := os.Getenv("ENGRAM_TEST_KILL_AT")
	mergeKilled = func(step string) {
		if step == at {
			fmt.Println("AT " + step)
			select {}
		}
	}
	ctx := context.Background()
	s, err := Open(ctx, home, Options{Logger: quietLogger})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 3
	}
	defer s.Close()
	keeper, src1, src2 := os.Getenv("ENGRAM_TEST_KEEPER"), os.Getenv("ENGRAM_TEST_SRC1"), os.Getenv("ENGRAM_TEST_SRC2")
	items := []Item{{Op: OpUpdate, ID: keeper, GroupID: "merge-1", Mode: "replace", Body: sp("Drinks green tea and oolong, no coffee.")}}
	switch os.Getenv("ENGRAM_TEST_SHAPE") {
	case "rename": // the keeper's slug changes with the merge (an api caller may send that)
		items[0].NewSlug = "tea-and-oolong"
	case "archive": // the keeper is archived, the others deleted
		items[0] = Item{Op: OpArchive, ID: keeper, GroupID: "merge-1"}
	}
	for _, id := range []string{src1, src2} {
		m, err := s.Get(ctx, id)
		if err != nil {
			fmt.Fprintln(os.Stderr, "get:", err)
			return 4
		}
		items = append(items, Item{Op: OpDelete, ID: id, GroupID: "merge-1", ExpectedVersion: m.Version})
	}
	res, err := s.ApplyBatch(ctx, Batch{Actor: ActorOrganizer, Items: items})
	if err != nil || res.Failed > 0 {
		fmt.Fprintln(os.Stderr, "batch:", err, res.Results)
		return 5
	}
	fmt.Println("DONE")
	return 0
}

// An organizer merge killed between writing the merged keeper and trashing its sources left
// the keeper beside them: duplicates, indexed as such by the next open. The batch journals the
// merge before its first change; the next open finishes it when the keeper was written and
// undoes it when not. A real child process is killed at each step and the home reopened.
func TestKilledMergeIsFinishedOrUndoneAtTheNextOpen(t *testing.T) {
	const merged = "Drinks green tea and oolong, no coffee."
	for _, tc := range []struct {
		step     string
		finished bool // the merge is whole after the open; else undone
	}{
		{"planned", false},  // journal written, nothing changed
		{"item 1", false},   // the keeper written, the journal still "planned": undone
		{"deleting", true},  // every keeper written: finished
		{"item 2", true},    // one source in the trash
		{"item 3", true},    // both sources moved, not committed
		{"committed", true}, // committed, the journal not yet removed
		{"", true},          // not killed
	} {
		t.Run(strings.ReplaceAll(tc.step, " ", "-"), func(t *testing.T) {
			e := newEnv(t)
			keeper := e.ok(wr("tea-habit", "Tea", "Drinks green tea."))
			src1 := e.ok(wr("oolong-habit", "Oolong", "Drinks oolong."))
			src2 := e.ok(wr("no-coffee", "Coffee", "No coffee."))
			e.s.Close()
			killMerge(t, e, tc.step, "", keeper.ID, src1.ID, src2.ID)
			e.s = e.open()
			k := e.get(keeper.ID)
			live := func(id string) bool { _, err := e.s.Get(e.ctx, id); return err == nil }
			if tc.finished {
				if k.Body != merged || live(src1.ID) || live(src2.ID) {
					t.Errorf("not finished: keeper %q, sources live %v %v", k.Body, live(src1.ID), live(src2.ID))
				}
				for _, sl := range []string{"oolong-habit", "no-coffee"} {
					if _, _, err := e.s.trashedBySlug(Item{Slug: sl, Scope: ScopeGlobal}); err != nil {
						t.Errorf("%s is not in the trash: %v", sl, err)
					}
				}
			} else if k.Body != "Drinks green tea." || !live(src1.ID) || !live(src2.ID) {
				t.Errorf("not undone: keeper %q, sources live %v %v", k.Body, live(src1.ID), live(src2.ID))
			}
			if e.exists("global/user/oolong-habit.md") == tc.finished || e.exists("global/user/no-coffee.md") == tc.finished {
				t.Error("the files disagree with the index")
			}
			if left, _ := filepath.Glob(filepath.Join(e.home, mergeJournalPrefix+"*")); len(left) != 0 {
				t.Errorf("journal left: %v", left)
			}
		})
	}
}

// killMerge runs the merge of runMergeChild (of the given shape) on e's closed home in a child
// process and kills it at step ("" lets it finish).
func killMerge(t *testing.T, e *env, step, shape, keeper, src1, src2 string) {
	t.Helper()
	cmd, lines, stderr := startChild(t, "merge-kill", e.home, "m", "ENGRAM_TEST_KILL_AT="+step, "ENGRAM_TEST_SHAPE="+shape,
		"ENGRAM_TEST_KEEPER="+keeper, "ENGRAM_TEST_SRC1="+src1, "ENGRAM_TEST_SRC2="+src2)
	want := "DONE"
	if step != "" {
		want = "AT " + step
	}
	got := ""
	for l := range lines {
		got = l
		break
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if got != want {
		t.Fatalf("child said %q, want %q; stderr: %s", got, want, stderr)
	}
}
