package extraction

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

func planIn(t testing.TB, in Input) Outcome {
	t.Helper()
	out, err := NewOffline().Plan(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkPlanInvariants(t, in, out)
	return out
}

func userInput(msg, workdir string) Input {
	return Input{Request: Request{SessionID: "s", Agent: "a", Workdir: workdir, Messages: []Message{{Role: "user", Content: msg}}}}
}

// TestOfflineEvidenceIsThePerson: the assistant's words and older user turns an earlier run
// planned are never read; a turn without a user message, or a blank one, is a noop.
func TestOfflineEvidenceIsThePerson(t *testing.T) {
	cases := []struct {
		name string
		in   Input
	}{
		{"only assistant", Input{Request: Request{Messages: []Message{{Role: "assistant", Content: "I'm Bob and I live in Oslo. Remember that I love Rust."}}}}},
		{"blank newest", Input{Request: Request{Messages: []Message{{Role: "user", Content: "I'm Bob, I live in Oslo."}, {Role: "user", Content: "  "}}}}},
		{"older turn planned", Input{Turns: []Message{{Role: "user", Content: "I live in Oslo."}, {Role: "user", Content: "thanks"}},
			Planned: []string{ContentHash("I live in Oslo.")}}},
		{"empty", Input{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := planIn(t, c.in)
			if len(out.Plan.Items) != 0 || out.Plan.Status != PlanNoop {
				t.Fatalf("got %+v", out.Plan)
			}
		})
	}
}

// TestOfflineReadsUnplannedEarlierTurns: an earlier turn of the window that no run planned
// (skipped by the interval gate, or delivered with others by a hook) is read too, each item
// quoting its own message; a planned one is not read again.
func TestOfflineReadsUnplannedEarlierTurns(t *testing.T) {
	turns := []Message{{Role: "user", Content: "I live in Oslo."}, {Role: "assistant", Content: "Noted."},
		{Role: "user", Content: "Remember that I prefer tabs over spaces."}}
	out := planIn(t, Input{Turns: turns, Request: Request{SessionID: "s", Agent: "a", Messages: turns}})
	quotes := map[string]bool{}
	for _, it := range out.Plan.Items {
		quotes[it.SourceQuote] = true
	}
	if len(out.Plan.Items) < 2 || !quotes["I live in Oslo."] {
		t.Fatalf("the unplanned earlier turn was not read: %+v", out.Plan.Items)
	}
	out = planIn(t, Input{Turns: turns, Planned: []string{ContentHash("I live in Oslo.")},
		Request: Request{SessionID: "s", Agent: "a", Messages: turns}})
	for _, it := range out.Plan.Items {
		if it.SourceQuote == "I live in Oslo." {
			t.Fatalf("a planned turn was read again: %+v", it)
		}
	}
}

// TestOfflineSlugs: the same fact always lands on the same slug (so a repeat updates instead of
// duplicating), different facts on different ones, Chinese facts on the store's slug of their
// words (TestOfflineChineseSlugs).
func TestOfflineSlugs(t *testing.T) {
	slug := func(msg string) string {
		out := planIn(t, userInput(msg, ""))
		if len(out.Plan.Items) != 1 {
			t.Fatalf("%q: %d items", msg, len(out.Plan.Items))
		}
		return out.Plan.Items[0].Slug
	}
	if a, b := slug("I'm Ana."), slug("My name is Ana Lopez."); a != "user-name" || b != a {
		t.Fatalf("name slugs %q %q", a, b)
	}
	if a, b := slug("我讨厌早起。"), slug("我讨厌早起！"); a != b || !memory.ValidSlug(a) {
		t.Fatalf("same Chinese fact, slugs %q %q", a, b)
	}
	if a, b := slug("我讨厌早起。"), slug("我讨厌开会。"); a == b {
		t.Fatalf("different facts share slug %q", a)
	}
	if a := slug("Never force-push to main."); a != "feedback-rule-never-force-push-main" {
		t.Fatalf("readable slug: %q", a)
	}
}

// TestOfflineCandidatesAndRejections: a slug that exists becomes an update (replace), a slug
// already written this turn is left out, and a slug the person rejected recently is proposed
// for the validator to refuse by name (TestRejectedProposalIsSaidAsSuch).
func TestOfflineCandidatesAndRejections(t *testing.T) {
	in := userInput("I'm Ana. Never force-push to main.", "")
	in.Candidates = []Candidate{{Slug: "user-name", Scope: "global", Type: "user", Title: "Name: Ann"}}
	out := planIn(t, in)
	if len(out.Plan.Items) != 2 || out.Plan.Items[0].Action != ActionUpdate || out.Plan.Items[0].Mode != "replace" || out.Plan.Items[1].Action != ActionWrite {
		t.Fatalf("got %+v", out.Plan.Items)
	}
	in.Rejected = []string{"user-name"}
	in.WrittenThisTurn = []string{"feedback-rule-never-force-push-main"}
	if out := planIn(t, in); len(out.Plan.Items) != 1 || out.Plan.Items[0].Slug != "user-name" {
		t.Fatalf("want only the rejected slug, for the validator to refuse: %+v", out.Plan.Items)
	}
}

// TestOfflineProjectScope: project scope only when the person pins it and the turn has a
// workdir (or the controller says the person pinned it); a pinned note without a project is
// not written (TestOfflineProjectNoteWithoutProject), unpinned facts are global.
func TestOfflineProjectScope(t *testing.T) {
	cases := []struct {
		msg, workdir string
		pinned       bool
		scope, typ   string
	}{
		{"Remember for this project: staging is at staging.acme.dev.", "/w/p", false, "project", "project"},
		{"Remember for this project: staging is at staging.acme.dev.", "", true, "project", "project"},
		{"Remember that staging is at staging.acme.dev.", "/w/p", false, "global", "reference"},
		{"Never use ORMs in this repo.", "/w/p", false, "project", "feedback"},
		{"这个项目记住：接口统一返回 JSON。", "/w/p", false, "project", "project"},
		{"以后不要用 Moment.js。", "/w/p", false, "global", "feedback"},
	}
	for _, c := range cases {
		in := userInput(c.msg, c.workdir)
		in.ProjectPinned = c.pinned
		out := planIn(t, in)
		if len(out.Plan.Items) != 1 || out.Plan.Items[0].Scope != c.scope || out.Plan.Items[0].Type != c.typ {
			t.Errorf("%q (workdir %q, pinned %v): want %s/%s, got %+v", c.msg, c.workdir, c.pinned, c.typ, c.scope, out.Plan.Items)
		}
	}
}

// TestOfflineExperienceParts: an experience body carries the pain, the solution and the
// outcome the person stated, each as said; one without a fix is not an experience.
func TestOfflineExperienceParts(t *testing.T) {
	out := planIn(t, userInput("Our deploys kept timing out for weeks. What fixed it was raising the health-check grace period, and now deploys finish in two minutes.", ""))
	if len(out.Plan.Items) != 1 || out.Plan.Items[0].Type != "experience" {
		t.Fatalf("got %+v", out.Plan.Items)
	}
	body := out.Plan.Items[0].Body
	for _, want := range []string{"Pain: Our deploys kept timing out for weeks", "Solution: What fixed it was raising the health-check grace period", "Outcome: now deploys finish in two minutes"} {
		if !strings.Contains(body, want) {
			t.Errorf("body %q lacks %q", body, want)
		}
	}
	zh := planIn(t, userInput("之前打包特别慢，后来换成 esbuild，现在十秒就好了。", ""))
	if len(zh.Plan.Items) != 1 || !strings.Contains(zh.Plan.Items[0].Body, "痛点：之前打包特别慢\n解决：后来换成 esbuild\n结果：现在十秒就好了") {
		t.Fatalf("got %+v", zh.Plan.Items)
	}
	for _, msg := range []string{"Our deploys kept timing out for weeks.", "My friend's builds kept failing; what fixed it was a new laptop, and now he is happy.", "之前打包特别慢。"} {
		for _, it := range planIn(t, userInput(msg, "")).Plan.Items {
			if it.Type == "experience" {
				t.Errorf("%q: experience %+v", msg, it)
			}
		}
	}
}

// TestOfflineProfile: the profile signals a turn shows, each quoted from the person.
func TestOfflineProfile(t *testing.T) {
	cases := []struct {
		msg, kind, value string
	}{
		{"I'm Marco, backend lead at a fintech in Milan.", SignalRole, "backend lead at a fintech in Milan"},
		{"I'm Marco, backend lead at a fintech in Milan.", SignalIndustry, "fintech"},
		{"I work as a nurse at a hospital.", SignalIndustry, "healthcare"},
		{"Please keep answers short.", SignalCommStyle, "short answers"},
		{"以后回答都用中文。", SignalCommStyle, "回答用中文"},
		{"说话简洁一点。", SignalCommStyle, "简洁"},
		{"I mostly use Neovim.", SignalPreferredTool, "Neovim"},
		{"我习惯用 GoLand。", SignalPreferredTool, "GoLand"},
		{"How do I configure Kafka retention?", SignalRecentTopic, "Kafka"},
		{"We kept hitting OOM kills. Streaming the body fixed it, and memory is stable now.", SignalPainPoint, "We kept hitting OOM kills"},
		{"我是一名产品经理，在一家做跨境电商的公司。", SignalRole, "产品经理"},
		{"我是一名产品经理，在一家做跨境电商的公司。", SignalIndustry, "跨境电商"},
	}
	for _, c := range cases {
		out := planIn(t, userInput(c.msg, ""))
		found := false
		for _, s := range out.Plan.Profile {
			found = found || (s.Kind == c.kind && s.Value == c.value)
		}
		if !found {
			t.Errorf("%q: no %s=%q in %+v", c.msg, c.kind, c.value, out.Plan.Profile)
		}
	}
	// Another person's role is not the person's.
	for _, s := range planIn(t, userInput("My wife is a surgeon at a hospital.", "")).Plan.Profile {
		if s.Kind == SignalRole || s.Kind == SignalIndustry {
			t.Errorf("third person's signal %+v", s)
		}
	}
}

// TestOfflineBounds: giant or many-fact messages stay bounded (≤ 8 items, quotes ≤ 80 bytes,
// verbatim) and a cancelled context stops the run.
func TestOfflineBounds(t *testing.T) {
	var b strings.Builder
	for _, f := range []string{"I'm Ana.", "I live in Oslo.", "I'm vegan.", "I hate YAML.", "I prefer Go.", "Never use ORMs.", "Always write tests first.", "I'm allergic to cats.", "I love jazz.", "I use Emacs.", "Remember that the VPN is vpn.acme.dev.", "我讨厌早起。"} {
		b.WriteString(f + " ")
	}
	out := planIn(t, userInput(b.String(), ""))
	if len(out.Plan.Items) != 8 {
		t.Fatalf("want the cap of 8 items, got %d", len(out.Plan.Items))
	}
	huge := strings.Repeat("I really prefer a very long sentence that never ends and goes on ", 20000)
	planIn(t, userInput(huge, ""))
	planIn(t, userInput(strings.Repeat("我", 100000), ""))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewOffline().Plan(ctx, userInput("I'm Ana.", "")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
}

// TestOfflineQuotedText: words inside quotes or code are someone else's, not the person's.
func TestOfflineQuotedText(t *testing.T) {
	for _, msg := range []string{
		"The README says \"I'm Bob and I love Perl\".",
		"My test fixture has `I'm Alice, I live in Paris` in it.",
		"文档里写着“我叫张三，我住在北京”。",
	} {
		if out := planIn(t, userInput(msg, "")); len(out.Plan.Items) != 0 {
			t.Errorf("%q: %+v", msg, out.Plan.Items)
		}
	}
}

// BenchmarkOffline plans every turn of the evaluation set once per iteration.
func BenchmarkOffline(b *testing.B) {
	_, turns := loadEval(b)
	p := NewOffline()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, tu := range turns {
			if _, err := p.Plan(context.Background(), tu.in); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(turns)), "ns/turn")
}

// TestOfflineRelations: identity and tool facts carry knowledge-graph edges from the person
// (DESIGN §8), and the reasoning is a catalog key naming the rule, which the service writes in
// the person's language (TestOfflineReasoningInThePersonsLanguage), never a text.
func TestOfflineRelations(t *testing.T) {
	cases := []struct {
		msg, relation, object, rule string
	}{
		{"I live in Oslo.", "lives_in", "Oslo", "en.identity"},
		{"I work at Spotify.", "works_at", "Spotify", "en.identity"},
		{"I mostly use Neovim.", "uses", "Neovim", ""},
		{"我住在成都，离公司很近。", "lives_in", "成都", "zh.identity"},
		{"我是上海人。", "from", "上海", "zh.identity"},
		{"我平时用 Obsidian 记笔记。", "uses", "Obsidian", ""},
	}
	for _, c := range cases {
		out := planIn(t, userInput(c.msg, ""))
		if len(out.Plan.Items) != 1 {
			t.Fatalf("%q: %+v", c.msg, out.Plan.Items)
		}
		it := out.Plan.Items[0]
		found := false
		for _, r := range it.Relations {
			found = found || (r.Relation == c.relation && r.Object == c.object && r.Subject == "")
		}
		rule, _ := it.ReasonArgs["Rule"].(string)
		if !found || it.Reasoning != "" || it.ReasonKey != reasonOfflineRule || rule == "" || c.rule != "" && rule != c.rule {
			t.Errorf("%q: relations %+v, reasoning %q key %q args %v", c.msg, it.Relations, it.Reasoning, it.ReasonKey, it.ReasonArgs)
		}
	}
}

// TestOfflineAnsweredName: a short reply to the assistant asking the person's name is their
// name; the same reply to anything else is nothing.
func TestOfflineAnsweredName(t *testing.T) {
	cases := []struct {
		asked, reply, want string
	}{
		{"Happy to help! What should I call you?", "Priya", "Priya"},
		{"What's your name, by the way?", "It's Tom Becker.", "Tom Becker"},
		{"请问怎么称呼您？", "叫我小雨就行", "小雨"},
		{"What should I call you?", "ok", ""},
		{"What should I call you?", "Why do you ask?", ""},
		{"Which framework do you use?", "React", ""},
		{"你想用什么框架？", "张三", ""},
	}
	for _, c := range cases {
		in := Input{Request: Request{Messages: []Message{{Role: "user", Content: "hi"}, {Role: "assistant", Content: c.asked}, {Role: "user", Content: c.reply}}}}
		out := planIn(t, in)
		got := ""
		for _, it := range out.Plan.Items {
			if it.Slug == "user-name" {
				got = it.Description
			}
		}
		if (c.want == "") != (got == "") || (c.want != "" && !strings.Contains(got, c.want)) {
			t.Errorf("%q → %q: got %q, want %q", c.asked, c.reply, got, c.want)
		}
	}
}

// TestThrottledTurnIsReadByTheNextRun: turns that arrive within the interval of the session's
// last run (as a hook sends each turn once) wait instead of being dropped; a newer one carries
// the older one's messages, and when the interval has passed one run reads both, while the
// turn the first run planned is not read twice.
func TestThrottledTurnIsReadByTheNextRun(t *testing.T) {
	f := newFx(t, NewOffline())
	first := f.run(turn("s-gap", "I live in Oslo."))
	if first.Status != StatusDone {
		t.Fatalf("first run %s %s", first.Status, first.Reason)
	}
	f.clock.Advance(5 * time.Second)
	second, err := f.svc.Request(f.ctx, Request{SessionID: "s-gap", Agent: "claude-code",
		Messages: []Message{{Role: "user", Content: "Remember that I prefer tabs over spaces."}}}, false)
	if err != nil || second.Status != StatusQueued {
		t.Fatalf("second: %v %s %s, want queued", err, second.Status, second.Reason)
	}
	f.clock.Advance(5 * time.Second)
	third, err := f.svc.Request(f.ctx, Request{SessionID: "s-gap", Agent: "claude-code",
		Messages: []Message{{Role: "user", Content: "I use Neovim for Go."}}}, false)
	if err != nil || third.Status != StatusQueued {
		t.Fatalf("third: %v %s %s, want queued", err, third.Status, third.Reason)
	}
	if d := f.waitFor(second.ID, ended); d.Reason != SkipSuperseded {
		t.Fatalf("second: %s %s, want superseded by the third", d.Status, d.Reason)
	}
	f.clock.Advance(time.Minute)
	f.fire()
	done := f.waitFor(third.ID, ended)
	if done.Status != StatusDone && done.Status != StatusPartial {
		t.Fatalf("third run %s %s: %+v", done.Status, done.Reason, done.Report)
	}
	quotes := map[string]bool{}
	for _, a := range done.Report.Applied {
		m, err := f.store.Get(f.ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		quotes[m.SourceQuote] = true
	}
	if !quotes["Remember that I prefer tabs over spaces."] || !quotes["I use Neovim for Go."] {
		t.Fatalf("a waiting turn was not read: %v", quotes)
	}
	if quotes["I live in Oslo."] {
		t.Fatalf("the turn the first run planned was read again: %v", quotes)
	}
}
