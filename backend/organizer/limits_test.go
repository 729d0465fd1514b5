package organizer

import (
	"fmt"
	"testing"

	"engram/backend/memory"
)

// TestMergeOverFieldLimitsIsNotOffered: three exact copies whose tags (or aliases, or the
// supersedes a merge gathers) add up past what one memory may hold were merged by a scheduled
// run that the store then refused (too_many_values: the decision failed, every run again),
// and a manual run offered the merge as applicable. Now the run drops it as fields_too_large,
// changes nothing, and the copies within the limits still merge.
func TestMergeOverFieldLimitsIsNotOffered(t *testing.T) {
	fill := func(field string, copy, n int) func(*memory.Item) {
		return func(it *memory.Item) {
			for j := 0; j < n; j++ {
				v := fmt.Sprintf("%s-%d-%d", field, copy, j)
				switch field {
				case "tags":
					it.Tags = append(it.Tags, v)
				case "aliases":
					it.Aliases = append(it.Aliases, v)
				case "supersedes":
					it.Supersedes = append(it.Supersedes, v)
				}
			}
		}
	}
	cases := []struct {
		name    string
		field   string
		each    int
		trigger Trigger
		merged  bool
	}{
		{"tags over, scheduled", "tags", 12, TriggerScheduled, false},
		{"tags over, manual", "tags", 12, TriggerManual, false},
		{"aliases over, scheduled", "aliases", 11, TriggerScheduled, false},
		{"supersedes over, scheduled", "supersedes", 22, TriggerScheduled, false},
		{"tags within, scheduled", "tags", 10, TriggerScheduled, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			var items []memory.Item
			for i := 0; i < 3; i++ {
				it := item(fmt.Sprintf("notes-%d", i), "Notes app", "The user keeps notes in Obsidian.")
				fill(tc.field, i, tc.each)(&it)
				items = append(items, it)
			}
			e.write(memory.ActorExtractor, items...)
			before := e.live()

			det := e.run(tc.trigger)
			if det.Status != StatusDone || len(det.Report.Decisions) != 1 {
				t.Fatalf("run %s with %d decisions (%+v), want done with one", det.Status, len(det.Report.Decisions), det.Error)
			}
			d := det.Report.Decisions[0]
			after := e.live()
			if !tc.merged {
				if d.Bucket != BucketFieldsTooLarge || d.Status != DecisionDropped || d.Result != nil {
					t.Fatalf("decision %s/%s/%s result %+v, want dropped as %s", d.Outcome, d.Bucket, d.Status, d.Result, BucketFieldsTooLarge)
				}
				if len(after) != 3 {
					t.Fatalf("%d memories left, want the 3 copies untouched", len(after))
				}
				for k, m := range after {
					if m.Version != before[k].Version {
						t.Fatalf("%s changed", k)
					}
				}
				return
			}
			if d.Status != DecisionApplied || len(after) != 1 {
				t.Fatalf("decision %s/%s, %d left; want applied, one left", d.Status, d.Bucket, len(after))
			}
		})
	}
}

// TestMarkReviewWithoutRoomForItsTag: mark_review adds the needs-review tag; on a memory
// already holding as many tags as it may, the store refused it at apply time. The run now
// drops it as fields_too_large instead of applying a decision bound to fail.
func TestMarkReviewWithoutRoomForItsTag(t *testing.T) {
	e := newEnv(t)
	it := item("full-tags", "Full tags", "The user tags everything.")
	for j := 0; j < valuesLimit("tags"); j++ {
		it.Tags = append(it.Tags, fmt.Sprintf("t%d", j))
	}
	id := e.write(memory.ActorExtractor, it)["full-tags"]
	m, err := e.store.Get(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	c := Cluster{ID: "c001", Scope: ScopeInstance{Scope: memory.ScopeGlobal}, Entries: []*memory.Memory{m}}
	p := Proposal{Action: ActionMarkReview, Targets: []string{id}, Confidence: 0.95}
	d := decide(TriggerScheduled, ModeStandard, c, p, map[string]*memory.Memory{id: m}, nil, map[string]bool{})
	if d.Bucket != BucketFieldsTooLarge || d.Outcome != OutcomeDrop {
		t.Fatalf("decision %s/%s, want dropped as %s", d.Outcome, d.Bucket, BucketFieldsTooLarge)
	}
	m.Tags = m.Tags[1:]
	d = decide(TriggerScheduled, ModeStandard, c, p, map[string]*memory.Memory{id: m}, nil, map[string]bool{})
	if d.Bucket == BucketFieldsTooLarge {
		t.Fatalf("a memory with room for the tag was dropped")
	}
}

// TestMarkReviewOfAReviewedMemoryWaitsForAPerson: an aggressive scheduled run applied a model's
// confident mark_review on a memory the person reviewed (medium risk at ≥ 0.9), taking their
// reviewed mark off unasked. It is high risk now: queued for a person in every mode.
func TestMarkReviewOfAReviewedMemoryWaitsForAPerson(t *testing.T) {
	e := newEnv(t)
	id := e.write(memory.ActorExtractor, item("checked", "Checked", "The user reviewed this."))["checked"]
	m, err := e.store.Get(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	c := Cluster{ID: "c001", Scope: ScopeInstance{Scope: memory.ScopeGlobal}, Entries: []*memory.Memory{m}}
	p := Proposal{Action: ActionMarkReview, Targets: []string{id}, Confidence: 0.99}
	for _, reviewed := range []bool{false, true} {
		m.Reviewed = reviewed
		d := decide(TriggerScheduled, ModeAggressive, c, p, map[string]*memory.Memory{id: m}, nil, map[string]bool{})
		if reviewed && (d.Outcome != OutcomeQueue || d.Bucket != BucketHighRisk) {
			t.Fatalf("reviewed: decision %s/%s, want queued as %s", d.Outcome, d.Bucket, BucketHighRisk)
		}
		if !reviewed && d.Outcome != OutcomeAuto {
			t.Fatalf("unreviewed: decision %s/%s, want applied by the run", d.Outcome, d.Bucket)
		}
	}
}

// TestMergeThatUnreviewsAKeeperWaitsForAPerson: merging unreviewed text into a memory the
// person reviewed takes their reviewed mark off the keeper (its text is no longer what they
// vouched for). An aggressive scheduled run applied a model's confident such merge on its own
// (medium risk at ≥ 0.9); it now waits for the person in every mode, as a mark_review of a
// reviewed memory does. A duplicate the keeper already holds word for word changes nothing
// of it and still merges.
func TestMergeThatUnreviewsAKeeperWaitsForAPerson(t *testing.T) {
	keeper := &memory.Memory{ID: "k", Slug: "keeper", Title: "Deploys", Scope: memory.ScopeGlobal, Type: memory.TypeProject,
		Body: "Deploys happen on Fridays after the release review.", Reviewed: true}
	adds := &memory.Memory{ID: "a", Slug: "adds", Title: "Deploys too", Scope: memory.ScopeGlobal, Type: memory.TypeProject,
		Body: "Deploys happen on Fridays after the release review. Skip them in December."}
	same := &memory.Memory{ID: "s", Slug: "same", Title: "Deploys again", Scope: memory.ScopeGlobal, Type: memory.TypeProject,
		Body: "Deploys happen on Fridays after the release review."}
	entries := map[string]*memory.Memory{"k": keeper, "a": adds, "s": same}
	c := Cluster{ID: "c001", Scope: ScopeInstance{Scope: memory.ScopeGlobal}, Entries: []*memory.Memory{keeper, adds, same}}
	for _, tc := range []struct {
		source  string
		outcome Outcome
		bucket  string
	}{{"a", OutcomeQueue, BucketHighRisk}, {"s", OutcomeAuto, ""}} {
		d := decide(TriggerScheduled, ModeAggressive, c, Proposal{Action: ActionMergeInto, Into: "k", Targets: []string{tc.source},
			Confidence: 0.99}, entries, nil, map[string]bool{})
		if d.Outcome != tc.outcome || d.Bucket != tc.bucket {
			t.Errorf("merge %s into the reviewed keeper: %s/%s (risk %s, unreview %v), want %s/%s", tc.source, d.Outcome, d.Bucket,
				d.Risk, d.Preserved != nil && d.Preserved.Unreview, tc.outcome, tc.bucket)
		}
	}
}
