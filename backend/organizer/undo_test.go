package organizer

import (
	"slices"
	"testing"
	"time"

	"engram/backend/memory"
)

// keeperState is what an undo must put back on a keeper.
type keeperState struct {
	body                string
	aliases, supersedes []string
	tags                []string
	reviewed            bool
	confidence          memory.Confidence
}

func stateOf(m *memory.Memory) keeperState {
	return keeperState{m.Body, nonNil(m.Aliases), nonNil(m.Supersedes), nonNil(m.Tags), m.Reviewed, m.Confidence}
}

func sameState(a, b keeperState) bool {
	return a.body == b.body && slices.Equal(a.aliases, b.aliases) && slices.Equal(a.supersedes, b.supersedes) &&
		slices.Equal(a.tags, b.tags) && a.reviewed == b.reviewed && a.confidence == b.confidence
}

// TestUndoRunPutsEveryMergeBack: a scheduled run merged three pairs of duplicates. A restore
// brought a merged-away memory back, but its keeper kept the alias and supersedes the run
// added, with the merged text; nothing took the run back as a whole. UndoRun brings every
// merged-away memory back and gives every keeper its earlier file, as the person, in Activity;
// a second undo is refused, and so is applying a change of the undone run.
func TestUndoRunPutsEveryMergeBack(t *testing.T) {
	e := newEnv(t)
	dupes(e)
	before := map[string]keeperState{}
	for slug, m := range e.live() {
		before[slug] = stateOf(m)
	}
	det := e.run(TriggerScheduled)
	if det.Report.Counts.Applied != 3 || len(e.live()) != 5 {
		t.Fatalf("run applied %d, %d live; want 3 merges, 5 left", det.Report.Counts.Applied, len(e.live()))
	}
	preview, err := e.svc.UndoRun(e.ctx, UndoParams{RunID: det.ID, DryRun: true}, memory.ActorUser)
	if err != nil {
		t.Fatal(err)
	}
	if preview.Undone != 3 || preview.Restored != 3 || preview.Reverted != 3 || len(e.live()) != 5 {
		t.Fatalf("preview %+v with %d live; want 3 changes, 3 back, 3 put back, nothing done", preview, len(e.live()))
	}
	res, err := e.svc.UndoRun(e.ctx, UndoParams{RunID: det.ID}, memory.ActorUser)
	if err != nil {
		t.Fatal(err)
	}
	if res.Undone != 3 || res.Conflicts != 0 || res.Restored != 3 {
		t.Fatalf("undo = %+v", res)
	}
	after := e.live()
	if len(after) != len(before) {
		t.Fatalf("%d live after the undo, want %d", len(after), len(before))
	}
	for slug, was := range before {
		m := after[slug]
		if m == nil {
			t.Fatalf("%s did not come back", slug)
		}
		if got := stateOf(m); !sameState(got, was) {
			t.Errorf("%s after the undo = %+v, want %+v", slug, got, was)
		}
	}
	rows, err := e.store.Audit(e.ctx, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rows {
		if r.Session == "organizer-undo:"+det.ID && r.Actor == memory.ActorUser && r.Result == "ok" {
			n++
		}
	}
	if n != 6 {
		t.Fatalf("Activity holds %d rows of the undo, want 6 (3 restores, 3 keepers)", n)
	}
	if d := e.detail(det.ID); d.Report.Undo == nil || len(d.Report.Undo.Decisions) != 3 {
		t.Fatalf("the report does not record the undo: %+v", d.Report.Undo)
	}
	if _, err := e.svc.UndoRun(e.ctx, UndoParams{RunID: det.ID}, memory.ActorUser); CodeOf(err) != CodeUndoDone {
		t.Fatalf("second undo: %v, want %s", err, CodeUndoDone)
	}
	if _, err := e.svc.ApplyReport(e.ctx, det.ID, []string{det.Report.Decisions[0].ID}); CodeOf(err) != CodeRunUndone {
		t.Fatalf("apply after undo: %v, want %s", err, CodeRunUndone)
	}
}

// TestUndoRunKeepsChangesMadeAfterTheRun: a keeper edited after the run is not overwritten by
// the run's older copy; that merge is left whole (its source stays in the trash) and reported
// by name, the other merges are undone. An agent, the extractor and the organizer may not undo.
func TestUndoRunKeepsChangesMadeAfterTheRun(t *testing.T) {
	for _, actor := range []string{memory.ActorTool, memory.ActorExtractor, memory.ActorOrganizer} {
		t.Run("refused to "+actor, func(t *testing.T) {
			e := newEnv(t)
			dupes(e)
			det := e.run(TriggerScheduled)
			if _, err := e.svc.UndoRun(e.ctx, UndoParams{RunID: det.ID, DryRun: true}, actor); CodeOf(err) != CodeUndoPersonOnly {
				t.Fatalf("undo by %s: %v, want %s", actor, err, CodeUndoPersonOnly)
			}
			if len(e.live()) != 5 {
				t.Fatal("a refused undo changed the store")
			}
		})
	}
	t.Run("merged-away memory brought back and archived", func(t *testing.T) {
		e := newEnv(t)
		ids := dupes(e)
		det := e.run(TriggerScheduled)
		d := decisionFor(det.Report, ids["dark-theme"])
		gone := d.Targets[0]
		e.write(memory.ActorUser, memory.Item{Op: memory.OpRestore, ID: gone.ID})
		e.write(memory.ActorUser, memory.Item{Op: memory.OpArchive, ID: gone.ID})
		res, err := e.svc.UndoRun(e.ctx, UndoParams{RunID: det.ID}, memory.ActorUser)
		if err != nil || res.Undone != 2 || res.Conflicts != 1 {
			t.Fatalf("undo = %+v, %v; want the archived one's merge left", res, err)
		}
		if m, err := e.store.Get(e.ctx, gone.ID); err != nil || !m.Archived {
			t.Fatalf("the archived memory was brought back: %+v %v", m, err)
		}
	})
	for _, by := range []string{memory.ActorUser, memory.ActorTool} {
		t.Run("keeper edited by "+by, func(t *testing.T) {
			e := newEnv(t)
			ids := dupes(e)
			det := e.run(TriggerScheduled)
			d := decisionFor(det.Report, ids["drinks"])
			if d == nil || d.Into == nil || d.Status != DecisionApplied {
				t.Fatalf("drinks merge: %+v", d)
			}
			edited := "Favourite drinks: only green tea now."
			e.write(by, memory.Item{Op: memory.OpUpdate, ID: d.Into.ID, Mode: "replace", Body: &edited})
			res, err := e.svc.UndoRun(e.ctx, UndoParams{RunID: det.ID}, memory.ActorBridge)
			if err != nil {
				t.Fatal(err)
			}
			if res.Undone != 2 || res.Conflicts != 1 {
				t.Fatalf("undo = %+v, want 2 undone and 1 conflict", res)
			}
			var conflict *UndoItem
			for i := range res.Items {
				if res.Items[i].Decision == d.ID {
					conflict = &res.Items[i]
				}
			}
			if conflict == nil || conflict.Status != UndoConflict || len(conflict.Problems) != 1 ||
				conflict.Problems[0].I18nKey != KeyUndoChanged || conflict.Problems[0].Args["Slug"] != d.Into.Slug ||
				conflict.Problems[0].Args["Decision"] != d.ID {
				t.Fatalf("conflict = %+v", conflict)
			}
			live := e.live()
			if k := live["global/"+d.Into.Slug]; k == nil || k.Body != edited {
				t.Fatalf("the edited keeper was overwritten: %+v", k)
			}
			if live["global/"+d.Targets[0].Slug] != nil {
				t.Fatal("half of the conflicting merge was undone: its source is live again")
			}
			if live["global/dark-theme"] == nil || live["global/dark-mode"] == nil {
				t.Fatal("the other merges were not undone")
			}
		})
	}
}

// TestUndoRunTakesBackAMarkForReview: a change that sent a stale memory back to review (a tag
// and reviewed off) is taken back from the snapshot: its tags as before, the review tag gone.
func TestUndoRunTakesBackAMarkForReview(t *testing.T) {
	e := newEnv(t)
	stale := item("old-guess", "Old guess", "The user might prefer tabs over spaces.")
	stale.Confidence, stale.SourceQuote, stale.Tags = memory.ConfidenceLow, nil, []string{"style"}
	ids := e.write(memory.ActorExtractor, stale)
	before := stateOf(e.live()["global/old-guess"])
	e.clock.Advance(90 * 24 * time.Hour)
	det := e.run(TriggerManual)
	d := decisionFor(det.Report, ids["old-guess"])
	if d == nil || d.Action != ActionMarkReview {
		t.Fatalf("no mark_review for the stale memory: %+v", det.Report.Decisions)
	}
	if _, err := e.svc.ApplyReport(e.ctx, det.ID, []string{d.ID}); err != nil {
		t.Fatal(err)
	}
	if m := e.live()["global/old-guess"]; !contains(m.Tags, ReviewTag) {
		t.Fatalf("the mark was not applied: %v", m.Tags)
	}
	res, err := e.svc.UndoRun(e.ctx, UndoParams{RunID: det.ID}, memory.ActorUser)
	if err != nil || res.Undone != 1 || res.Reverted != 1 {
		t.Fatalf("undo = %+v, %v", res, err)
	}
	if got := stateOf(e.live()["global/old-guess"]); !sameState(got, before) {
		t.Fatalf("after the undo %+v, want %+v", got, before)
	}
}
