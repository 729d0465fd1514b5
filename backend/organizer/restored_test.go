package organizer

import (
	"testing"

	"engram/backend/memory"
)

// TestRestoredMemoryIsNotRemovedAgain: a scheduled run merged a duplicate away; the person
// restored it from the trash; the next scheduled run merged it away again at once, and every
// run after — the person's undo never held. Now a change touching a memory a person restored
// after the organizer removed it waits for that person (high risk, bucket restored_by_person),
// in every mode; an agent's restore (a model) does not count. Real store on a temporary home.
func TestRestoredMemoryIsNotRemovedAgain(t *testing.T) {
	for _, tc := range []struct {
		name  string
		actor string
		mode  Mode
		held  bool
	}{
		{"restored by you", memory.ActorUser, ModeStandard, true},
		{"restored by you, aggressive mode", memory.ActorUser, ModeAggressive, true},
		{"restored from the web UI", memory.ActorBridge, ModeStandard, true},
		{"restored by an agent", memory.ActorTool, ModeStandard, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			mode := tc.mode
			if _, err := e.svc.UpdateSettings(e.ctx, SettingsPatch{Mode: &mode}); err != nil {
				t.Fatal(err)
			}
			ids := dupes(e)
			det := e.run(TriggerScheduled)
			if d := decisionFor(det.Report, ids["dark-theme"]); d == nil || d.Status != DecisionApplied {
				t.Fatalf("first run: %+v, want the dark-theme merge applied", d)
			}
			if e.live()["global/dark-theme"] != nil {
				t.Fatal("first run: dark-theme still live")
			}
			if _, err := e.store.ApplyBatch(e.ctx, memory.Batch{Actor: tc.actor,
				Items: []memory.Item{{Op: memory.OpRestore, ID: ids["dark-theme"]}}}); err != nil {
				t.Fatal(err)
			}
			if e.live()["global/dark-theme"] == nil {
				t.Fatal("the restore did not bring dark-theme back")
			}
			det = e.run(TriggerScheduled)
			d := decisionFor(det.Report, ids["dark-theme"])
			live := e.live()["global/dark-theme"] != nil
			if tc.held {
				if !live || d == nil || d.Status != DecisionPending || d.Risk != RiskHigh || d.Bucket != BucketRestoredByPerson {
					t.Fatalf("second run: live %v, decision %+v; want it waiting for you (%s)", live, d, BucketRestoredByPerson)
				}
			} else if live || d == nil || d.Status != DecisionApplied {
				t.Fatalf("second run: live %v, decision %+v; an agent's restore should not hold", live, d)
			}
			// The other duplicates, untouched by the restore, were merged as before.
			if e.live()["global/drinks-2"] != nil && e.live()["global/drinks"] != nil {
				t.Fatal("the drinks pair was not merged")
			}
		})
	}
}
