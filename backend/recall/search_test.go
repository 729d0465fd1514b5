package recall

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

func TestSearchRanksTheAnswerFirst(t *testing.T) {
	e := newEnv(t)
	e.write(
		mem{slug: "editor", title: "Editor preference", body: "Uses Neovim with a dark theme for all editing."},
		mem{slug: "tea", title: "Drinks", body: "Likes oolong tea in the afternoon."},
		mem{slug: "painting", title: "Weekend hobby", body: "Has been painting landscapes with watercolors since spring."},
	)
	res := e.search("which editor does the user use")
	if len(res.Hits) == 0 || res.Hits[0].Memory.Slug != "editor" {
		t.Fatalf("hits %v", slugs(res))
	}
	// Stemming: "painted" finds "painting".
	if got := e.search("what has been painted"); rankOf(got, "painting") != 0 {
		t.Fatalf("stemmed match missing: %v", slugs(got))
	}
	if !strings.Contains(res.Hits[0].Snippet, "Neovim") {
		t.Errorf("snippet %q", res.Hits[0].Snippet)
	}
}

func TestSearchFloorReturnsNothingHonestly(t *testing.T) {
	e := newEnv(t, withVectors)
	e.write(
		mem{slug: "editor", title: "Editor preference", body: "Uses Neovim with a dark theme."},
		mem{slug: "tea", title: "Drinks", body: "Likes oolong tea."},
	)
	e.embedAll()
	for _, q := range []string{"quantum chromodynamics lattice", "what is it", "？？", "the and of"} {
		if res := e.search(q); len(res.Hits) != 0 {
			t.Errorf("%q: want no hits, got %v", q, slugs(res))
		}
	}
	if _, err := e.svc.Search(e.ctx, SearchParams{Query: strings.Repeat("x", MaxQueryBytes+1)}); err == nil {
		t.Error("an over-long query must be refused")
	} else {
		var re *Error
		if !errors.As(err, &re) || re.Code != CodeInvalidQuery {
			t.Errorf("error %v", err)
		}
	}
	// User input never reaches FTS syntax: operators are just text.
	for _, q := range []string{`"unbalanced`, `tea NEAR(editor)`, `* OR -`, `col:tea`, `(tea`} {
		if _, err := e.svc.Search(e.ctx, SearchParams{Query: q, NoTouch: true}); err != nil {
			t.Errorf("%q: %v", q, err)
		}
	}
}

func TestSearchScopesAndShadowing(t *testing.T) {
	e := newEnv(t)
	wd, other := t.TempDir(), t.TempDir()
	e.write(
		mem{slug: "build-command", typ: memory.TypeProject, title: "Build command", body: "Run make build to compile everything."},
		mem{slug: "build-command", scope: memory.ScopeProject, workdir: wd, typ: memory.TypeProject, title: "Build command",
			body: "Run task build to compile this project."},
		mem{slug: "deploy-notes", scope: memory.ScopeProject, workdir: other, typ: memory.TypeProject, title: "Deploy",
			body: "Compile with bazel before you deploy."},
		mem{slug: "secret-plan", scope: memory.ScopeAgent, agent: "claude", typ: memory.TypeProject, title: "Agent note",
			body: "Compile the docs with hugo."},
	)
	inProject := e.search("how to compile", func(p *SearchParams) { p.Workdir = wd })
	var scopes []string
	for _, h := range inProject.Hits {
		scopes = append(scopes, string(h.Memory.Scope)+":"+h.Memory.Slug)
	}
	if len(inProject.Hits) != 1 || inProject.Hits[0].Memory.Scope != memory.ScopeProject || inProject.Hits[0].Memory.Workdir == "" {
		t.Fatalf("in the project the project entry shadows the global one, and other projects and agents stay out: %v", scopes)
	}
	global := e.search("how to compile", func(p *SearchParams) { p.Scope = memory.ScopeGlobal })
	if len(global.Hits) != 1 || global.Hits[0].Memory.Scope != memory.ScopeGlobal {
		t.Fatalf("scope global: %v", slugs(global))
	}
	// With no workdir, agent or scope (the person's own view), everything is visible and
	// nothing is shadowed.
	if all := e.search("how to compile"); len(all.Hits) != 4 {
		t.Fatalf("everything: %v", slugs(all))
	}
	agent := e.search("compile", func(p *SearchParams) { p.Agent = "claude" })
	if rankOf(agent, "secret-plan") < 0 || rankOf(agent, "deploy-notes") >= 0 {
		t.Fatalf("agent sees its own and global: %v", slugs(agent))
	}
	if _, err := e.svc.Search(e.ctx, SearchParams{Query: "x", Scope: memory.ScopeProject}); err == nil {
		t.Error("project scope without workdir must be refused")
	}
}

func TestSearchReviewAndTypeWeights(t *testing.T) {
	e := newEnv(t)
	body := "Prefers tabs over spaces for indentation."
	e.write(
		mem{slug: "indent-a", title: "Indentation", body: body, unreviewed: true, conf: memory.ConfidenceLow},
		mem{slug: "indent-b", title: "Indentation", body: body},
	)
	res := e.search("indentation tabs or spaces")
	if len(res.Hits) != 2 || res.Hits[0].Memory.Slug != "indent-b" {
		t.Fatalf("a reviewed entry outranks an identical unreviewed one: %v", slugs(res))
	}
	e.write(
		mem{slug: "fix-a", typ: memory.TypeReference, title: "Flaky login test", body: "The login test was flaky because of a race."},
		mem{slug: "fix-b", typ: memory.TypeExperience, title: "Flaky login test", body: "The login test was flaky because of a race."},
	)
	exp := e.search("how did we fix the flaky login test")
	if exp.Analysis.Intent != IntentExperience || exp.Hits[0].Memory.Slug != "fix-b" {
		t.Fatalf("experience intent favours experience memories: %s %v", exp.Analysis.Intent, slugs(exp))
	}
}

func TestDecayAndAccess(t *testing.T) {
	e := newEnv(t)
	old := t0.Add(-200 * 24 * time.Hour)
	e.write(
		mem{slug: "stale", title: "Coffee order", body: "Orders a flat white.", created: old},
		mem{slug: "fresh", title: "Coffee order", body: "Orders a flat white.", created: t0.Add(-2 * time.Hour)},
	)
	res := e.search("coffee order flat white")
	if slugs(res)[0] != "fresh" {
		t.Fatalf("decay: the fresher entry wins a tie: %v", slugs(res))
	}
	stale, _ := e.store.GetBySlug(e.ctx, memory.ScopeGlobal, "", "", "stale")
	rate := e.svc.opts.DecayRate
	want := math.Exp(-rate * 199) // 200 days old, the first day free
	if got := e.svc.DecayedConfidence(stale, memory.Access{}, e.clock.Now()); math.Abs(got-want) > 1e-9 {
		t.Fatalf("decayed confidence %.6f, want %.6f", got, want)
	}
	// Recall counts access; a recently and often recalled memory decays from its last access,
	// boosted by its count (capped at 1).
	for i := 0; i < 4; i++ {
		if _, err := e.svc.Search(e.ctx, SearchParams{Query: "flat white", Limit: 1}); err != nil {
			t.Fatal(err)
		}
	}
	stats, err := e.store.AccessStats(e.ctx, []string{stale.ID})
	if err != nil {
		t.Fatal(err)
	}
	if stats[stale.ID].Count != 0 {
		t.Fatalf("only returned hits are counted: %+v", stats)
	}
	if err := e.store.TouchAccess(e.ctx, []string{stale.ID, stale.ID}, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if err := e.store.TouchAccess(e.ctx, []string{stale.ID}, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	stats, _ = e.store.AccessStats(e.ctx, []string{stale.ID})
	if got := e.svc.DecayedConfidence(stale, stats[stale.ID], e.clock.Now()); got != 1 {
		t.Fatalf("just recalled, high confidence: %.3f, want 1", got)
	}
	e.clock.Advance(30 * 24 * time.Hour)
	boosted := e.svc.DecayedConfidence(stale, memory.Access{Count: 4, Last: t0}, e.clock.Now())
	plain := e.svc.DecayedConfidence(stale, memory.Access{Count: 1, Last: t0}, e.clock.Now())
	if !(boosted > plain) || math.Abs(plain-math.Exp(-rate*29)) > 1e-9 || boosted > 1 {
		t.Fatalf("access boost: plain %.4f boosted %.4f", plain, boosted)
	}
	// Access counts survive a reindex (they are keyed by id).
	if _, err := e.store.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	after, _ := e.store.AccessStats(e.ctx, []string{stale.ID})
	if after[stale.ID].Count != stats[stale.ID].Count {
		t.Fatalf("access lost in reindex: %+v vs %+v", after, stats)
	}
}

func TestSearchTouchesHitsUnlessNoTouch(t *testing.T) {
	e := newEnv(t)
	r := e.write(mem{slug: "tea", title: "Tea", body: "Likes oolong tea."})
	id := r[0].ID
	e.search("oolong") // NoTouch
	if st, _ := e.store.AccessStats(e.ctx, []string{id}); st[id].Count != 0 {
		t.Fatal("NoTouch counted")
	}
	if _, err := e.svc.Search(e.ctx, SearchParams{Query: "oolong"}); err != nil {
		t.Fatal(err)
	}
	st, _ := e.store.AccessStats(e.ctx, []string{id})
	if st[id].Count != 1 || !st[id].Last.Equal(t0) {
		t.Fatalf("access %+v", st[id])
	}
}

func TestDailyRecency(t *testing.T) {
	e := newEnv(t)
	for _, d := range []time.Duration{90 * 24 * time.Hour, 0} {
		e.clock.t = t0.Add(-d)
		res, err := e.store.ApplyBatch(e.ctx, memory.Batch{Items: []memory.Item{{Op: memory.OpAppendDaily, Text: "Standup: discussed the billing migration."}}})
		if err != nil || !res.Results[0].OK {
			t.Fatalf("%v %+v", err, res)
		}
	}
	e.clock.t = t0
	res := e.search("billing migration standup")
	if len(res.Hits) != 2 || res.Hits[0].Memory.Updated.Before(res.Hits[1].Memory.Updated) {
		t.Fatalf("the newer journal day comes first: %v", slugs(res))
	}
	if res.Hits[1].Score > res.Hits[0].Score*math.Exp(-60.0/30) {
		t.Fatalf("a 90-day-old journal day is weighed down by e^(-age/30d): %.4f vs %.4f", res.Hits[1].Score, res.Hits[0].Score)
	}
}

func TestTimeExpressionFilters(t *testing.T) {
	e := newEnv(t)
	e.write(
		mem{slug: "sprint-old", title: "Sprint review", body: "Sprint review: shipped the importer.", created: t0.Add(-40 * 24 * time.Hour)},
		mem{slug: "sprint-new", title: "Sprint review", body: "Sprint review: shipped the exporter.", created: t0.Add(-9 * 24 * time.Hour)},
	)
	res := e.search("sprint review last week")
	if !has(res, "sprint-new") || rankOf(res, "sprint-old") >= 0 || res.TimeRelaxed {
		t.Fatalf("last week keeps only last week's entry: %v relaxed=%v", slugs(res), res.TimeRelaxed)
	}
	zh := e.search("上个月的 sprint review")
	if rankOf(zh, "sprint-old") < 0 || rankOf(zh, "sprint-new") >= 0 {
		t.Fatalf("上个月: %v", slugs(zh))
	}
	relaxed := e.search("sprint review yesterday")
	if !relaxed.TimeRelaxed || len(relaxed.Hits) != 2 {
		t.Fatalf("nothing yesterday: the filter is dropped and said so: %v %v", slugs(relaxed), relaxed.TimeRelaxed)
	}
}

func has(res SearchResult, slug string) bool { return rankOf(res, slug) >= 0 }

func TestIdentityFallback(t *testing.T) {
	e := newEnv(t)
	e.write(
		mem{slug: "user-profile", title: "About the person", body: "Software engineer in Lyon, speaks French and English."},
		mem{slug: "diet", title: "Diet", body: "Vegetarian since 2019."},
		mem{slug: "k8s", typ: memory.TypeReference, title: "Cluster", body: "The staging cluster runs k3s."},
	)
	res := e.search("who am I")
	if !res.Fallback || len(res.Hits) < 2 || res.Hits[0].Memory.Slug != "user-profile" {
		t.Fatalf("identity fallback: %v fallback=%v", slugs(res), res.Fallback)
	}
	for _, h := range res.Hits {
		if h.Memory.Type != memory.TypeUser {
			t.Fatalf("fallback lists user memories only: %s", h.Memory.Slug)
		}
	}
	zh := e.search("我是谁")
	if !zh.Fallback || rankOf(zh, "user-profile") != 0 {
		t.Fatalf("Chinese identity fallback: %v", slugs(zh))
	}
}

func TestConversationContext(t *testing.T) {
	e := newEnv(t)
	turns := []string{
		"Did you finish the marathon?",
		"How long have you been married?",
		"Five years already, time flies.",
		"That's wonderful news.",
	}
	var ms []mem
	for i, txt := range turns {
		speaker := []string{"Ann", "Bob"}[i%2]
		ms = append(ms, mem{slug: fmt.Sprintf("turn-%d", i+1), typ: memory.TypeReference, title: speaker, body: txt, tags: []string{speaker},
			source: &memory.Source{Kind: "import", Session: "chat-1", Turn: i + 1}})
	}
	e.write(ms...)
	res := e.search("How long has Ann been married?")
	if len(res.Hits) < 2 || res.Hits[0].Memory.Slug != "turn-3" {
		t.Fatalf("the answer after the question comes first: %v", slugs(res))
	}
	if !strings.Contains(strings.Join(res.Hits[0].Via, ","), "context") {
		t.Errorf("via %v", res.Hits[0].Via)
	}
}

func TestSubjectTagBoost(t *testing.T) {
	e := newEnv(t)
	e.write(
		mem{slug: "note-a", title: "Note", body: "Went hiking in the Alps.", tags: []string{"Melanie"}},
		mem{slug: "note-b", title: "Note", body: "Went hiking in the Alps.", tags: []string{"Caroline"}},
	)
	res := e.search("Where did Caroline go hiking?")
	if len(res.Hits) != 2 || res.Hits[0].Memory.Slug != "note-b" {
		t.Fatalf("the memory tagged with the named person wins: %v", slugs(res))
	}
}

func TestSearchChinese(t *testing.T) {
	e := newEnv(t, withVectors)
	e.write(
		mem{slug: "coffee", title: "饮品偏好", body: "每天早上喝一杯手冲咖啡，不加糖。"},
		mem{slug: "tea", title: "下午茶", body: "下午喜欢喝乌龙茶。"},
		mem{slug: "cat", title: "宠物", body: "家里养了一只灰色的猫，叫麻糬。"},
		mem{slug: "deploy", typ: memory.TypeProject, title: "部署流程", body: "发布前先运行 make test，然后用 kubectl apply 部署到 staging 集群。"},
		mem{slug: "python", typ: memory.TypeUser, title: "Languages", body: "Writes Python at work and Go for side projects."},
	)
	e.embedAll()
	cases := map[string]string{
		"咖啡":                  "coffee", // two characters: the bigram index finds them
		"乌龙":                  "tea",
		"茶":                   "tea", // one character: the substring path
		"我早上喝什么":              "coffee",
		"麻糬是什么颜色的":            "cat",
		"怎么部署到 staging":       "deploy", // mixed language
		"kubectl apply 的发布流程": "deploy",
		"用什么语言写 Python":       "python",
	}
	for q, want := range cases {
		res := e.search(q)
		if len(res.Hits) == 0 || res.Hits[0].Memory.Slug != want {
			t.Errorf("%q: %v, want %s first", q, slugs(res), want)
		}
	}
	// A category in Chinese finds a member in Chinese and in English.
	e.write(mem{slug: "dog", title: "Dog", body: "Has a beagle named Max; the dog loves walks."})
	e.embedAll()
	res := e.search("我养了什么宠物")
	if rankOf(res, "cat") < 0 || rankOf(res, "dog") < 0 {
		t.Fatalf("宠物 should reach 猫 and dog: %v", slugs(res))
	}
}

func TestVectorPathFindsWithoutSharedWords(t *testing.T) {
	e := newEnv(t, withVectors)
	e.write(
		mem{slug: "karate", title: "Training", body: "Goes to kickboxing and taekwondo classes twice a week."},
		mem{slug: "garden", title: "Garden", body: "Grows tomatoes on the balcony."},
	)
	e.embedAll()
	res := e.search("martial arts")
	if len(res.Hits) == 0 || res.Hits[0].Memory.Slug != "karate" {
		t.Fatalf("concepts bridge martial arts and kickboxing: %v", slugs(res))
	}
	// Typos are caught by character n-grams in the vectors.
	typo := e.search("tomatos balconey")
	if len(typo.Hits) == 0 || typo.Hits[0].Memory.Slug != "garden" {
		t.Fatalf("typo: %v", slugs(typo))
	}
}

func TestSymbolQueriesScanText(t *testing.T) {
	e := newEnv(t)
	e.write(mem{slug: "arrow-fn", typ: memory.TypeReference, title: "JS", body: "Prefers arrow functions: x => x + 1"})
	if res := e.search("=>"); rankOf(res, "arrow-fn") != 0 {
		t.Fatalf("a query of symbols only is matched as text: %v", slugs(res))
	}
}
