package extraction

import (
	"slices"
	"strings"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
	"engram/backend/memory"
	"engram/backend/settings"
)

// seedAccepted writes slug as the person would (engram write, unreviewed) and accepts it, as
// `engram accept` does.
func (f *fx) seedAccepted(slug, title, body string) *memory.Memory {
	f.t.Helper()
	no := false
	if _, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpWrite, Slug: slug,
		Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: &title, Body: &body, Reviewed: &no,
		Source: &memory.Source{Kind: "user"}}}}); err != nil {
		f.t.Fatal(err)
	}
	res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpAccept, Slug: slug,
		Scope: memory.ScopeGlobal}}})
	if err != nil || !res.Results[0].OK {
		f.t.Fatalf("accept: %+v %v", res, err)
	}
	m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", slug)
	if err != nil || !m.Reviewed {
		f.t.Fatalf("seeded %+v %v", m, err)
	}
	return m
}

// modelPlanner is the configured model over a loopback provider that answers replies in turn.
func modelPlanner(t *testing.T, replies ...llmtest.Reply) Planner {
	srv := llmtest.NewOpenAI(t)
	srv.Push(replies...)
	return modelOn(t, srv)
}

// modelOn is the configured model over the loopback provider srv.
func modelOn(t *testing.T, srv *llmtest.Server) Planner {
	client, err := llm.New(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.URL(), Model: "scripted-model"}, "sk-test", nil)
	if err != nil {
		t.Fatal(err)
	}
	return ModelOrOffline{Model: func() (llm.Client, error) { return client, nil }, Offline: NewOffline()}
}

// An extraction runs unasked, so it never rewrites a memory the person reviewed. The trigger: a
// model's replace (and the offline extractor's correction "Actually I moved to Berlin") rewrote
// an accepted memory, unreviewed, still saying the person wrote it, and with git history off
// the accepted words existed nowhere. Now a change of its words is written as a proposal beside
// it — unreviewed, conflicts_with and supersedes it, the extractor its source, the reason in
// the person's language — a later change before the person decided updates that proposal, an
// accepted proposal is left for the next one, and an update that changes no words leaves the
// memory alone. The accepted memory keeps its words, its review and its source throughout.
func TestReviewedMemoryIsNeverRewritten(t *testing.T) {
	replace := `{"status":"updated","items":[{"action":"update","slug":"user-location","scope":"global","mode":"replace",
 "description":"Lives in Berlin","body":"Lives in Berlin.","confidence":"medium"}]}`
	merge := `{"status":"updated","items":[{"action":"update","slug":"user-location","mode":"merge","body":"Works from Lisbon in winter.",
 "source_quote":"in winter I work from Lisbon","reasoning":"A standing habit."}]}`
	same := `{"status":"updated","items":[{"action":"update","slug":"user-location","scope":"global","mode":"replace",
 "description":"Based in Paris","body":"Based in Paris.","source_quote":"I live in Paris","aliases":["home"]}]}`
	cases := []struct {
		name     string
		lang     string
		planner  func(t *testing.T) Planner
		said     []string // one run each
		before   func(f *fx, run int)
		proposal string // the slug holding the change; "" when none may exist
		body     []string
		reason   string
		warning  string
	}{
		{name: "a model's replace", planner: func(t *testing.T) Planner { return modelPlanner(t, llmtest.Call("SubmitMemoryPlan", replace)) },
			said: []string{"I'm in Berlin for a conference this week."}, proposal: "user-location-proposed", body: []string{"Lives in Berlin."},
			reason: "You reviewed “user-location”", warning: WarnReviewedProposal},
		{name: "a model's merge, reason in Chinese", lang: "zh-CN",
			planner: func(t *testing.T) Planner { return modelPlanner(t, llmtest.Call("SubmitMemoryPlan", merge)) },
			said:    []string{"Also, in winter I work from Lisbon."}, proposal: "user-location-proposed",
			body: []string{"Based in Paris.", "Works from Lisbon in winter."}, reason: "你审核过“user-location”", warning: WarnReviewedProposal},
		{name: "the same words", planner: func(t *testing.T) Planner { return modelPlanner(t, llmtest.Call("SubmitMemoryPlan", same)) },
			said: []string{"As I said, I live in Paris."}, warning: WarnReviewedKept},
		{name: "offline correction", planner: func(*testing.T) Planner { return NewOffline() },
			said: []string{"Actually I moved to Berlin last month."}, proposal: "user-location-proposed", body: []string{"Berlin"},
			reason: "You reviewed “user-location”", warning: WarnReviewedProposal},
		{name: "a second change updates the open proposal", planner: func(*testing.T) Planner { return NewOffline() },
			said:     []string{"Actually I moved to Berlin last month.", "Actually I moved to Munich last week."},
			proposal: "user-location-proposed", body: []string{"Munich"}, reason: "You reviewed", warning: WarnReviewedProposal},
		{name: "an accepted proposal is left for the next", planner: func(*testing.T) Planner { return NewOffline() },
			said: []string{"Actually I moved to Berlin last month.", "Actually I moved to Munich last week."},
			before: func(f *fx, run int) {
				if run == 1 {
					f.accept("user-location-proposed")
				}
			}, proposal: "user-location-proposed-2", body: []string{"Munich"}, reason: "You reviewed", warning: WarnReviewedProposal},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFx(t, c.planner(t))
			if c.lang != "" {
				if _, err := settings.New(f.store, "en").Update(f.ctx, settings.Patch{Language: &c.lang}); err != nil {
					t.Fatal(err)
				}
			}
			accepted := f.seedAccepted("user-location", "Based in Paris", "Based in Paris.")
			var d RunDetail
			for i, said := range c.said {
				if c.before != nil {
					c.before(f, i)
				}
				f.clock.Advance(60e9)
				d = f.run(turn("s1", said))
			}
			if d.Status != StatusDone || len(d.Report.Applied) == 0 {
				t.Fatalf("run %+v %+v", d.RunSummary, d.Report)
			}
			a := d.Report.Applied[0]
			if w := a.Warnings; len(w) == 0 || w[len(w)-1].Code != c.warning || w[len(w)-1].Args["Slug"] != "user-location" {
				t.Fatalf("applied %+v, want the warning %s naming user-location", a, c.warning)
			}
			m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-location")
			if err != nil || !m.Reviewed || m.Title != accepted.Title || m.Body != accepted.Body || m.Source.Kind != "user" || m.Version != accepted.Version {
				t.Fatalf("the accepted memory changed: %+v %v", m, err)
			}
			if c.proposal == "" {
				if _, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-location-proposed"); err == nil {
					t.Fatal("a proposal was written though no word changed")
				}
				return
			}
			p, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", c.proposal)
			if err != nil || a.Slug != c.proposal {
				t.Fatalf("proposal %s: %v (applied %s)", c.proposal, err, a.Slug)
			}
			if p.Reviewed || !slices.Contains(p.ConflictsWith, "user-location") || !slices.Contains(p.Supersedes, "user-location") ||
				p.Source.Kind != "extraction" || p.Source.Session != "s1" || p.Type != memory.TypeUser {
				t.Fatalf("proposal %+v, want unreviewed, marked against user-location, from the extractor", p)
			}
			for _, w := range c.body {
				if !strings.Contains(p.Title+"\n"+p.Body, w) {
					t.Errorf("proposal lacks %q:\n%s\n%s", w, p.Title, p.Body)
				}
			}
			if !strings.Contains(p.Reasoning, c.reason) {
				t.Errorf("reasoning %q, want %q", p.Reasoning, c.reason)
			}
		})
	}
}

// accept accepts the global memory of slug as the person.
func (f *fx) accept(slug string) {
	f.t.Helper()
	res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpAccept, Slug: slug,
		Scope: memory.ScopeGlobal}}})
	if err != nil || !res.Results[0].OK {
		f.t.Fatalf("accept %s: %+v %v", slug, res, err)
	}
}

// A memory the extractor replaces (unreviewed: nobody vouched for its words) records the
// extractor as its source; one written by the person kept saying "user".
func TestReplacedMemoryNamesTheExtractor(t *testing.T) {
	f := newFx(t, fixedPlan(PlanItem{Action: ActionUpdate, Slug: "editor", Scope: "global", Mode: "replace",
		Description: "Uses Zed", Body: "Edits in Zed."}))
	title, body, no := "Uses Helix", "Edits in Helix.", false
	if _, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpWrite, Slug: "editor",
		Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: &title, Body: &body, Reviewed: &no, Source: &memory.Source{Kind: "user"}}}}); err != nil {
		t.Fatal(err)
	}
	if d := f.run(turn("s1", "I switched to Zed for all my editing.")); d.Status != StatusDone {
		t.Fatalf("run %+v", d.Report)
	}
	m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "editor")
	if err != nil || m.Body != "Edits in Zed." || m.Source.Kind != "extraction" || m.Source.Session != "s1" {
		t.Fatalf("replaced memory %+v %v", m, err)
	}
}
