package organizer

import (
	"testing"

	"engram/backend/memory"
)

// A run asked for one scope instance (the quota banner's button) scans and reports only that
// instance; the scope is kept in the run row, so a queued run keeps it too.
func TestRunNowForOneScope(t *testing.T) {
	e := newEnv(t)
	e.write(memory.ActorUser, item("global-one", "Global one", "a global memory"), item("global-two", "Global two", "another global memory"))
	wd := t.TempDir()
	proj := memory.Item{Op: memory.OpWrite, Scope: memory.ScopeProject, Workdir: wd, Type: memory.TypeProject, Slug: "proj-one",
		Title: sp("Project one"), Body: sp("a project memory"), Confidence: memory.ConfidenceHigh, SourceQuote: sp("the user said so in chat")}
	e.write(memory.ActorUser, proj)

	ref, err := e.svc.RunNowFor(e.ctx, RunNowParams{Scope: memory.ScopeProject, Workdir: wd})
	if err != nil {
		t.Fatal(err)
	}
	e.wait()
	d := e.detail(ref.ID)
	if d.Status != StatusDone || d.Report == nil {
		t.Fatalf("run %+v", d.RunSummary)
	}
	if d.ScopeFilter == nil || d.ScopeFilter.Scope != memory.ScopeProject || d.ScopeFilter.Workdir == "" {
		t.Fatalf("the run's summary does not say which scope it organized: %+v", d.ScopeFilter)
	}
	rep := d.Report
	if rep.ScopeFilter == nil || rep.ScopeFilter.Scope != memory.ScopeProject || rep.ScopeFilter.Key != memory.ProjectKey(mustCanon(t, wd)) {
		t.Fatalf("scope filter %+v", rep.ScopeFilter)
	}
	if len(rep.Scopes) != 1 || rep.Scopes[0].Scope != memory.ScopeProject || rep.Counts.Scanned != 1 || d.InitialCount != 1 {
		t.Fatalf("scanned %+v (counts %+v, initial %d): only the project's memory", rep.Scopes, rep.Counts, d.InitialCount)
	}
	// Every scope when none is named.
	all := e.run(TriggerManual)
	if all.Report.ScopeFilter != nil || all.ScopeFilter != nil || all.Report.Counts.Scanned != 3 {
		t.Fatalf("unscoped run scanned %d (filter %+v)", all.Report.Counts.Scanned, all.Report.ScopeFilter)
	}
}

func mustCanon(t *testing.T, wd string) string {
	t.Helper()
	c, err := memory.CanonicalWorkdir(wd)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRunNowScopeIsChecked(t *testing.T) {
	e := newEnv(t)
	for _, p := range []RunNowParams{
		{Scope: "team"},
		{Scope: memory.ScopeProject},
		{Scope: memory.ScopeProject, Workdir: "relative/dir"},
		{Scope: memory.ScopeAgent, Agent: "../x"},
		{Workdir: "/tmp"},
		{Scope: memory.ScopeGlobal, Agent: "codex"},
	} {
		_, err := e.svc.RunNowFor(e.ctx, p)
		if err == nil {
			t.Fatalf("%+v: accepted", p)
		}
		if c, ok := err.(*Error); !ok || c.Code != CodeInvalidScope {
			t.Fatalf("%+v: %v, want %s", p, err, CodeInvalidScope)
		}
	}
	if got, err := (RunNowParams{Scope: memory.ScopeAgent, Key: "codex"}).scopeFilter(nil); err != nil || got.Key != "codex" || got.Agent != "codex" {
		t.Fatalf("agent by key: %+v %v", got, err)
	}
	if got := decodeScopeFilter(encodeScopeFilter(&ScopeInstance{Scope: memory.ScopeGlobal})); got == nil || got.Scope != memory.ScopeGlobal {
		t.Fatalf("round trip: %+v", got)
	}
	if decodeScopeFilter(`{"scope":"nope"}`) != nil || decodeScopeFilter("garbage") != nil {
		t.Fatal("an unreadable filter must mean every scope")
	}
}
