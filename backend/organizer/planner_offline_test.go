package organizer

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

// prefTools name what each preference memory is about; the first five come twice (as a store
// that learnt them in two sessions would hold them).
var prefTools = strings.Fields("postgres redis kafka nginx docker kubernetes terraform ansible grafana prometheus " +
	"vim emacs zsh fish rust golang python java typescript svelte")

// prefMemory is one memory of the preferences store: its topic says which memories are the
// same thing said again.
type prefMemory struct {
	slug, title, body, topic string
}

// preferenceStore is the store QA found merging different things: for 25 preferences a
// sentence and the same sentence with a word more ("… Really."), which differ from every other
// preference in one noun only; five Chinese memories written twice word for word, which differ
// from each other in a number; and notes of random words around them. Every plain sentence
// comes first and every copy after, so clusters cut in creation order would part each pair.
func preferenceStore() []prefMemory {
	var plain, copies, notes []prefMemory
	for i := 0; i < 25; i++ {
		tool := prefTools[i%len(prefTools)]
		body := fmt.Sprintf("The user prefers %s for every new project and uses it daily at work.", tool)
		title := "Prefers " + tool
		plain = append(plain, prefMemory{fmt.Sprintf("pref-%s-%d", tool, i), title, body, tool})
		copies = append(copies, prefMemory{fmt.Sprintf("pref-%s-%d-dup", tool, i), title, body + " Really.", tool})
	}
	for i := 0; i < 5; i++ {
		body := fmt.Sprintf("用户喜欢在周末喝乌龙茶，第%d条。", i)
		title := fmt.Sprintf("喜欢乌龙茶 %d", i)
		plain = append(plain, prefMemory{fmt.Sprintf("zh-tea-%d", i), title, body, title})
		copies = append(copies, prefMemory{fmt.Sprintf("zh-tea-%d-b", i), title, body, title})
	}
	words := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november " +
		"oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu")
	seed := uint32(7)
	for i := 0; i < 60; i++ {
		var b strings.Builder
		for j := 0; j < 25; j++ {
			seed = seed*1664525 + 1013904223
			b.WriteString(words[seed>>24%uint32(len(words))] + " ")
		}
		fmt.Fprintf(&b, "item%d", i)
		notes = append(notes, prefMemory{fmt.Sprintf("note-%03d", i), fmt.Sprintf("Note %d", i), b.String(), fmt.Sprintf("note-%d", i)})
	}
	return append(append(plain, copies...), notes...)
}

// TestPreferencesAreNotMergedAcrossTools is QA's store through a scheduled run in standard
// mode: before, one low-risk merge folded "Prefers nginx", "kafka" and "redis" into "Prefers
// postgres" (cosine 0.9, confidence 0.8), true pairs landed in different decisions, and the
// Chinese exact pairs went into one high-risk decision with the memories that differ in their
// number. Now each topic is merged with itself only, exact and contained copies first.
func TestPreferencesAreNotMergedAcrossTools(t *testing.T) {
	e := newEnv(t)
	store := preferenceStore()
	topic, idOf := map[string]string{}, map[string]string{}
	for _, m := range store {
		e.clock.Advance(time.Second)
		it := item(m.slug, m.title, m.body)
		it.Confidence, it.SourceQuote = memory.ConfidenceLow, nil
		idOf[m.slug] = e.write(memory.ActorExtractor, it)[m.slug]
		topic[idOf[m.slug]] = m.topic
	}
	det := e.run(TriggerScheduled)
	if det.Status != StatusDone {
		t.Fatalf("run %s: %+v", det.Status, det.Error)
	}
	an := NewAnalyzer()
	bodies := map[string]string{}
	for _, m := range store {
		bodies[m.slug] = m.body
	}
	for _, d := range det.Report.Decisions {
		if d.Action != ActionMergeInto {
			continue
		}
		for _, tg := range d.Targets {
			if topic[tg.ID] != topic[d.Into.ID] && d.Risk != RiskHigh {
				t.Errorf("decision %s merges %s into %s at risk %s (%s, confidence %.2f)", d.ID, tg.Slug, d.Into.Slug, d.Risk,
					d.Reason.Code, d.Confidence)
			}
			// Every member is a near-duplicate of the keeper itself, not of another member.
			if m := Compare(an.Analyze(bodies[d.Into.Slug]), an.Analyze(bodies[tg.Slug])); m.Tier == TierNone {
				t.Errorf("decision %s merges %s into %s, which do not match", d.ID, tg.Slug, d.Into.Slug)
			}
		}
	}
	// Every true pair is in one decision, applied by the run; the Chinese ones as exact copies.
	for _, m := range store {
		orig := strings.TrimSuffix(strings.TrimSuffix(m.slug, "-dup"), "-b")
		if orig == m.slug {
			continue
		}
		d := decisionFor(det.Report, idOf[orig])
		if d == nil || d != decisionFor(det.Report, idOf[m.slug]) || d.Status != DecisionApplied {
			t.Errorf("%s and %s: decisions %s / %s, want one merge applied by the run", orig, m.slug, describe(d),
				describe(decisionFor(det.Report, idOf[m.slug])))
			continue
		}
		if strings.HasPrefix(m.slug, "zh-") && (d.Reason.Code != ReasonExactDuplicate || len(d.Targets) != 1) {
			t.Errorf("%s: %s merge of %d, want the exact pair alone", m.slug, d.Reason.Code, len(d.Targets)+1)
		}
	}
	// One memory per topic is left.
	left := map[string]int{}
	for _, m := range e.live() {
		left[topic[m.ID]]++
	}
	for tp, n := range left {
		if n != 1 {
			t.Errorf("topic %s: %d memories left, want 1", tp, n)
		}
	}
	if len(left) != len(prefTools)+5+60 {
		t.Errorf("%d topics left, want %d: a topic was merged away", len(left), len(prefTools)+5+60)
	}
}

// TestStructuralClustersKeepDuplicatesTogether: a chain of loose matches (every preference
// sentence is close to every other) no longer makes one component that is cut into clusters
// in creation order; every exact or contained pair shares a cluster, and no cluster is larger
// than MaxClusterSize.
func TestStructuralClustersKeepDuplicatesTogether(t *testing.T) {
	var entries []*memory.Memory
	topic := map[string]string{}
	for i, m := range preferenceStore() {
		id := fmt.Sprintf("%04d", i)
		entries = append(entries, &memory.Memory{ID: id, Slug: m.slug, Scope: memory.ScopeGlobal, Type: memory.TypeUser, Body: m.body,
			Created: baseTime.Add(time.Duration(i) * time.Second)})
		topic[id] = m.topic
	}
	clusters, err := StructuralClusterer{}.Groups(context.Background(), ScopeInstance{Scope: memory.ScopeGlobal}, entries, MaxClusterSize)
	if err != nil {
		t.Fatal(err)
	}
	where := map[string]string{}
	seen := 0
	for _, c := range clusters {
		if len(c.Entries) > MaxClusterSize {
			t.Errorf("cluster %s holds %d entries", c.Key, len(c.Entries))
		}
		for _, m := range c.Entries {
			seen++
			if k, ok := where[topic[m.ID]]; ok && k != c.Key && !strings.HasPrefix(topic[m.ID], "note-") {
				t.Errorf("topic %s is split between clusters %s and %s", topic[m.ID], k, c.Key)
			}
			where[topic[m.ID]] = c.Key
		}
	}
	if seen != len(entries) {
		t.Fatalf("clusters hold %d entries, want %d", seen, len(entries))
	}
}

// TestOfflinePlannerPairsGuardedMatches: memories that only look alike (different key words)
// are proposed one pair at a time, high risk, naming what differs — never folded together
// with a true duplicate of the keeper.
func TestOfflinePlannerPairsGuardedMatches(t *testing.T) {
	bodies := []string{
		"The user prefers nginx for every new project and uses it daily at work. Really.",
		"The user prefers nginx for every new project and uses it daily at work.",
		"The user prefers kafka for every new project and uses it daily at work.",
		"The user prefers redis for every new project and uses it daily at work.",
		"The user prefers vim for every new project and uses it daily at work.",
	}
	var entries []*memory.Memory
	for i, b := range bodies {
		entries = append(entries, &memory.Memory{ID: fmt.Sprintf("m%d", i), Slug: fmt.Sprintf("m%d", i), Scope: memory.ScopeGlobal,
			Type: memory.TypeUser, Body: b})
	}
	out, err := OfflinePlanner{}.Plan(context.Background(), PlanInput{Cluster: Cluster{Entries: entries}, Now: baseTime})
	if err != nil {
		t.Fatal(err)
	}
	var merges []Proposal
	for _, p := range out.Proposals {
		if p.Action == ActionMergeInto {
			merges = append(merges, p)
		}
	}
	if len(merges) != 2 {
		t.Fatalf("merges = %+v, want the nginx pair and one guarded pair", merges)
	}
	if p := merges[0]; p.Into != "m0" || len(p.Targets) != 1 || p.Targets[0] != "m1" || p.Reason.Code != ReasonContained || p.Confidence < AutoConfidence {
		t.Fatalf("first merge = %+v, want m1 contained in m0", p)
	}
	p := merges[1]
	if len(p.Targets) != 1 || p.Reason.Code != ReasonKeyWordsDiffer || p.Confidence >= LowConfidence {
		t.Fatalf("second merge = %+v, want one guarded pair", p)
	}
	if w, _ := p.Reason.Args["Words"].(string); !strings.Contains(w, " / ") {
		t.Fatalf("words = %q, want both sides named", w)
	}
}

// describe is a decision in one line for a failure message.
func describe(d *Decision) string {
	if d == nil {
		return "none"
	}
	var slugs []string
	for _, t := range d.Targets {
		slugs = append(slugs, t.Slug)
	}
	into := ""
	if d.Into != nil {
		into = " into " + d.Into.Slug
	}
	return fmt.Sprintf("%s %s %s%s (%s, %s, risk %s, confidence %.3f, %s)", d.ID, d.Action, strings.Join(slugs, ","), into,
		d.Tier, d.Reason.Code, d.Risk, d.Confidence, d.Status)
}

// TestOfflinePlannerKeepsTypesApart: a model's topic cluster, or the one cluster of a scope of
// eight or fewer when a model is configured, mixes types; when the model fails it, the offline
// planner plans it. A user fact and a feedback rule of the same words were merged (contained,
// low risk), which a scheduled run applied: the fact became part of a rule for agents. Only
// the same type merges; the gate refuses a merge across types from any planner.
func TestOfflinePlannerKeepsTypesApart(t *testing.T) {
	mk := func(id string, typ memory.Type, body string) *memory.Memory {
		return &memory.Memory{ID: id, Slug: id, Title: id, Scope: memory.ScopeGlobal, Type: typ, Body: body}
	}
	entries := []*memory.Memory{
		mk("fact", memory.TypeUser, "Drinks green tea, never coffee."),
		mk("rule", memory.TypeFeedback, "Drinks green tea, never coffee. Offer tea in examples."),
		mk("fact-2", memory.TypeUser, "Drinks green tea, never coffee."),
	}
	c := Cluster{ID: "c001", Scope: ScopeInstance{Scope: memory.ScopeGlobal}, Entries: entries}
	out, err := OfflinePlanner{}.Plan(context.Background(), PlanInput{Cluster: c, Now: baseTime})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*memory.Memory{}
	for _, m := range entries {
		byID[m.ID] = m
	}
	merges := 0
	for _, p := range out.Proposals {
		if p.Action != ActionMergeInto {
			continue
		}
		merges++
		for _, id := range p.Targets {
			if byID[id].Type != byID[p.Into].Type {
				t.Fatalf("merge %v into %s crosses types", p.Targets, p.Into)
			}
		}
	}
	if merges != 1 {
		t.Fatalf("%d merges (%+v), want the two user facts merged", merges, out.Proposals)
	}
	// The gate refuses a merge across types whoever proposes it.
	for _, tc := range []struct {
		into, target, bucket string
	}{{"rule", "fact", BucketCrossType}, {"fact", "fact-2", ""}, {"fact", "fact", BucketSelfMerge}} {
		d := decide(TriggerScheduled, ModeAggressive, c, Proposal{Action: ActionMergeInto, Into: tc.into,
			Targets: []string{tc.target, tc.into}, Confidence: 0.99}, byID, nil, map[string]bool{})
		if d.Bucket != tc.bucket {
			t.Errorf("merge %s into %s: bucket %q, want %q", tc.target, tc.into, d.Bucket, tc.bucket)
		}
	}
}
