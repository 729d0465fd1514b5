package organizer

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"engram/backend/i18n"
	"engram/backend/memory"
)

// A word's weight falls as more memories of the store hold it; nothing is common in a store
// of fewer than two memories, and a word the store never saw weighs as much as the rarest.
func TestRarityWeight(t *testing.T) {
	r := NewRarity()
	if w := r.Weight("nginx"); w != 1 {
		t.Fatalf("empty store: weight %v, want 1", w)
	}
	for i := 0; i < 99; i++ {
		r.Add(fmt.Sprintf("The user prefers tool%d for work.", i))
	}
	r.Add("The user prefers nginx for work.")
	one, common, unseen := r.Weight("nginx"), r.Weight("prefer"), r.Weight("kafka")
	if one != 1 || unseen != 1 {
		t.Fatalf("a word of one memory weighs %v, an unseen one %v; want 1", one, unseen)
	}
	if common > 0.01 {
		t.Fatalf("a word of every memory weighs %v, want about 0", common)
	}
	for i := 0; i < 10; i++ {
		r.Add("Uses nginx again.")
	}
	if w := r.Weight("nginx"); w >= one || w <= common {
		t.Fatalf("a word of 11 memories of 110 weighs %v, want between %v and %v", w, common, one)
	}
}

// TestKeyWordGuard: a fuzzy match whose texts differ in words rare in the store, or in a word
// swapped for another, is guarded and names them; a word the store uses everywhere added on
// one side is not.
func TestKeyWordGuard(t *testing.T) {
	common := NewRarity()
	for i := 0; i < 40; i++ {
		common.Add(fmt.Sprintf("The user prefers and likes thing%d a lot.", i))
	}
	const prefers = "The user prefers dark mode in every editor, terminal window and browser tab they open during the work day."
	const likes = "The user likes dark mode in every editor, terminal window and browser tab they open during the work day."
	cases := []struct {
		name   string
		store  *Rarity // nil: the two texts alone
		a, b   string
		guard  Guard
		words  string
		notier bool
	}{
		{"the noun that says what", nil, "The user prefers nginx for every new project and uses it daily at work.",
			"The user prefers kafka for every new project and uses it daily at work.", GuardWords, "nginx / kafka", false},
		{"a name", nil, "The user's manager is Alice and they meet every Tuesday to plan the next sprint together.",
			"The user's manager is Oliver and they meet every Tuesday to plan the next sprint together.", GuardWords, "alice / oliver", false},
		{"a Chinese noun", nil, "用户喜欢在周末的下午和几个老朋友一起去茶馆喝乌龙茶，不加糖，配一点坚果和新鲜的水果，一坐就是一下午。",
			"用户喜欢在周末的下午和几个老朋友一起去茶馆喝普洱茶，不加糖，配一点坚果和新鲜的水果，一坐就是一下午。", GuardWords, "乌龙 / 普洱", false},
		{"one Chinese character", nil, "用户每天上班前都会在公司楼下的便利店买一杯热红茶，再配一个刚出炉的面包当早餐。",
			"用户每天上班前都会在公司楼下的便利店买一杯热绿茶，再配一个刚出炉的面包当早餐。", GuardWords, "红 / 绿", false},
		// Function words, inflections and Chinese particles carry no key word.
		{"function words", nil, "The project uses PostgreSQL for the main database and Redis for caching sessions.",
			"The project uses PostgreSQL for its main database and Redis for caching sessions.", GuardNone, "", false},
		{"an inflection", nil, "The user always reviews open pull requests in the morning before the daily standup meeting with the whole team.",
			"The user always reviewed open pull requests in the morning before the daily standup meeting with the whole team.", GuardNone, "", false},
		{"a Chinese particle", nil, "用户周末很喜欢在家里用手冲壶煮咖啡，然后坐在阳台上看书。",
			"用户周末喜欢在家里用手冲壶煮咖啡，然后坐在阳台上看书。", GuardNone, "", false},
		// Weighted by the store: words every memory uses do not set two memories apart.
		{"rare synonyms", nil, prefers, likes, GuardWords, "prefers / likes", false},
		// A word swapped for another sets two texts apart however common both words are
		// ("in staging" / "in production"); a common word on one side only does not.
		{"synonyms the store uses everywhere", common, prefers, likes, GuardWords, "prefers / likes", false},
		{"a common word added", common, prefers, "The user prefers dark mode a lot in every editor, terminal window and browser tab they open during the work day.",
			GuardNone, "", false},
		// Numbers keep their own guard; the key-word guard does not count them.
		{"a number", nil, "The team meets every Monday at 10 for the sprint planning session with the whole group.",
			"The team meets every Monday at 11 for the sprint planning session with the whole group.", GuardMarks, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			an := NewAnalyzer()
			if tc.store != nil {
				tc.store.Add(tc.a)
				tc.store.Add(tc.b)
				an = NewAnalyzerOver(tc.store)
			}
			a, b := an.Analyze(tc.a), an.Analyze(tc.b)
			m := Compare(a, b)
			if m.Tier != TierCosine && m.Tier != TierJaccard {
				t.Fatalf("tier %q (cosine %.3f, jaccard %.3f), want a fuzzy match", m.Tier, Cosine(a, b), Jaccard(a, b))
			}
			if m.Guard != tc.guard || m.Guarded != (tc.guard != GuardNone) || m.Words != tc.words {
				t.Fatalf("guard %q (%v) words %q, want %q words %q", m.Guard, m.Guarded, m.Words, tc.guard, tc.words)
			}
			if back := Compare(b, a); back.Guard != m.Guard {
				t.Fatalf("not symmetric: %q then %q", m.Guard, back.Guard)
			}
			if conf := tierConfidence(m); m.Guarded && conf >= LowConfidence {
				t.Fatalf("guarded match has confidence %.2f", conf)
			}
		})
	}
}

// nearDuplicateSet is testdata/near_duplicates.json: memories of an ordinary store (English
// and Chinese), pairs that are duplicates (exact, contained, reworded, reordered) and pairs
// that are not (a different key noun, number, negation or symbol).
type nearDuplicateSet struct {
	Background []string `json:"background"`
	Duplicates []struct {
		Name string `json:"name"`
		Tier Tier   `json:"tier"`
		A    string `json:"a"`
		B    string `json:"b"`
	} `json:"duplicates"`
	Distinct []struct {
		Name   string `json:"name"`
		Differ string `json:"differ"`
		A      string `json:"a"`
		B      string `json:"b"`
	} `json:"distinct"`
}

func loadNearDuplicates(t *testing.T) nearDuplicateSet {
	t.Helper()
	raw, err := os.ReadFile("testdata/near_duplicates.json")
	if err != nil {
		t.Fatal(err)
	}
	var set nearDuplicateSet
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	if len(set.Duplicates) < 8 || len(set.Distinct) < 8 {
		t.Fatalf("regression set too small: %d duplicates, %d distinct", len(set.Duplicates), len(set.Distinct))
	}
	return set
}

// TestNearDuplicateRegressionSet runs the regression set through a scheduled run in standard
// mode, in one store with its background: every duplicate pair is merged by the run itself,
// and no pair that differs in what it says is ever proposed as a low-risk merge, or loses a
// memory.
func TestNearDuplicateRegressionSet(t *testing.T) {
	set := loadNearDuplicates(t)
	e := newEnv(t)
	var items []memory.Item
	for i, b := range set.Background {
		items = append(items, item(fmt.Sprintf("background-%02d", i), fmt.Sprintf("Background %d", i), b))
	}
	pair := func(kind string, i int, a, b string) {
		items = append(items, item(fmt.Sprintf("%s-%02d-a", kind, i), fmt.Sprintf("%s %d a", kind, i), a),
			item(fmt.Sprintf("%s-%02d-b", kind, i), fmt.Sprintf("%s %d b", kind, i), b))
	}
	for i, p := range set.Duplicates {
		pair("dup", i, p.A, p.B)
	}
	for i, p := range set.Distinct {
		pair("distinct", i, p.A, p.B)
	}
	ids := e.write(memory.ActorExtractor, items...)

	det := e.run(TriggerScheduled)
	if det.Status != StatusDone {
		t.Fatalf("run %s: %+v", det.Status, det.Error)
	}
	live := e.live()
	for i, p := range set.Duplicates {
		a, b := ids[fmt.Sprintf("dup-%02d-a", i)], ids[fmt.Sprintf("dup-%02d-b", i)]
		d := decisionFor(det.Report, a)
		if d == nil || d != decisionFor(det.Report, b) || d.Action != ActionMergeInto {
			t.Errorf("%s: decisions %s / %s, want one merge of the pair", p.Name, describe(d), describe(decisionFor(det.Report, b)))
			continue
		}
		if d.Risk != RiskLow || d.Status != DecisionApplied || d.Tier != p.Tier {
			t.Errorf("%s: %s merge at risk %s confidence %.3f is %s (%s), want a %s merge applied by the run", p.Name, d.Tier,
				d.Risk, d.Confidence, d.Status, d.Reason.Code, p.Tier)
		}
		if n := btoi(live[fmt.Sprintf("global/dup-%02d-a", i)] != nil) + btoi(live[fmt.Sprintf("global/dup-%02d-b", i)] != nil); n != 1 {
			t.Errorf("%s: %d of the pair left, want 1", p.Name, n)
		}
	}
	for i, p := range set.Distinct {
		for _, side := range []string{"a", "b"} {
			slug := fmt.Sprintf("distinct-%02d-%s", i, side)
			if live["global/"+slug] == nil {
				t.Errorf("%s (%s): %s was merged away", p.Name, p.Differ, slug)
			}
			if d := decisionFor(det.Report, ids[slug]); d != nil && d.Action == ActionMergeInto && d.Risk != RiskHigh {
				t.Errorf("%s (%s): merge proposed at risk %s (confidence %.3f, %s)", p.Name, p.Differ, d.Risk, d.Confidence, d.Reason.Code)
			}
		}
	}
	for _, d := range det.Report.Decisions {
		if d.Reason.Code == ReasonKeyWordsDiffer && strings.TrimSpace(fmt.Sprint(d.Reason.Args["Words"])) == "" {
			t.Errorf("decision %s names no key words: %+v", d.ID, d.Reason)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The key-word reason names the words in both languages of the catalog.
func TestKeyWordsReasonInCatalog(t *testing.T) {
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	p := mergeProposal(&memory.Memory{Slug: "prefers-nginx"}, []*memory.Memory{{ID: "x"}},
		[]Match{{Tier: TierCosine, Score: 0.91, Guarded: true, Guard: GuardWords, Words: "nginx / kafka"}})
	for _, lang := range i18n.Languages {
		msg := cat.T(lang, "organizer.reason."+p.Reason.Code, p.Reason.Args)
		if !strings.Contains(msg, "nginx / kafka") || !strings.Contains(msg, "prefers-nginx") || strings.Contains(msg, "<no value>") {
			t.Errorf("%s: %q", lang, msg)
		}
	}
}
