package organizer

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

// dupes writes a set of unreviewed entries (as the extractor would) with an exact pair, a
// contained pair, a reordered-list pair and two unrelated entries.
func dupes(e *env) map[string]string {
	a := item("dark-mode", "Dark mode", "User prefers dark mode in every editor.")
	a.Aliases, a.Tags = []string{"theme"}, []string{"ui"}
	b := item("dark-theme", "Dark theme", "user prefers DARK mode in every editor")
	b.Tags = []string{"editor"}
	b.SourceQuote = sp("I always switch every editor to dark mode first thing")
	c := item("deploy-day", "Deploy day", "Deploys go out on Fridays after the release review.")
	d := item("deploy-day-long", "Deploy schedule",
		"Deploys go out on Fridays after the release review. Hotfixes may ship any day with a second reviewer.")
	d.Confidence = memory.ConfidenceMedium
	f := item("drinks", "Drinks", "Favourite drinks: tea, coffee, juice, water, milk, soda, lemonade.")
	g := item("drinks-2", "Favourite drinks", "Favourite drinks: milk, water, soda, lemonade, tea, juice, coffee.")
	h := item("lives-berlin", "Lives in Berlin", "The user lives in Berlin and works remotely.")
	k := item("likes-go", "Likes Go", "The user writes most backend services in Go.")
	return e.write(memory.ActorExtractor, a, b, c, d, f, g, h, k)
}

func TestManualRunReportsAndAppliesNothingUntilApplyReport(t *testing.T) {
	e := newEnv(t)
	ids := dupes(e)
	before := e.live()

	det := e.run(TriggerManual)
	if det.Status != StatusDone || det.Trigger != TriggerManual {
		t.Fatalf("run = %s/%s, want done/manual (error %+v)", det.Status, det.Trigger, det.Error)
	}
	rep := det.Report
	if rep == nil || rep.Version != ReportVersion {
		t.Fatalf("report = %+v, want version %d", rep, ReportVersion)
	}
	if rep.Counts.MergeInto != 3 || rep.Counts.Queued != 3 || rep.Counts.Auto != 0 || rep.RejectionBuckets[BucketManualReview] != 3 {
		t.Fatalf("counts = %+v buckets = %v, want 3 merges queued for manual review", rep.Counts, rep.RejectionBuckets)
	}
	for _, d := range rep.Decisions {
		if d.Status != DecisionPending || d.Outcome != OutcomeQueue || d.Preserved == nil {
			t.Fatalf("decision %s = %+v, want a pending queued merge with preserved evidence", d.ID, d)
		}
	}
	// Nothing changed: the same files at the same versions, no snapshot.
	after := e.live()
	if len(after) != len(before) {
		t.Fatalf("live entries %d → %d after a manual run", len(before), len(after))
	}
	for k, m := range before {
		if after[k] == nil || after[k].Version != m.Version {
			t.Fatalf("%s changed during a manual run", k)
		}
	}
	if e.exists(".snapshots/" + det.ID) {
		t.Fatal("a manual run wrote a snapshot before anything was applied")
	}
	if det.InitialCount != 8 || det.FinalCount != 8 || det.CompressionRatio != 1 {
		t.Fatalf("counts %d → %d ratio %v, want 8 → 8 ratio 1", det.InitialCount, det.FinalCount, det.CompressionRatio)
	}

	// The person applies the dark-mode merge only.
	dm := decisionFor(rep, ids["dark-mode"])
	if dm == nil || dm.Tier != TierExact {
		t.Fatalf("dark-mode decision = %+v, want an exact merge", dm)
	}
	res, err := e.svc.ApplyReport(e.ctx, det.ID, []string{dm.ID})
	if err != nil {
		t.Fatalf("ApplyReport: %v", err)
	}
	if res.Applied != 1 || res.Failed != 0 || res.FinalCount != 7 {
		t.Fatalf("ApplyReport = %+v, want 1 applied, final 7", res)
	}
	live := e.live()
	kept, gone := dm.Into.Slug, dm.Targets[0].Slug
	if live["global/"+kept] == nil || live["global/"+gone] != nil {
		t.Fatalf("after the merge: %s present=%v, %s present=%v", kept, live["global/"+kept] != nil, gone, live["global/"+gone] != nil)
	}
	if live["global/deploy-day"] == nil || live["global/drinks-2"] == nil {
		t.Fatal("decisions that were not chosen were applied")
	}
	m := live["global/"+kept]
	if !reflect.DeepEqual(sorted(m.Tags), []string{"editor", "ui"}) {
		t.Fatalf("tags = %v, want the union", m.Tags)
	}
	if m.SourceQuote != "I always switch every editor to dark mode first thing" {
		t.Fatalf("quote = %q, want the strongest (longest) quote", m.SourceQuote)
	}
	if !strings.Contains(strings.Join(m.Supersedes, ","), gone) {
		t.Fatalf("supersedes = %v, want %s", m.Supersedes, gone)
	}
	for _, ref := range []EntryRef{*dm.Into, dm.Targets[0]} {
		if !e.exists(".snapshots/" + det.ID + "/" + ref.Path) {
			t.Fatalf("no snapshot of %s", ref.Path)
		}
	}
	det = e.detail(det.ID)
	if det.FinalCount != 7 || det.Report.Counts.Applied != 1 || det.Report.Counts.Removed != 1 {
		t.Fatalf("run after review: final %d counts %+v", det.FinalCount, det.Report.Counts)
	}
	if _, err := e.svc.ApplyReport(e.ctx, det.ID, []string{dm.ID}); CodeOf(err) != CodeDecisionNotPending {
		t.Fatalf("applying twice: %v, want %s", err, CodeDecisionNotPending)
	}
	if _, err := e.svc.ApplyReport(e.ctx, det.ID, []string{"d999"}); CodeOf(err) != CodeDecisionNotFound {
		t.Fatalf("unknown decision: %v, want %s", err, CodeDecisionNotFound)
	}
	if _, err := e.svc.ApplyReport(e.ctx, det.ID, nil); CodeOf(err) != CodeNoDecisions {
		t.Fatalf("no decisions: %v, want %s", err, CodeNoDecisions)
	}
	if _, err := e.svc.ApplyReport(e.ctx, "nope", []string{"d001"}); CodeOf(err) != CodeRunNotFound {
		t.Fatalf("unknown run: %v, want %s", err, CodeRunNotFound)
	}
}

func TestScheduledRunMergesWithGroupOrderingAndSnapshots(t *testing.T) {
	e := newEnv(t)
	ids := dupes(e)
	// A reviewed exact pair: removing a reviewed entry is high risk, so it waits for a person.
	rev := e.write(memory.ActorUser,
		item("timezone", "Time zone", "The user works in the Europe/Berlin time zone."),
		item("timezone-copy", "Timezone", "The user works in the Europe/Berlin time zone."))
	// The same text in a project must never be merged with the global entry.
	proj := item("lives-berlin", "Lives in Berlin", "The user lives in Berlin and works remotely.")
	proj.Scope, proj.Workdir = memory.ScopeProject, t.TempDir()
	pid := e.write(memory.ActorExtractor, proj)
	// Numbers differ: a fuzzy match that must not be trusted.
	e.write(memory.ActorExtractor,
		item("standup-10", "Standup", "The team meets every Monday at 10 for the sprint planning session with the whole group."),
		item("standup-11", "Standup time", "The team meets every Monday at 11 for the sprint planning session with the whole group."))

	det := e.run(TriggerScheduled)
	if det.Status != StatusDone {
		t.Fatalf("status %s error %+v", det.Status, det.Error)
	}
	rep := det.Report
	live := e.live()

	// Exact, contained and reordered duplicates were merged.
	for _, pair := range [][2]string{{"dark-mode", "dark-theme"}, {"deploy-day-long", "deploy-day"}, {"drinks", "drinks-2"}} {
		d := decisionFor(rep, ids[pair[0]])
		if d == nil || d.Status != DecisionApplied || d.Outcome != OutcomeAuto {
			t.Fatalf("%s: decision %+v, want applied automatically", pair[0], d)
		}
		n := 0
		for _, s := range pair {
			if live["global/"+s] != nil {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%v: %d of the pair left, want 1", pair, n)
		}
	}
	long := live["global/deploy-day-long"]
	if long == nil || !strings.Contains(long.Body, "Hotfixes may ship") {
		t.Fatalf("containment merge kept %+v, want the longer text", long)
	}
	if !strings.Contains(strings.Join(long.Aliases, "|"), "Deploy day") {
		t.Fatalf("aliases = %v, want the merged entry's title", long.Aliases)
	}
	if long.Confidence != memory.ConfidenceHigh {
		t.Fatalf("confidence = %s, want the strongest evidence (high)", long.Confidence)
	}

	// Reviewed duplicates, the project copy and the guarded pair are untouched.
	for _, k := range []string{"global/timezone", "global/timezone-copy", "project/lives-berlin", "global/lives-berlin",
		"global/standup-10", "global/standup-11"} {
		if live[k] == nil {
			t.Fatalf("%s was removed", k)
		}
	}
	if d := decisionFor(rep, rev["timezone"]); d == nil || d.Outcome != OutcomeQueue || d.Bucket != BucketHighRisk || d.Risk != RiskHigh {
		t.Fatalf("reviewed pair decision = %+v, want queued as high risk", d)
	}
	if d := decisionFor(rep, pid["lives-berlin"]); d != nil {
		t.Fatalf("the project entry got decision %+v; scope instances must never be crossed", d)
	}
	st := decisionFor(rep, e.live()["global/standup-10"].ID)
	if st == nil || st.Outcome != OutcomeQueue || st.Reason.Code != ReasonSimilarGuarded || st.Confidence >= LowConfidence {
		t.Fatalf("guarded pair decision = %+v, want queued with the numbers-differ reason", st)
	}
	if rep.RejectionBuckets[BucketHighRisk] != 2 {
		t.Fatalf("buckets = %v, want 2 high risk", rep.RejectionBuckets)
	}

	// Group ordering: every merge's keeper write comes before its deletes, all as organizer.
	audit, err := e.store.Audit(e.ctx, "", 200)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rep.Decisions {
		if d.Status != DecisionApplied {
			continue
		}
		var upd, del int64
		for _, a := range audit {
			if a.Actor != memory.ActorOrganizer || a.Session != "organizer:"+det.ID {
				continue
			}
			if a.MemoryID == d.Into.ID && a.Op == "update" {
				upd = a.Seq
			}
			if a.MemoryID == d.Targets[0].ID && a.Op == "delete" {
				del = a.Seq
			}
		}
		if upd == 0 || del == 0 || upd > del {
			t.Fatalf("decision %s: update seq %d, delete seq %d; want the write before the delete", d.ID, upd, del)
		}
	}

	// Snapshots of every changed file, with a manifest.
	for _, d := range rep.Decisions {
		if d.Status != DecisionApplied {
			continue
		}
		for _, ref := range append([]EntryRef{*d.Into}, d.Targets...) {
			if !e.exists(".snapshots/" + det.ID + "/" + ref.Path) {
				t.Fatalf("no snapshot of %s", ref.Path)
			}
		}
	}
	raw, err := os.ReadFile(filepath.Join(e.store.Root(), ".snapshots", det.ID, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var man snapshotManifest
	if err := json.Unmarshal(raw, &man); err != nil || len(man.Files) != 6 || !man.CreatedAt.Equal(baseTime) {
		t.Fatalf("manifest = %+v (%v), want 6 files created at the clock's time", man, err)
	}
	if !reflect.DeepEqual(rep.Snapshots, []string{".snapshots/" + det.ID}) {
		t.Fatalf("report snapshots = %v", rep.Snapshots)
	}

	// The row: counts and ratio.
	if det.InitialCount != 13 || det.FinalCount != 10 || det.CompressionRatio != ratio(10, 13) || det.TokenUsageTotal != 0 {
		t.Fatalf("row: initial %d final %d ratio %v tokens %d", det.InitialCount, det.FinalCount, det.CompressionRatio, det.TokenUsageTotal)
	}
	if det.Phase != PhaseApply || det.FinishedAt == nil {
		t.Fatalf("row: phase %s finished %v", det.Phase, det.FinishedAt)
	}
}

// TestStaleReportMergeDeletesNothing: an entry edited after the scan makes its merge fail on
// the keeper's version, and the group's deletes are skipped — nothing is lost.
func TestStaleReportMergeDeletesNothing(t *testing.T) {
	e := newEnv(t)
	ids := dupes(e)
	det := e.run(TriggerManual)
	d := decisionFor(det.Report, ids["dark-mode"])
	// Someone edits the keeper after the scan.
	if _, err := e.store.ApplyBatch(e.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpUpdate,
		ID: d.Into.ID, Body: sp("Also in the terminal.")}}}); err != nil {
		t.Fatal(err)
	}
	res, err := e.svc.ApplyReport(e.ctx, det.ID, []string{d.ID})
	if err != nil {
		t.Fatalf("ApplyReport: %v", err)
	}
	if res.Failed != 1 || res.Decisions[0].Code != memory.CodeVersionConflict {
		t.Fatalf("ApplyReport = %+v, want a version conflict", res)
	}
	live := e.live()
	if live["global/dark-mode"] == nil || live["global/dark-theme"] == nil {
		t.Fatal("a failed merge deleted an entry")
	}
	if !strings.Contains(live["global/"+d.Into.Slug].Body, "Also in the terminal.") {
		t.Fatal("the person's edit was overwritten")
	}

	// A source deleted since the scan: the keeper is not touched either.
	c := decisionFor(det.Report, ids["deploy-day"])
	keeper := live["global/"+c.Into.Slug]
	if _, err := e.store.ApplyBatch(e.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpDelete,
		ID: c.Targets[0].ID}}}); err != nil {
		t.Fatal(err)
	}
	res, err = e.svc.ApplyReport(e.ctx, det.ID, []string{c.ID})
	if err != nil || res.Failed != 1 || res.Decisions[0].Code != memory.CodeNotFound {
		t.Fatalf("ApplyReport = %+v %v, want not_found", res, err)
	}
	if e.live()["global/"+c.Into.Slug].Version != keeper.Version {
		t.Fatal("the keeper was rewritten although its source was gone")
	}
}

// failingPlanner fails the feedback cluster, panics on the reference cluster and plans the
// rest offline.
type failingPlanner struct{}

func (failingPlanner) Name() string { return "failing" }

func (failingPlanner) Plan(ctx context.Context, in PlanInput) (PlanOutput, error) {
	switch {
	case strings.Contains(in.Cluster.Key, ":feedback:"):
		return PlanOutput{Usage: Usage{InputTokens: 7}}, errors.New("model returned no plan")
	case strings.Contains(in.Cluster.Key, ":reference:"):
		panic("planner bug")
	}
	out, err := OfflinePlanner{}.Plan(ctx, in)
	out.Usage = Usage{InputTokens: 10, OutputTokens: 5}
	return out, err
}

func TestFailingClusterIsolated(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Planner = failingPlanner{} })
	fb := item("be-brief", "Be brief", "Keep answers short and to the point always.")
	fb.Type = memory.TypeFeedback
	fb2 := item("be-brief-2", "Brief answers", "Keep answers short and to the point always.")
	fb2.Type = memory.TypeFeedback
	ref := item("docs-link", "Docs", "The API reference lives in the docs folder of the repo.")
	ref.Type = memory.TypeReference
	e.write(memory.ActorExtractor, fb, fb2, ref,
		item("dark-mode", "Dark mode", "User prefers dark mode in every editor."),
		item("dark-theme", "Dark theme", "User prefers dark mode in every editor."))

	det := e.run(TriggerScheduled)
	if det.Status != StatusDone {
		t.Fatalf("status %s (%+v), want done despite failing clusters", det.Status, det.Error)
	}
	rep := det.Report
	if rep.Counts.Clusters != 3 || rep.Counts.ClustersFailed != 2 {
		t.Fatalf("clusters %d failed %d, want 3 and 2", rep.Counts.Clusters, rep.Counts.ClustersFailed)
	}
	failed := map[string]string{}
	for _, c := range rep.Clusters {
		if c.Status == "failed" {
			failed[c.Key] = c.Error.Message
		}
	}
	if len(failed) != 2 {
		t.Fatalf("failed clusters = %v", failed)
	}
	live := e.live()
	if live["global/be-brief"] == nil || live["global/be-brief-2"] == nil {
		t.Fatal("the failed cluster's entries were changed")
	}
	if (live["global/dark-mode"] == nil) == (live["global/dark-theme"] == nil) {
		t.Fatal("the healthy cluster was not merged")
	}
	if det.TokenUsageTotal != 22 {
		t.Fatalf("token usage = %d, want 22 (failed clusters' usage counts too)", det.TokenUsageTotal)
	}
}

func TestRunNowWhileActiveIsQueuedThenRun(t *testing.T) {
	bp := newBlockingPlanner()
	e := newEnv(t, func(o *Options) { o.Planner = bp })
	dupes(e)
	first, err := e.svc.RunNow(e.ctx, TriggerManual)
	if err != nil || first.Status != StatusRunning {
		t.Fatalf("first RunNow = %+v %v, want running", first, err)
	}
	bp.waitEntered(t)
	second, err := e.svc.RunNow(e.ctx, TriggerManual)
	if err != nil || second.Status != StatusQueued {
		t.Fatalf("second RunNow = %+v %v, want queued", second, err)
	}
	runs, err := e.svc.Runs(e.ctx, RunsParams{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Status{}
	for _, r := range runs.Runs {
		got[r.ID] = r.Status
	}
	if got[first.ID] != StatusRunning || got[second.ID] != StatusQueued {
		t.Fatalf("runs = %v, want the first running and the second queued", got)
	}
	st, err := e.svc.Status(e.ctx)
	if err != nil || st.Queued != 1 || st.Active == nil || st.Active.ID != first.ID || st.Active.Progress == nil {
		t.Fatalf("status = %+v %v, want one queued and the first active with progress", st, err)
	}
	if _, err := e.svc.ApplyReport(e.ctx, first.ID, []string{"d001"}); CodeOf(err) != CodeBusy {
		t.Fatalf("ApplyReport during a run: %v, want %s", err, CodeBusy)
	}
	close(bp.release)
	e.wait()
	for _, id := range []string{first.ID, second.ID} {
		if d := e.detail(id); d.Status != StatusDone || d.Report == nil {
			t.Fatalf("run %s = %s, want done with a report", id, d.Status)
		}
	}
	// The queued run started only after the first had ended.
	ev := e.progress()
	firstDone, secondStart := -1, -1
	for i, p := range ev {
		if p.RunID == first.ID && p.Status == StatusDone {
			firstDone = i
		}
		if p.RunID == second.ID && p.Status == StatusRunning && secondStart < 0 {
			secondStart = i
		}
	}
	if firstDone < 0 || secondStart < 0 || secondStart < firstDone {
		t.Fatalf("events: first done at %d, second started at %d", firstDone, secondStart)
	}
}

func TestAbort(t *testing.T) {
	bp := newBlockingPlanner()
	e := newEnv(t, func(o *Options) { o.Planner = bp })
	dupes(e)
	before := e.live()
	if _, err := e.svc.Abort(e.ctx, ""); CodeOf(err) != CodeNothingToAbort {
		t.Fatalf("Abort while idle: %v, want %s", err, CodeNothingToAbort)
	}
	active, _ := e.svc.RunNow(e.ctx, TriggerScheduled)
	bp.waitEntered(t)
	queued, _ := e.svc.RunNow(e.ctx, TriggerScheduled)
	if ref, err := e.svc.Abort(e.ctx, queued.ID); err != nil || ref.Status != StatusAborted {
		t.Fatalf("Abort(queued) = %+v %v", ref, err)
	}
	if ref, err := e.svc.Abort(e.ctx, ""); err != nil || ref.ID != active.ID {
		t.Fatalf("Abort(active) = %+v %v", ref, err)
	}
	e.wait()
	if d := e.detail(active.ID); d.Status != StatusAborted || d.Phase != PhasePlan || d.FinishedAt == nil {
		t.Fatalf("active run = %s in %s, want aborted in plan", d.Status, d.Phase)
	}
	if d := e.detail(queued.ID); d.Status != StatusAborted || d.Report != nil {
		t.Fatalf("queued run = %s with report %v, want aborted and never started", d.Status, d.Report != nil)
	}
	after := e.live()
	for k, m := range before {
		if after[k] == nil || after[k].Version != m.Version {
			t.Fatalf("%s changed by an aborted run", k)
		}
	}
	if _, err := e.svc.Abort(e.ctx, active.ID); CodeOf(err) != CodeNothingToAbort {
		t.Fatalf("Abort of an ended run: %v, want %s", err, CodeNothingToAbort)
	}
}

// TestOneRunPerHomeAcrossProcesses: a second service (another process's) on the same home
// queues its Run Now while the first holds the run lock; the first takes it when it ends.
// An Abort from the second process stops a run the first is executing.
func TestOneRunPerHomeAcrossProcesses(t *testing.T) {
	bp := newBlockingPlanner()
	e := newEnv(t, func(o *Options) { o.Planner = bp })
	dupes(e)
	other := e.newService(e.openStore(0))

	a, _ := e.svc.RunNow(e.ctx, TriggerManual)
	bp.waitEntered(t)
	b, err := other.RunNow(e.ctx, TriggerManual)
	if err != nil || b.Status != StatusQueued {
		t.Fatalf("other RunNow = %+v %v, want queued behind the lock", b, err)
	}
	if _, err := other.ApplyReport(e.ctx, a.ID, []string{"d001"}); CodeOf(err) != CodeBusy {
		t.Fatalf("other ApplyReport: %v, want %s", err, CodeBusy)
	}
	close(bp.release)
	e.wait()
	if d := e.detail(b.ID); d.Status != StatusDone {
		t.Fatalf("queued run of the other process = %s, want done (taken over when the lock freed)", d.Status)
	}

	// Abort across processes.
	bp2 := newBlockingPlanner()
	e.svc.planner = bp2
	c, _ := e.svc.RunNow(e.ctx, TriggerManual)
	bp2.waitEntered(t)
	if ref, err := other.Abort(e.ctx, ""); err != nil || ref.ID != c.ID {
		t.Fatalf("other Abort = %+v %v", ref, err)
	}
	close(bp2.release)
	e.wait()
	if d := e.detail(c.ID); d.Status != StatusAborted {
		t.Fatalf("run aborted from another process = %s", d.Status)
	}
}

// TestPassiveRunNowIsTakenByTheLongRunningProcess: a one-shot process (the CLI) only queues;
// the long-running process finds the queued run at its next poll and executes it.
func TestPassiveRunNowIsTakenByTheLongRunningProcess(t *testing.T) {
	e := newEnv(t)
	dupes(e)
	cli := e.newService(e.openStore(0), func(o *Options) { o.Passive = true; o.Settings = onSettings() })
	ref, err := cli.RunNow(e.ctx, TriggerManual)
	if err != nil || ref.Status != StatusQueued {
		t.Fatalf("passive RunNow = %+v %v, want queued", ref, err)
	}
	if err := cli.WaitIdle(e.ctx); err != nil {
		t.Fatal(err)
	}
	if d := e.detail(ref.ID); d.Status != StatusQueued {
		t.Fatalf("the passive process ran it: %s", d.Status)
	}
	polls := e.clock.pending(time.Second)
	if len(polls) != 1 || polls[0].d != DefaultPollInterval {
		t.Fatalf("timers = %v, want only the long-running process's poll", durations(polls))
	}
	polls[0].fire()
	e.wait()
	if d := e.detail(ref.ID); d.Status != StatusDone || d.Report == nil {
		t.Fatalf("queued run after the poll = %s", d.Status)
	}
	if len(e.clock.pending(time.Second)) != 1 {
		t.Fatal("the poll was not re-armed")
	}
}

func TestQuotaHeadroomRecorded(t *testing.T) {
	e := &env{t: t, ctx: context.Background(), home: t.TempDir(), clock: newFakeClock(baseTime)}
	e.store = e.openStore(200)
	e.svc = e.newService(e.store)
	var items []memory.Item
	for i := 0; i < 30; i++ {
		items = append(items, item("fact-"+string(rune('a'+i/10))+string(rune('a'+i%10)), "Fact",
			"Distinct fact number "+strings.Repeat("x", i+1)+" about the user."))
	}
	e.write(memory.ActorExtractor, items...)
	p := item("proj-fact", "Project fact", "The build uses make.")
	p.Scope, p.Workdir = memory.ScopeProject, t.TempDir()
	e.write(memory.ActorExtractor, p)
	det := e.run(TriggerManual)
	if det.QuotaHeadroomAtStart != 170 {
		t.Fatalf("headroom at start = %d, want 170 (the tightest scope: 200 − 30)", det.QuotaHeadroomAtStart)
	}
	var global ScopeScan
	for _, s := range det.Report.Scopes {
		if s.Scope == memory.ScopeGlobal {
			global = s
		}
	}
	if global.Used != 30 || global.Limit != 200 || global.Target != 100 || global.OverTarget != 0 || len(det.Report.Scopes) != 2 {
		t.Fatalf("scopes = %+v", det.Report.Scopes)
	}
	if det.InitialCount != 31 || det.Report.QuotaHeadroom != 170 {
		t.Fatalf("initial %d, report headroom %d", det.InitialCount, det.Report.QuotaHeadroom)
	}
}

func TestMarkReviewForStaleLowConfidence(t *testing.T) {
	e := newEnv(t)
	old := item("maybe-cats", "Maybe likes cats", "The user might like cats.")
	old.Confidence, old.SourceQuote = memory.ConfidenceLow, nil
	ids := e.write(memory.ActorExtractor, old)
	e.clock.Advance(31 * 24 * time.Hour)
	fresh := item("maybe-dogs", "Maybe likes dogs", "The user might like dogs.")
	fresh.Confidence, fresh.SourceQuote = memory.ConfidenceLow, nil
	e.write(memory.ActorExtractor, fresh)

	det := e.run(TriggerScheduled)
	d := decisionFor(det.Report, ids["maybe-cats"])
	if d == nil || d.Action != ActionMarkReview || d.Outcome != OutcomeQueue || d.Bucket != BucketBelowConfidence {
		t.Fatalf("decision = %+v, want a queued mark_review", d)
	}
	if det.Report.Counts.MarkReview != 1 || det.Report.Counts.Keep != 1 {
		t.Fatalf("counts = %+v, want one mark_review and one keep", det.Report.Counts)
	}
	if _, err := e.svc.ApplyReport(e.ctx, det.ID, []string{d.ID}); err != nil {
		t.Fatal(err)
	}
	m := e.live()["global/maybe-cats"]
	if !hasTag(m, ReviewTag) || m.Reviewed {
		t.Fatalf("after review: tags %v reviewed %v", m.Tags, m.Reviewed)
	}
	// Tagged entries are not proposed again.
	if det2 := e.run(TriggerManual); det2.Report.Counts.MarkReview != 0 {
		t.Fatalf("second run proposed %d mark_review", det2.Report.Counts.MarkReview)
	}
}

func TestSnapshotsPrunedAfterRetention(t *testing.T) {
	e := newEnv(t)
	put := func(name string, created time.Time) {
		dir := filepath.Join(e.store.Root(), ".snapshots", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(snapshotManifest{RunID: name, CreatedAt: created})
		if err := os.WriteFile(filepath.Join(dir, manifestName), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("OLD", baseTime.Add(-31*24*time.Hour))
	put("RECENT", baseTime.Add(-29*24*time.Hour))
	e.run(TriggerManual)
	if e.exists(".snapshots/OLD") || !e.exists(".snapshots/RECENT") {
		t.Fatalf("after pruning: OLD present=%v RECENT present=%v", e.exists(".snapshots/OLD"), e.exists(".snapshots/RECENT"))
	}
}

func TestInterruptedRunMarkedFailedAtStart(t *testing.T) {
	e := newEnv(t)
	e.deadRunningRow("01DEAD")
	e.newService(e.store)
	d := e.detail("01DEAD")
	if d.Status != StatusFailed || d.Error == nil || d.Error.Code != CodeInterrupted {
		t.Fatalf("interrupted run = %s %+v, want failed with %s", d.Status, d.Error, CodeInterrupted)
	}
}

// errClusterer fails; groupClusterer puts every entry in one topic.
type errClusterer struct{}

func (errClusterer) Name() string { return "topics" }
func (errClusterer) Cluster(context.Context, ClusterInput) (ClusterOutput, error) {
	return ClusterOutput{}, errors.New("no tool call")
}

type oneTopic struct{}

func (oneTopic) Name() string { return "topics" }
func (oneTopic) Cluster(_ context.Context, in ClusterInput) (ClusterOutput, error) {
	var ids []string
	for _, m := range in.Entries {
		ids = append(ids, m.ID)
	}
	return ClusterOutput{Groups: [][]string{ids[:3], append(ids[3:4], "not-an-id")}, Usage: Usage{OutputTokens: 3}}, nil
}

func TestTopicClustererSeam(t *testing.T) {
	var items []memory.Item
	for i := 0; i < 10; i++ {
		items = append(items, item("entry-"+string(rune('a'+i)), "Entry", "Unrelated entry "+strings.Repeat("y", i+1)))
	}
	e := newEnv(t, func(o *Options) { o.Clusterer = errClusterer{} })
	e.write(memory.ActorExtractor, items...)
	det := e.run(TriggerManual)
	if det.Report.ClusterFallback == nil || det.Report.Counts.Clusters != 2 || !strings.Contains(det.Report.Clusters[0].Key, ":user:") {
		t.Fatalf("fallback %+v clusters %+v, want structural groups after the clusterer failed", det.Report.ClusterFallback, det.Report.Clusters)
	}
	e2 := newEnv(t, func(o *Options) { o.Clusterer = oneTopic{} })
	e2.write(memory.ActorExtractor, items...)
	det = e2.run(TriggerManual)
	sizes := []int{}
	for _, c := range det.Report.Clusters {
		sizes = append(sizes, c.Size)
	}
	if !reflect.DeepEqual(sizes, []int{3, 1, 6}) || det.TokenUsageTotal != 3 {
		t.Fatalf("cluster sizes %v tokens %d, want [3 1 6] (topics, then the rest structurally) and 3", sizes, det.TokenUsageTotal)
	}
}
