package organizer

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"engram/backend/i18n"
	"engram/backend/memory"
)

// TestContainedGuard: a text contained word for word in another is a copy only when its
// statement stands whole in the longer one. Words joined to its clause (a negation, a number,
// "after", a rare word) change it; clauses of their own add to it unless they take it back.
func TestContainedGuard(t *testing.T) {
	cases := []struct {
		name, a, b string
		guard      Guard
		words      string
	}{
		{"a negation before it", "Mock the database in integration tests.", "Never mock the database in integration tests.", GuardMarks, "never"},
		{"do not", "Deploy to production on Fridays.", "Do not deploy to production on Fridays.", GuardMarks, "not"},
		{"a Chinese negation", "每天早上去公园跑步锻炼身体", "用户不再每天早上去公园跑步锻炼身体", GuardMarks, "不再"},
		{"a number in its clause", "Keep the nightly backups of the orders database", "Keep the nightly backups of the orders database for 30 days", GuardMarks, "30"},
		{"a word of meaning in its clause", "Deploys go out on Fridays", "Deploys go out on Fridays after the release review", GuardMeaning, "after"},
		{"a modal in its clause", "Deploy to production on Fridays.", "You may deploy to production on Fridays.", GuardMeaning, "may, you"},
		{"a rare word in its clause", "Mock the database in integration tests.", "Mock the database in integration tests for billing.", GuardWords, "billing"},
		{"a clause with a contrast", "Mock the database in integration tests.", "Mock the database in integration tests, except for the billing service.", GuardMeaning, "except"},
		{"a clause taking it back", "Deploy to production on Fridays.", "Deploy to production on Fridays? Not anymore.", GuardMeaning, "anymore"},
		{"a bare negation", "Deploy to production on Fridays.", "Deploy to production on Fridays. Or not.", GuardMarks, "not"},
		{"a clause with the opposite", "Keep the feature flag turned on for internal users.", "Keep the feature flag turned on for internal users. Turn it off after the launch.", GuardMeaning, "off"},
		{"a Chinese contrast", "用户每天早上去公园跑步", "用户每天早上去公园跑步，但是下雨天除外。", GuardMeaning, "但是"},
		// Additions that leave the statement standing.
		{"a sentence of its own", "Deploys go out on Fridays after the release review.",
			"Deploys go out on Fridays after the release review. Hotfixes may ship any day with a second reviewer.", GuardNone, ""},
		{"a negation in a clause of its own", "用户喜欢喝绿茶", "用户喜欢喝绿茶，不加糖。", GuardNone, ""},
		{"an English one", "The user likes green tea in the afternoon", "The user likes green tea in the afternoon, without sugar.", GuardNone, ""},
		{"a further rule", "Mock the database in integration tests.", "Mock the database in integration tests. Never mock it in unit tests.", GuardNone, ""},
		{"an article", "User prefers dark mode in every editor.", "The user prefers dark mode in every editor.", GuardNone, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			an := NewAnalyzer()
			a, b := an.Analyze(tc.a), an.Analyze(tc.b)
			m := Compare(a, b)
			if m.Tier != TierContainment {
				t.Fatalf("tier %q, want containment", m.Tier)
			}
			if m.Guard != tc.guard || m.Guarded != (tc.guard != GuardNone) || m.Words != tc.words {
				t.Fatalf("guard %q (%v) words %q, want %q words %q", m.Guard, m.Guarded, m.Words, tc.guard, tc.words)
			}
			if back := Compare(b, a); back.Guard != m.Guard || back.Words != m.Words {
				t.Fatalf("not symmetric: %q %q then %q %q", m.Guard, m.Words, back.Guard, back.Words)
			}
			if conf := tierConfidence(m); m.Guarded && conf >= LowConfidence {
				t.Fatalf("guarded containment has confidence %.2f", conf)
			}
		})
	}
}

// A word added to a contained text's clause weighs by its rarity, like a fuzzy match's
// one-sided words: "the user" in a store of the user's notes changes nothing.
func TestContainedGuardWeighsAdditions(t *testing.T) {
	const short = "Prefers dark mode in every editor and terminal."
	const long = "The user prefers dark mode in every editor and terminal."
	store := NewRarity()
	for i := 0; i < 40; i++ {
		store.Add(fmt.Sprintf("The user works on project%d.", i))
	}
	for _, tc := range []struct {
		r     *Rarity
		guard Guard
	}{{nil, GuardWords}, {store, GuardNone}} {
		an := NewAnalyzerOver(tc.r)
		if m := Compare(an.Analyze(short), an.Analyze(long)); m.Tier != TierContainment || m.Guard != tc.guard {
			t.Errorf("store %v: %s guard %q, want %q", tc.r != nil, m.Tier, m.Guard, tc.guard)
		}
	}
}

// TestMeaningWordGuard: texts alike but for a word that sets what they say — most of them stop
// words, which the rarity of content words never sees — or a pair of opposites are guarded.
func TestMeaningWordGuard(t *testing.T) {
	cases := []struct{ name, a, b, words string }{
		{"before / after", "Run the database migrations before deploying the api service to the cluster, always with a fresh backup of the orders database.",
			"Run the database migrations after deploying the api service to the cluster, always with a fresh backup of the orders database.", "before / after"},
		{"on / off", "Keep the feature flag for the new checkout flow turned on for internal users in the beta program until the launch review.",
			"Keep the feature flag for the new checkout flow turned off for internal users in the beta program until the launch review.", "on / off"},
		{"above / below", "Page the on-call engineer when the cpu usage of the search cluster stays above the alert threshold for ten minutes.",
			"Page the on-call engineer when the cpu usage of the search cluster stays below the alert threshold for ten minutes.", "above / below"},
		{"must / may", "The admin must approve every new account before it is activated in the billing system.",
			"The admin may approve every new account before it is activated in the billing system.", "must / may"},
		{"he / she", "The new team lead said he reviews every design document before the weekly architecture meeting.",
			"The new team lead said she reviews every design document before the weekly architecture meeting.", "he / she"},
		{"enable / disable", "The build should enable the race detector for every package in the nightly pipeline run.",
			"The build should disable the race detector for every package in the nightly pipeline run.", "enable / disable"},
		{"之前 / 之后", "用户每天晚饭之前会和家人一起去附近的公园散步，然后回家看一会儿书再睡觉。",
			"用户每天晚饭之后会和家人一起去附近的公园散步，然后回家看一会儿书再睡觉。", "之前 / 之后"},
		{"打开 / 关闭", "用户习惯每天晚上睡觉前把书房的电脑打开，让它整夜下载大文件，第二天早上再检查结果。",
			"用户习惯每天晚上睡觉前把书房的电脑关闭，让它整夜下载大文件，第二天早上再检查结果。", "打开 / 关闭"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			an := NewAnalyzer()
			a, b := an.Analyze(tc.a), an.Analyze(tc.b)
			m := Compare(a, b)
			if m.Tier != TierCosine && m.Tier != TierJaccard {
				t.Fatalf("tier %q, want a fuzzy match", m.Tier)
			}
			if m.Guard != GuardMeaning || m.Words != tc.words {
				t.Fatalf("guard %q words %q, want %q words %q", m.Guard, m.Words, GuardMeaning, tc.words)
			}
			if tierConfidence(m) >= LowConfidence {
				t.Fatalf("guarded match has confidence %.2f", tierConfidence(m))
			}
		})
	}
}

// envStore is a store where most memories name both environments, so "staging" and
// "production" weigh little.
func envStore() *Rarity {
	r := NewRarity()
	for i := 0; i < 30; i++ {
		r.Add(fmt.Sprintf("Staging and production both run service%d.", i))
	}
	return r
}

// TestSubstitutionGuard: two texts alike but for one content word swapped for another say
// different things however common the words are; a common word added on one side only does
// not set them apart.
func TestSubstitutionGuard(t *testing.T) {
	const staging = "Failed deploys are rolled back automatically within five minutes in staging, and the on-call engineer gets a summary."
	const production = "Failed deploys are rolled back automatically within five minutes in production, and the on-call engineer gets a summary."
	const added = "Failed production deploys are rolled back automatically within five minutes, and the on-call engineer gets a summary."
	const plain = "Failed deploys are rolled back automatically within five minutes, and the on-call engineer gets a summary."
	r := envStore()
	for _, s := range []string{staging, production, added, plain} {
		r.Add(s)
	}
	if w := r.Weight("stage") + r.Weight("product"); w >= DistinctLimit {
		t.Fatalf("the environments weigh %.2f together: the store does not make them common", w)
	}
	an := NewAnalyzerOver(r)
	m := Compare(an.Analyze(staging), an.Analyze(production))
	if m.Tier != TierCosine || m.Guard != GuardWords || m.Words != "staging / production" {
		t.Fatalf("swapped environment: %s guard %q words %q, want key_words staging / production", m.Tier, m.Guard, m.Words)
	}
	if m := Compare(an.Analyze(plain), an.Analyze(added)); (m.Tier != TierCosine && m.Tier != TierJaccard) || m.Guarded {
		t.Fatalf("a common word added: %s guard %q, want an unguarded fuzzy match", m.Tier, m.Guard)
	}
}

// The reasons of the new guards name their words in both languages of the catalog.
func TestMeaningReasonsInCatalog(t *testing.T) {
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Match{
		{Tier: TierCosine, Score: 0.95, Guarded: true, Guard: GuardMeaning, Words: "before / after"},
		{Tier: TierContainment, Score: 0.9, Guarded: true, Guard: GuardMarks, Words: "never"},
	} {
		p := mergeProposal(&memory.Memory{Slug: "keeper"}, []*memory.Memory{{ID: "x"}}, []Match{m})
		want := map[Guard]string{GuardMeaning: ReasonMeaningDiffer, GuardMarks: ReasonContainedChanged}[m.Guard]
		if p.Reason.Code != want {
			t.Fatalf("reason %q, want %q", p.Reason.Code, want)
		}
		for _, lang := range i18n.Languages {
			msg := cat.T(lang, "organizer.reason."+p.Reason.Code, p.Reason.Args)
			if !strings.Contains(msg, m.Words) || !strings.Contains(msg, "keeper") || strings.Contains(msg, "<no value>") ||
				strings.Contains(msg, "organizer.reason") {
				t.Errorf("%s: %q", lang, msg)
			}
		}
	}
}
