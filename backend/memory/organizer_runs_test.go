package memory

import (
	"testing"
	"time"
)

func TestSettingRowsRoundTripAndOutliveReindex(t *testing.T) {
	e := newEnv(t)
	if v, ok, err := e.s.Setting(e.ctx, "app.settings"); err != nil || ok || v != "" {
		t.Fatalf("fresh home: %q %v %v", v, ok, err)
	}
	for _, v := range []string{`{"a":1}`, `{"a":2}`} {
		if err := e.s.PutSetting(e.ctx, "app.settings", v); err != nil {
			t.Fatal(err)
		}
		if got, ok, err := e.s.Setting(e.ctx, "app.settings"); err != nil || !ok || got != v {
			t.Fatalf("after put %q: %q %v %v", v, got, ok, err)
		}
	}
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	if got, ok, _ := e.s.Setting(e.ctx, "app.settings"); !ok || got != `{"a":2}` {
		t.Fatalf("after reindex: %q %v", got, ok)
	}
}

func TestOrganizerRunRecordsFollowTheirLifecycle(t *testing.T) {
	e := newEnv(t)
	at := baseTime
	for i, id := range []string{"R2", "R1", "R3"} {
		// R2 is asked for first; ties on time fall back to the id.
		if err := e.s.QueueOrganizerRun(e.ctx, id, "manual", "standard", at.Add(time.Duration(min(i, 1))*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if id, ok, err := e.s.OldestQueuedOrganizerRun(e.ctx); err != nil || !ok || id != "R2" {
		t.Fatalf("oldest queued = %q %v %v, want R2", id, ok, err)
	}
	if ok, err := e.s.ClaimOrganizerRun(e.ctx, "R2", "scan", at.Add(time.Hour)); err != nil || !ok {
		t.Fatalf("claim R2: %v %v", ok, err)
	}
	if ok, _ := e.s.ClaimOrganizerRun(e.ctx, "R2", "scan", at); ok {
		t.Fatal("a running run was claimed again")
	}
	if id, _, _ := e.s.OldestQueuedOrganizerRun(e.ctx); id != "R1" {
		t.Fatalf("oldest queued after claim = %q, want R1", id)
	}
	p := RunProgress{Phase: "plan", InitialCount: 10, FinalCount: 8, CompressionRatio: 0.8, QuotaHeadroomAtStart: 490,
		TokenUsageTotal: 7, Report: `{"version":1}`}
	if ok, err := e.s.UpdateRunningOrganizerRun(e.ctx, "R2", p); err != nil || !ok {
		t.Fatalf("update R2: %v %v", ok, err)
	}
	p.Phase, p.Report, p.KeepReport = "gate", `{"ignored":true}`, true
	if ok, _ := e.s.UpdateRunningOrganizerRun(e.ctx, "R2", p); !ok {
		t.Fatal("checkpoint of R2 refused")
	}
	if ok, _ := e.s.UpdateRunningOrganizerRun(e.ctx, "R1", p); ok {
		t.Fatal("a queued run took a running run's checkpoint")
	}
	r, ok, err := e.s.OrganizerRun(e.ctx, "R2")
	if err != nil || !ok || r.Status != "running" || r.Phase != "gate" || r.Report != `{"version":1}` ||
		r.InitialCount != 10 || r.FinalCount != 8 || r.CompressionRatio != 0.8 || r.QuotaHeadroomAtStart != 490 ||
		r.TokenUsageTotal != 7 || !r.StartedAt.Equal(at.Add(time.Hour)) || r.FinishedAt != nil {
		t.Fatalf("R2 = %+v %v %v", r, ok, err)
	}
	if n, _ := e.s.CountOrganizerRuns(e.ctx, "queued"); n != 2 {
		t.Fatalf("queued = %d, want 2", n)
	}
	// Only an aborted queued run moves; a run in another status stays.
	if ok, _ := e.s.SetOrganizerRunStatus(e.ctx, "R1", "running", "aborted", "", at); ok {
		t.Fatal("R1 was not running but moved")
	}
	if ok, _ := e.s.SetOrganizerRunStatus(e.ctx, "R1", "queued", "aborted", "", at.Add(2*time.Hour)); !ok {
		t.Fatal("R1 did not move to aborted")
	}
	p.KeepReport, p.Report = true, `{"version":1,"final":true}`
	if err := e.s.FinishOrganizerRun(e.ctx, "R2", "done", p, "", at.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if r, _, _ := e.s.OrganizerRun(e.ctx, "R2"); r.Status != "done" || r.Report != p.Report || r.FinishedAt == nil ||
		!r.FinishedAt.Equal(at.Add(3*time.Hour)) {
		t.Fatalf("finished R2 = %+v", r)
	}
	if err := e.s.SaveOrganizerRunReport(e.ctx, "R2", 6, 0.6, `{"version":1,"reviewed":true}`); err != nil {
		t.Fatal(err)
	}
	if r, _, _ := e.s.OrganizerRun(e.ctx, "R2"); r.FinalCount != 6 || r.CompressionRatio != 0.6 || r.Status != "done" {
		t.Fatalf("reviewed R2 = %+v", r)
	}
	if _, ok, err := e.s.OrganizerRun(e.ctx, "nope"); ok || err != nil {
		t.Fatalf("missing run: %v %v", ok, err)
	}
	// Newest first; a status filter keeps only those.
	all, err := e.s.OrganizerRuns(e.ctx, nil, 10, 0)
	if err != nil || len(all) != 3 || all[0].ID != "R2" || all[1].ID != "R3" || all[2].ID != "R1" {
		t.Fatalf("all runs = %+v %v", all, err)
	}
	ended, _ := e.s.OrganizerRuns(e.ctx, []string{"done", "aborted"}, 10, 0)
	if len(ended) != 2 || ended[0].ID != "R2" || ended[1].ID != "R1" {
		t.Fatalf("ended runs = %+v", ended)
	}
	if page, _ := e.s.OrganizerRuns(e.ctx, nil, 1, 1); len(page) != 1 || page[0].ID != "R3" {
		t.Fatalf("second page = %+v", page)
	}
	if _, ok, _ := e.s.LatestOrganizerRunStart(e.ctx, "scheduled", "done"); ok {
		t.Fatal("no scheduled run is done yet")
	}
	if got, ok, _ := e.s.LatestOrganizerRunStart(e.ctx, "manual", "done"); !ok || !got.Equal(at.Add(time.Hour)) {
		t.Fatalf("latest manual done = %v %v", got, ok)
	}
}

func TestFailRunningOrganizerRunsOnlyTouchesRunningOnes(t *testing.T) {
	e := newEnv(t)
	for _, id := range []string{"A", "B"} {
		if err := e.s.QueueOrganizerRun(e.ctx, id, "scheduled", "standard", baseTime); err != nil {
			t.Fatal(err)
		}
	}
	e.s.ClaimOrganizerRun(e.ctx, "A", "scan", baseTime)
	n, err := e.s.FailRunningOrganizerRuns(e.ctx, "organizer_interrupted", baseTime.Add(time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("failed %d %v, want 1", n, err)
	}
	if a, _, _ := e.s.OrganizerRun(e.ctx, "A"); a.Status != "failed" || a.Error != "organizer_interrupted" || a.FinishedAt == nil {
		t.Fatalf("A = %+v", a)
	}
	if b, _, _ := e.s.OrganizerRun(e.ctx, "B"); b.Status != "queued" || b.Error != "" {
		t.Fatalf("B = %+v", b)
	}
}

func TestCountCreatedSinceCountsLiveOrdinaryMemories(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("old-one", "Old", "before the mark"))
	mark := e.clock.Now()
	e.clock.Advance(time.Minute)
	e.ok(wr("new-one", "New", "after the mark"))
	e.ok(wr("new-two", "Two", "after the mark too"))
	e.ok(Item{Op: OpArchive, Slug: "new-two", Scope: ScopeGlobal, Type: TypeUser})
	if n, err := e.s.CountCreatedSince(e.ctx, mark); err != nil || n != 1 {
		t.Fatalf("created since = %d %v, want 1 (archived and older ones left out)", n, err)
	}
}
