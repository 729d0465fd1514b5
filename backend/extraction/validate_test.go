package extraction

import (
	"context"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

// TestValidationCodes: each rule refuses its item with its code while a valid item of the same
// plan still applies, unreviewed, as the extractor.
func TestValidationCodes(t *testing.T) {
	ok := write("likes-green-tea", "Likes green tea", "Drinks green tea every morning.")
	big := strings.Repeat("x", memory.MaxBodyBytes+1)
	projectDir := t.TempDir()
	cases := []struct {
		name  string
		item  PlanItem
		req   func(Request) Request
		opts  []fxOpt
		setup func(f *fx)
		code  string
	}{
		{name: "unknown action", item: PlanItem{Action: "frobnicate", Slug: "abc-def", Scope: "global"}, code: CodeInvalidAction},
		{name: "accept is the person's", item: PlanItem{Action: "accept", Slug: "abc-def", Scope: "global"}, code: CodePersonOnlyAction},
		{name: "review is the person's", item: PlanItem{Action: "review", Slug: "abc-def", Scope: "global"}, code: CodePersonOnlyAction},
		{name: "no slug", item: PlanItem{Action: ActionWrite, Scope: "global", Type: "user", Description: "d", Body: "b"}, code: CodeMissingSlug},
		{name: "unknown scope", item: PlanItem{Action: ActionWrite, Slug: "abc-def", Scope: "galaxy", Type: "user", Description: "d", Body: "b"}, code: CodeInvalidScope},
		{name: "project without a project", item: PlanItem{Action: ActionWrite, Slug: "abc-def", Scope: "project", Type: "project", Description: "d", Body: "b"}, code: CodeInvalidScope},
		{name: "agent scope without an agent", item: PlanItem{Action: ActionWrite, Slug: "abc-def", Scope: "agent", Type: "user", Description: "d", Body: "b"},
			req: func(r Request) Request { r.Agent = ""; return r }, code: CodeInvalidScope},
		{name: "delete without scope", item: PlanItem{Action: ActionDelete, Slug: "abc-def"}, code: CodeInvalidScope},
		{name: "project write without evidence", item: PlanItem{Action: ActionWrite, Slug: "uses-postgres", Scope: "project", Type: "project", Description: "Postgres", Body: "The service uses Postgres."},
			req: func(r Request) Request { r.Workdir = projectDir; return r }, code: CodeProjectNoEvidence},
		{name: "project write with a shell command only", item: PlanItem{Action: ActionWrite, Slug: "uses-postgres", Scope: "project", Type: "project", Description: "Postgres", Body: "The service uses Postgres."},
			req: func(r Request) Request {
				r.Workdir = projectDir
				r.WorkspaceMutations = []Mutation{{Tool: "Bash", Kind: "command"}}
				return r
			}, code: CodeProjectNoEvidence},
		{name: "project write with a file outside the project", item: PlanItem{Action: ActionWrite, Slug: "uses-postgres", Scope: "project", Type: "project", Description: "Postgres", Body: "The service uses Postgres."},
			req: func(r Request) Request {
				r.Workdir = projectDir
				r.WorkspaceMutations = []Mutation{{Tool: "Write", Kind: "write", Path: "/etc/elsewhere.conf"}}
				return r
			}, code: CodeProjectNoEvidence},
		{name: "same slug twice", item: write("likes-green-tea", "Again", "Same slug."), code: CodeDuplicateSlugInPlan},
		{name: "body too large", item: write("huge-note", "Huge", big), code: CodeBodyTooLarge},
		{name: "empty daily", item: PlanItem{Action: ActionAppendDaily, Body: "  "}, code: CodeEmptyDailyBody},
		{name: "write without description", item: PlanItem{Action: ActionWrite, Slug: "abc-def", Scope: "global", Type: "user", Body: "b"}, code: CodeMissingDescription},
		{name: "write without body", item: PlanItem{Action: ActionWrite, Slug: "abc-def", Scope: "global", Type: "user", Description: "d"}, code: CodeMissingBodyForWrite},
		{name: "quota exhausted", item: PlanItem{Action: ActionWrite, Slug: "second-one", Scope: "agent", Type: "user", Description: "d", Body: "b"},
			opts: []fxOpt{withQuota(8)}, setup: func(f *fx) {
				for _, slug := range []string{"agent-one", "agent-two", "agent-three"} {
					title, body := "t", "b"
					if _, err := f.store.ApplyBatch(f.ctx, memory.Batch{Items: []memory.Item{{Op: memory.OpWrite, Slug: slug,
						Scope: memory.ScopeAgent, Agent: "claude-code", Type: memory.TypeUser, Title: &title, Body: &body}}}); err != nil {
						f.t.Fatal(err)
					}
				}
			}, code: CodeQuotaExhausted},
		{name: "store refuses an invalid slug", item: write("Not A Slug", "d", "b"), code: memory.CodeInvalidSlug},
		{name: "a reviewed memory is the person's to delete", item: PlanItem{Action: ActionDelete, Slug: "accepted-fact", Scope: "global"},
			setup: func(f *fx) {
				title, body, yes := "Accepted", "The person accepted this.", true
				if _, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpWrite, Slug: "accepted-fact",
					Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: &title, Body: &body, Reviewed: &yes}}}); err != nil {
					f.t.Fatal(err)
				}
			}, code: CodeReviewedDelete},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFx(t, fixedPlan(ok, c.item), c.opts...)
			if c.setup != nil {
				c.setup(f)
			}
			req := turn("s1", "I always drink green tea in the morning, please remember that.")
			if c.req != nil {
				req = c.req(req)
			}
			d := f.run(req)
			if got := codes(d); len(got) != 1 || got[0] != c.code {
				t.Fatalf("rejected codes %v, want [%s]; report %+v", got, c.code, d.Report)
			}
			if d.Report.Rejected[0].Index != 1 {
				t.Fatalf("rejected index %d, want 1", d.Report.Rejected[0].Index)
			}
			if d.Status != StatusPartial || d.Applied != 1 || d.Rejected != 1 {
				t.Fatalf("status %s applied %d rejected %d", d.Status, d.Applied, d.Rejected)
			}
			m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "likes-green-tea")
			if err != nil {
				t.Fatal(err)
			}
			if m.Reviewed {
				t.Fatal("an extracted memory landed reviewed")
			}
		})
	}
}

// TestEverythingLandsUnreviewed: writes, the proposal that stands for an update of a reviewed
// memory (which itself stays as accepted) and relations all land unreviewed with the extraction
// source, the run's session, agent, turn and model; the audit names the extractor.
func TestEverythingLandsUnreviewed(t *testing.T) {
	f := newFx(t, nil)
	title, body, yes := "Editor", "Uses Helix.", true
	if _, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpWrite,
		Slug: "editor", Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: &title, Body: &body, Reviewed: &yes}}}); err != nil {
		t.Fatal(err)
	}
	f.svc.SetPlanner(fixedPlan(
		PlanItem{Action: ActionWrite, Slug: "works-at-acme", Scope: "global", Type: "user", Description: "Works at Acme",
			Body: "The person works at Acme.", Confidence: "high", SourceQuote: "I work at Acme",
			Relations: []Relation{{Relation: "works at", Object: "Acme"}, {Subject: "Acme", Relation: "based_in", Object: "Berlin"}, {Relation: "", Object: "x"}}},
		PlanItem{Action: ActionUpdate, Slug: "editor", Body: "Switched to Zed.", SourceQuote: "switched to Zed"},
		PlanItem{Action: ActionWrite, Slug: "agent-note", Scope: "agent", Type: "feedback", Description: "Short answers", Body: "Keep answers short."},
		PlanItem{Action: ActionAppendDaily, Body: "Talked about the new job."},
	))
	d := f.run(turn("s1", "By the way I work at Acme now and I switched to Zed for editing."))
	if d.Status != StatusDone || d.Applied != 4 {
		t.Fatalf("status %s applied %d: %+v", d.Status, d.Applied, d.Report)
	}
	for _, ref := range []struct {
		scope        memory.Scope
		agent, slug  string
		wantQuote    string
		wantInBodies []string
	}{
		{memory.ScopeGlobal, "", "works-at-acme", "I work at Acme", []string{"- works_at [[Acme]]", "- [[Acme]] based_in [[Berlin]]"}},
		{memory.ScopeGlobal, "", "editor-proposed", "switched to Zed", []string{"Uses Helix.", "Switched to Zed."}},
		{memory.ScopeAgent, "claude-code", "agent-note", "", nil},
	} {
		m, err := f.store.GetBySlug(f.ctx, ref.scope, "", ref.agent, ref.slug)
		if err != nil {
			t.Fatalf("%s: %v", ref.slug, err)
		}
		if m.Reviewed {
			t.Errorf("%s is reviewed", ref.slug)
		}
		if m.SourceQuote != ref.wantQuote {
			t.Errorf("%s quote %q", ref.slug, m.SourceQuote)
		}
		for _, w := range ref.wantInBodies {
			if !strings.Contains(m.Body, w) {
				t.Errorf("%s body lacks %q:\n%s", ref.slug, w, m.Body)
			}
		}
		if m.Source.Kind != "extraction" || m.Source.Session != "s1" || m.Source.Agent != "claude-code" ||
			m.Source.Model != "scripted" || m.Source.Turn != 1 {
			t.Errorf("%s source %+v", ref.slug, m.Source)
		}
	}
	if m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "editor"); err != nil || !m.Reviewed || m.Body != body {
		t.Errorf("the reviewed editor memory changed: %+v %v", m, err)
	}
	if w := d.Report.Applied[0].Warnings; len(w) != 1 || w[0].Code != WarnInvalidRelation {
		t.Errorf("warnings of the relation item: %v", w)
	}
	hist, err := f.store.Audit(f.ctx, d.Report.Applied[0].ID, 10)
	if err != nil || len(hist) == 0 || hist[0].Actor != memory.ActorExtractor || hist[0].Session != "s1" || hist[0].Model != "scripted" {
		t.Fatalf("audit %+v %v", hist, err)
	}
}

// TestQuoteNotInTurn: a quote the person never said (or longer than 80 characters) is dropped
// and the confidence steps down by the evidence contract; the item still applies.
func TestQuoteNotInTurn(t *testing.T) {
	long := strings.Repeat("tea ", 25)
	f := newFx(t, fixedPlan(
		PlanItem{Action: ActionWrite, Slug: "invented", Scope: "global", Type: "user", Description: "Invented", Body: "b",
			Confidence: "high", SourceQuote: "I never said this"},
		PlanItem{Action: ActionWrite, Slug: "too-long", Scope: "global", Type: "user", Description: "Long", Body: "b",
			Confidence: "medium", SourceQuote: long},
		PlanItem{Action: ActionWrite, Slug: "verbatim", Scope: "global", Type: "user", Description: "Said", Body: "b",
			Confidence: "high", SourceQuote: "I  drink\ntea"},
	))
	d := f.run(turn("s1", "I drink tea <strong> every day "+long))
	if d.Status != StatusDone {
		t.Fatalf("status %s %+v", d.Status, d.Report)
	}
	want := map[string]memory.Confidence{"invented": memory.ConfidenceLow, "too-long": memory.ConfidenceLow, "verbatim": memory.ConfidenceHigh}
	for _, a := range d.Report.Applied {
		if a.Confidence != want[a.Slug] {
			t.Errorf("%s confidence %s, want %s", a.Slug, a.Confidence, want[a.Slug])
		}
		flagged := len(a.Warnings) > 0 && a.Warnings[0].Code == CodeQuoteNotInTurn
		if flagged != (a.Slug != "verbatim") || a.AutoDowngraded != (a.Slug != "verbatim") {
			t.Errorf("%s warnings %v downgraded %v", a.Slug, a.Warnings, a.AutoDowngraded)
		}
	}
}

// TestTooManyItems: the ninth item is refused; the first eight apply.
func TestTooManyItems(t *testing.T) {
	var items []PlanItem
	for i := 0; i < 9; i++ {
		items = append(items, write("note-"+string(rune('a'+i))+"-x", "Note", "Body"))
	}
	f := newFx(t, fixedPlan(items...))
	d := f.run(turn("s1", "Here are nine things about me worth keeping."))
	if d.Applied != 8 || len(d.Report.Rejected) != 1 || d.Report.Rejected[0].Code != CodeTooManyItems || d.Report.Rejected[0].Index != 8 {
		t.Fatalf("applied %d rejected %+v", d.Applied, d.Report.Rejected)
	}
}

// TestRejectedSlugNeedsOverride: a slug the person rejected is refused without override_reject
// and written with it.
func TestRejectedSlugNeedsOverride(t *testing.T) {
	f := newFx(t, nil)
	title, body := "Likes coffee", "Drinks coffee."
	if _, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpWrite,
		Slug: "likes-coffee", Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: &title, Body: &body}}}); err != nil {
		t.Fatal(err)
	}
	if res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpReject,
		Slug: "likes-coffee", Scope: memory.ScopeGlobal}}}); err != nil || !res.Results[0].OK {
		t.Fatalf("reject: %+v %v", res, err)
	}
	item := write("likes-coffee", "Likes coffee", "Drinks coffee after all.")
	f.svc.SetPlanner(fixedPlan(item))
	d := f.run(turn("s1", "Actually I do like coffee quite a lot."))
	if got := codes(d); len(got) != 1 || got[0] != CodeRejectedNoOverride || d.Status != StatusNoop || d.Reason != NoopRejectedByYou {
		t.Fatalf("without override: %s %s %v", d.Status, d.Reason, got)
	}
	item.OverrideReject = true
	f.svc.SetPlanner(fixedPlan(item))
	f.clock.Advance(time.Minute)
	d = f.run(turn("s1", "Actually I do like coffee quite a lot.", "Yes really, remember that I like coffee."))
	if d.Status != StatusDone {
		t.Fatalf("with override: %s %s %+v", d.Status, d.Reason, d.Report.Rejected)
	}
}

// TestAlreadyWrittenThisTurn: a slug written from one of the window's user turns is not
// written again by a later run covering the same turn.
func TestAlreadyWrittenThisTurn(t *testing.T) {
	f := newFx(t, fixedPlan(write("likes-tea", "Likes tea", "Drinks tea.")))
	first := "I like tea with my breakfast every day."
	if d := f.run(turn("s1", first)); d.Status != StatusDone {
		t.Fatalf("first run %s %+v", d.Status, d.Report)
	}
	f.clock.Advance(time.Minute)
	f.svc.SetPlanner(fixedPlan(PlanItem{Action: ActionUpdate, Slug: "likes-tea", Scope: "global", Body: "Green tea."}))
	d := f.run(turn("s1", first, "Green tea, to be precise about it."))
	if got := codes(d); len(got) != 1 || got[0] != CodeAlreadyWritten {
		t.Fatalf("codes %v", got)
	}
	// Another process on the same home knows it from the run records.
	other := New(f.ctx, Options{Store: f.store, Planner: fixedPlan(write("likes-tea", "x", "y")), Now: f.clock.Now})
	defer other.Close()
	f.clock.Advance(time.Minute)
	d2, err := other.Request(f.ctx, turn("s1", first, "Green tea, to be precise about it.", "And oolong on weekends, always."), true)
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(d2); len(got) != 1 || got[0] != CodeAlreadyWritten {
		t.Fatalf("other process codes %v (%s %s)", got, d2.Status, d2.Reason)
	}
}

// TestProjectEvidence: a project write applies, into the request's project, when the turn
// changed a file of the project or the person asked to remember it for the project.
func TestProjectEvidence(t *testing.T) {
	wd := t.TempDir()
	item := PlanItem{Action: ActionWrite, Slug: "uses-pnpm", Scope: "project", Type: "project", Description: "Uses pnpm", Body: "Install with pnpm."}
	cases := []struct {
		name string
		msg  string
		muts []Mutation
		ok   bool
	}{
		{"file written in the project", "Switch the install script to pnpm please.", []Mutation{{Tool: "Write", Kind: "write", Path: wd + "/package.json"}}, true},
		{"edit with a relative path", "Switch the install script to pnpm please.", []Mutation{{Tool: "Edit", Path: "scripts/install.sh"}}, true},
		{"english pin", "Remember this for this project: we install with pnpm.", nil, true},
		{"chinese pin", "这个项目记住：安装依赖用 pnpm。", nil, true},
		{"pin about another thing", "Remember to buy milk. This project uses pnpm.", nil, false},
		{"no evidence", "We install with pnpm here.", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFx(t, fixedPlan(item))
			req := turn("s1", c.msg)
			req.Workdir, req.WorkspaceMutations = wd, c.muts
			d := f.run(req)
			if c.ok != (d.Status == StatusDone) {
				t.Fatalf("status %s %s %+v", d.Status, d.Reason, d.Report.Rejected)
			}
			if !c.ok {
				if got := codes(d); len(got) != 1 || got[0] != CodeProjectNoEvidence {
					t.Fatalf("codes %v", got)
				}
				return
			}
			m, err := f.store.GetBySlug(f.ctx, memory.ScopeProject, wd, "", "uses-pnpm")
			if err != nil || m.Reviewed || m.Workdir == "" {
				t.Fatalf("%+v %v", m, err)
			}
		})
	}
}

// TestProfileSignals: signals the person showed (quote in the turn, known kind) collect in the
// global person-profile memory, written then updated, unreviewed; the others are left in the
// report only.
func TestProfileSignals(t *testing.T) {
	plan := func(signals ...ProfileSignal) Planner {
		return planFunc(func(context.Context, Input) (Outcome, error) {
			return Outcome{Plan: Plan{Status: PlanUpdated, Profile: signals}, Model: "scripted"}, nil
		})
	}
	f := newFx(t, plan(
		ProfileSignal{Kind: SignalRole, Value: "Backend engineer", Quote: "I'm a backend engineer"},
		ProfileSignal{Kind: SignalPreferredTool, Value: "Neovim", Quote: "never said"},
		ProfileSignal{Kind: "salary", Value: "a lot", Quote: "I'm a backend engineer"},
	))
	d := f.run(turn("s1", "I'm a backend engineer at a fintech, mostly Go."))
	if d.Status != StatusDone || len(d.Report.Applied) != 1 || d.Report.Applied[0].Slug != ProfileSlug || len(d.Report.Profile) != 3 {
		t.Fatalf("%s %s %+v", d.Status, d.Reason, d.Report)
	}
	m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", ProfileSlug)
	if err != nil || m.Reviewed || !strings.Contains(m.Body, "- role: Backend engineer") || strings.Contains(m.Body, "Neovim") || strings.Contains(m.Body, "salary") {
		t.Fatalf("%+v %v", m, err)
	}
	f.clock.Advance(time.Minute)
	f.svc.SetPlanner(plan(ProfileSignal{Kind: SignalIndustry, Value: "Fintech", Quote: "at a fintech"}))
	d = f.run(turn("s2", "I'm a backend engineer at a fintech, mostly Go.", "Yes, payments at a fintech."))
	m, _ = f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", ProfileSlug)
	if d.Status != StatusDone || d.Report.Applied[0].Action != ActionUpdate || !strings.Contains(m.Body, "- role: Backend engineer") || !strings.Contains(m.Body, "- industry: Fintech") {
		t.Fatalf("%s %+v\n%s", d.Status, d.Report, m.Body)
	}
}
