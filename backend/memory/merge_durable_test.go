package memory

import "testing"

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
