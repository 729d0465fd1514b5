package api

import (
	"strings"
	"testing"

	"engram/backend/history"
	"engram/backend/memory"
)

// Doctor's first line is said once, by api, from every finding — the git history's, which api
// adds after the store's, included — and sent with the report in the caller's language, so the
// CLI and the app say the same (the app had its own rules, and said "All good" where the CLI
// did not). Here the store finds nothing and the history finds files it never committed.
func TestDoctorHeadlineCountsTheHistorysFindings(t *testing.T) {
	// Not attached to the store: the writes below are not committed, as when an editor wrote
	// them while nothing ran.
	var repo *history.Repo
	a := newAPIWith(t, memory.ActorUser, func(st *memory.Store, d *Deps) {
		repo = history.New(st.Root(), nil)
		d.History = repo
	})
	st := a.deps.Store
	mustCall(t, a, "memory.write", `{"scope":"global","type":"user","slug":"likes-tea","title":"Likes tea","body":"Drinks green tea."}`)
	mustCall(t, a, "daily.append", `{"text":"went for a walk"}`)
	rep := mustCall(t, a, "index.doctor", `{}`).(memory.DoctorReport)
	if h := rep.Headline; h.Code != memory.HeadlineAllGood || h.Message != "All good: 1 memory and 1 journal day, index intact." {
		t.Fatalf("without a history: %+v", h)
	}
	if err := st.Locked(func() error { _, err := repo.Enable(); return err }); err != nil {
		t.Fatal(err)
	}
	mustCall(t, a, "memory.write", `{"scope":"global","type":"user","slug":"likes-rain","title":"Likes rain","body":"Rainy days."}`)
	rep = mustCall(t, a, "index.doctor", `{}`).(memory.DoctorReport)
	if len(rep.Findings) != 1 || rep.Findings[0].Code != "git_uncommitted" || !rep.OK {
		t.Fatalf("findings %+v ok %v", rep.Findings, rep.OK)
	}
	if h := rep.Headline; h.Code != memory.HeadlineAttention || h.Args["Count"] != 1 ||
		h.Message != "2 memories and 1 journal day, index intact; 1 finding needs attention (below)." {
		t.Fatalf("with the history's finding: %+v", h)
	}
	mustCall(t, a, "settings.update", `{"language":"zh-CN"}`)
	rep = mustCall(t, a, "index.doctor", `{}`).(memory.DoctorReport)
	if h := rep.Headline; h.Code != memory.HeadlineAttention || !strings.Contains(h.Message, "需要处理") {
		t.Fatalf("in Chinese: %+v", h)
	}
}
