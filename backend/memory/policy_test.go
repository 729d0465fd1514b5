package memory

import (
	"fmt"
	"testing"
)

// Only a person's own writes start reviewed, and agents cannot mark their writes reviewed by
// passing reviewed:true; they must use the audited accept op.
func TestReviewedPolicy(t *testing.T) {
	cases := []struct {
		actor    string
		reviewed *bool
		want     bool
	}{
		{ActorUser, nil, true},
		{ActorBridge, nil, true},
		{ActorTool, nil, false},
		{ActorExtractor, nil, false},
		{ActorExtractor, bp(true), false},
		{ActorOrganizer, bp(true), false},
		{ActorUser, bp(false), false},
		{ActorImport, bp(true), true},
	}
	for i, tc := range cases {
		t.Run(fmt.Sprintf("%s-%d", tc.actor, i), func(t *testing.T) {
			e := newEnv(t)
			it := wr(fmt.Sprintf("rev-%02d", i), "Reviewed policy", "Body text")
			it.Reviewed = tc.reviewed
			r := e.batch(tc.actor, it).Results[0]
			if !r.OK {
				t.Fatalf("write: %s %s", r.Code, r.Message)
			}
			if got := e.get(r.ID).Reviewed; got != tc.want {
				t.Fatalf("reviewed = %v, want %v", got, tc.want)
			}
			// An agent's update cannot flip it to reviewed either.
			up := e.batch(ActorTool, Item{Op: OpUpdate, ID: r.ID, Reviewed: bp(true)}).Results[0]
			if !up.OK {
				t.Fatalf("update: %s", up.Code)
			}
			if got := e.get(r.ID).Reviewed; got != tc.want {
				t.Fatalf("after tool update reviewed = %v, want %v", got, tc.want)
			}
			acc := e.batch(ActorTool, Item{Op: OpAccept, ID: r.ID}).Results[0]
			if !acc.OK || !e.get(r.ID).Reviewed {
				t.Fatalf("accept did not review: %+v", acc)
			}
		})
	}
}

// Restoring from the archive counts against the quota like a new write.
func TestRestoreRespectsQuota(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.QuotaLimit = 20 })
	var first string
	for i := 0; i < 15; i++ {
		r := e.ok(wr(fmt.Sprintf("q-%02d", i), "Quota entry", "Body"))
		if i == 0 {
			first = r.ID
		}
	}
	e.ok(Item{Op: OpArchive, ID: first})
	e.ok(wr("q-fill", "Quota entry", "Body")) // 15 live again: headroom 5 = exhausted
	e.wantCode(Item{Op: OpRestore, ID: first}, CodeQuotaExhausted)
	if !e.get(first).Archived {
		t.Fatal("refused restore moved the memory")
	}
}

// The quota.changed event follows the tightest scope instance as batches fill it.
func TestQuotaEventsFollowLadder(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.QuotaLimit = 120 })
	var levels []string
	e.s.Subscribe(func(ev Event) {
		if ev.Kind == "quota.changed" {
			levels = append(levels, ev.Level)
		}
	})
	for i := 0; i < 115; i++ {
		e.ok(wr(fmt.Sprintf("l-%03d", i), "Ladder entry", "Body"))
	}
	want := []string{LevelNormal, LevelNotice, LevelDegraded, LevelCritical, LevelExhausted}
	if fmt.Sprint(levels) != fmt.Sprint(want) {
		t.Fatalf("levels %v, want %v", levels, want)
	}
}

// A file breaking or being fixed by hand tells subscribers, and the memory that broke leaves
// open lists through memory.changed.
func TestProblemsEvents(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("will-break", "Breaks", "Body"))
	var kinds []string
	var changed []string
	e.s.Subscribe(func(ev Event) {
		kinds = append(kinds, ev.Kind)
		if ev.Kind == "memory.changed" {
			changed = append(changed, ev.IDs...)
		}
	})
	e.put("global/user/will-break.md", []byte("no frontmatter any more"))
	e.reconcile()
	if !contains(kinds, "memory.problems") || !contains(changed, r.ID) {
		t.Fatalf("breaking a file: events %v, changed %v", kinds, changed)
	}
	kinds = nil
	e.put("global/user/will-break.md", handFile(r.ID, "Fixed", "Body again"))
	e.reconcile()
	if !contains(kinds, "memory.problems") || !contains(kinds, "memory.changed") {
		t.Fatalf("fixing a file: events %v", kinds)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestAuditPaging(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 7; i++ {
		e.ok(wr(fmt.Sprintf("page-%02d", i), "Paged", "Body"))
	}
	first, err := e.s.AuditPage(e.ctx, "", 3, 0)
	if err != nil || len(first) != 3 {
		t.Fatalf("first page %v %v", first, err)
	}
	var all []AuditEntry
	all = append(all, first...)
	for {
		page, err := e.s.AuditPage(e.ctx, "", 3, all[len(all)-1].Seq)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		all = append(all, page...)
	}
	if len(all) != 7 {
		t.Fatalf("paged %d entries, want 7", len(all))
	}
	for i := 1; i < len(all); i++ {
		if all[i].Seq >= all[i-1].Seq {
			t.Fatalf("not newest first / duplicated: %d after %d", all[i].Seq, all[i-1].Seq)
		}
	}
}
