package extraction

import (
	"fmt"
	"strings"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
	"engram/backend/memory"
)

// TestEachProjectSummarisesItsOwnMessages: a session moved between projects (a Claude Code
// session that went on in another folder) kept one summary, its first project's, and the
// other project's messages left with the fold unsummarised — what was said in project B was
// gone from B's history. Now each project's folded messages make that project's summary, from
// a model call that reads that project's messages only: the prompt for B holds none of A's
// words and the prompt for A none of B's (loopback OpenAI-compatible server), B's summary is
// found by B's history search and never by A's, and `sessions show` lists it.
func TestEachProjectSummarisesItsOwnMessages(t *testing.T) {
	f := newFx(t, Offline{})
	srv := llmtest.NewOpenAI(t)
	srv.Push(llmtest.Text("- A: ships helm releases."), llmtest.Text("- B: formats code with black."))
	client, err := llm.New(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.URL(), Model: "m"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := SessionSummariser(func() (llm.Client, error) { return client, nil })
	pa, pb := t.TempDir(), t.TempDir()
	rec := func(wd string, turns ...memory.TurnInput) {
		t.Helper()
		if _, err := f.store.RecordSession(f.ctx, memory.SessionRecord{Agent: "claude-code", Session: "moving", Workdir: wd,
			Turns: turns, Defer: true}, sum); err != nil {
			t.Fatal(err)
		}
	}
	var a, b []memory.TurnInput
	for i := 0; i < 10; i++ {
		a = append(a, memory.TurnInput{Role: "user", Content: fmt.Sprintf("alpha deploys with zircon charts %d", i)})
	}
	for i := 0; i < memory.SessionCompactAt; i++ {
		b = append(b, memory.TurnInput{Role: "user", Content: fmt.Sprintf("beta lints with ruff %d", i)})
	}
	rec(pa, a...)
	rec(pb, b...)
	if ok, err := f.store.CompactSession(f.ctx, "claude-code", "moving", sum); err != nil || !ok {
		t.Fatalf("compact: %v %v", ok, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d summary calls, want one per project", len(reqs))
	}
	for _, r := range reqs {
		body := string(r.Raw)
		hasA, hasB := strings.Contains(body, "zircon"), strings.Contains(body, "ruff")
		if hasA == hasB {
			t.Fatalf("a summary prompt holds both projects' words or neither (A %v, B %v): %s", hasA, hasB, body)
		}
	}
	sess, err := f.store.FindSession(f.ctx, "claude-code", "moving")
	if err != nil {
		t.Fatal(err)
	}
	if sess.Summary != "- A: ships helm releases." || len(sess.ProjectSummaries) != 1 ||
		sess.ProjectSummaries[0].Summary != "- B: formats code with black." || sess.ProjectSummaries[0].Workdir == "" {
		t.Fatalf("summaries: first %q, others %+v", sess.Summary, sess.ProjectSummaries)
	}
	keyA, keyB := sess.ProjectKey, sess.ProjectSummaries[0].ProjectKey
	find := func(key, term string) []memory.HistoryHit {
		hits, err := f.store.SearchHistory(f.ctx, memory.HistoryQuery{Agent: "claude-code", ProjectKey: key, Terms: []string{term}})
		if err != nil {
			t.Fatal(err)
		}
		var summaries []memory.HistoryHit
		for _, h := range hits {
			if h.Role == "summary" {
				summaries = append(summaries, h)
			}
		}
		return summaries
	}
	if h := find(keyB, "black"); len(h) != 1 || h[0].ProjectKey != keyB {
		t.Fatalf("B's history search for its summary: %+v", h)
	}
	if h := find(keyA, "black"); len(h) != 0 {
		t.Fatalf("A's history search found B's summary: %+v", h)
	}
	if h := find(keyB, "helm"); len(h) != 0 {
		t.Fatalf("B's history search found A's summary: %+v", h)
	}
	if ok, err := f.store.DeleteSession(f.ctx, "claude-code", "moving"); err != nil || !ok {
		t.Fatal(err)
	}
	if h := find(keyB, "black"); len(h) != 0 {
		t.Fatalf("a deleted session's project summary is still found: %+v", h)
	}
}
