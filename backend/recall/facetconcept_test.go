package recall

import (
	"slices"
	"testing"
)

// TestConceptFamilyFacets reads questions worded with a family's words (facetconcept.go) as
// asking its facet, in both languages and in the third person, and leaves alone the task
// questions and the other facets that share a word.
func TestConceptFamilyFacets(t *testing.T) {
	for q, want := range map[string]Facet{
		"what name do I go by":             FacetName,
		"what nickname do I have":          FacetName,
		"what's the user's legal name":     FacetName,
		"which company employs me":         FacetWork,
		"which firm am I at":               FacetWork,
		"what's my day job":                FacetWork,
		"what team am I on":                FacetWork,
		"what's my birthplace":             FacetOrigin,
		"which province am I from":         FacetOrigin,
		"what's the user's current city":   FacetHome,
		"any dietary restrictions I have?": FacetPreference,
		"what are my food allergies":       FacetPreference,
		"what's my morning coffee":         FacetPreference,
		"what's my usual drink":            FacetPreference,
		"what's my mother tongue":          FacetLanguage,
		"what's my date of birth":          FacetAge,
		"which shell and editor do I use":  FacetTools,
		"用户的姓名":                            FacetName,
		"大家一般怎么称呼我":                        FacetName,
		"我在哪个单位":                           FacetWork,
		"我是哪个省的人":                          FacetOrigin,
		"我的祖籍是哪里":                          FacetOrigin,
		"用户的住址":                            FacetHome,
		"我有哪些饮食禁忌":                         FacetPreference,
		"我吃东西有什么讲究":                        FacetPreference,
		"我的母语":                             FacetLanguage,
		"我的出生日期":                           FacetAge,
	} {
		if got := facetsOf(q); !slices.Contains(got, want) {
			t.Errorf("facetsOf(%q) = %v, want %s among them", q, got, want)
		}
	}
	for q, not := range map[string]Facet{
		"which town am I from originally":                FacetHome,
		"Which seaside town did I spend my girlhood in?": FacetHome,
		"how far am I from the house fund goal":          FacetOrigin,
		"at what age was I planning to pack in work":     FacetAge,
		"where is my order":                              FacetPreference,
		"what's my branch name":                          FacetName,
		"which company names appear in the config file":  FacetWork,
		"how do I go by bus to the office":               FacetName,
		"我们公司的团建在哪":                                      FacetWork,
		"用户表有哪些字段":                                       FacetName,
	} {
		if got := facetsOf(q); slices.Contains(got, not) {
			t.Errorf("facetsOf(%q) = %v, want no %s", q, got, not)
		}
	}
}

// TestConceptAvoid reads a question named by the diet family's words as one about what the
// person avoids, so an allergy answers it and a taste does not.
func TestConceptAvoid(t *testing.T) {
	for _, q := range []string{"any dietary restrictions I have?", "我有哪些饮食禁忌", "what are my food intolerances"} {
		a := Analyze(q, t0, nil)
		if _, ok := avoidAsked(a); !ok {
			t.Errorf("avoidAsked(%q) = false (facets %v), want an avoidance question", q, a.Facets)
		}
	}
}

// TestConceptTitleLabels reads a person's note titled with a family's noun as stating the facet.
func TestConceptTitleLabels(t *testing.T) {
	for title, want := range map[string]Facet{
		"Birthplace":           FacetOrigin,
		"Dietary restrictions": FacetPreference,
		"Mother tongue":        FacetLanguage,
		"饮食禁忌":                 FacetPreference,
		"工作单位":                 FacetWork,
	} {
		if got := titleFacets(title); !slices.Contains(got, want) {
			t.Errorf("titleFacets(%q) = %v, want %s", title, got, want)
		}
	}
}

// TestDropPersonWords takes "the user" / "用户" out of a third-person question's search words,
// and keeps them in a question about software named after users.
func TestDropPersonWords(t *testing.T) {
	words := func(a Analysis) []string {
		var out []string
		for _, k := range a.Keywords {
			out = append(out, k.Text)
		}
		return append(out, a.Singles...)
	}
	for q, want := range map[string][]string{
		"what is the user's name":                  {"name"},
		"is the user married or in a relationship": {"married", "relationship"},
		"用户的姓名":                                    {"姓名"},
		"what's in the users table":                {"users", "table"},
		"用户表有哪些字段":                                 {"用户表有", "字段"},
	} {
		if got := words(Analyze(q, t0, nil)); !slices.Equal(got, want) {
			t.Errorf("words of %q = %v, want %v", q, got, want)
		}
	}
}

// TestUsualOrderIsATaste: a note of what the person has as a rule is a taste even when it says
// what they leave out ("no sugar"), so it answers "what's my go-to drink".
func TestUsualOrderIsATaste(t *testing.T) {
	if avoidsOnly("My usual order is a cortado, no sugar.") {
		t.Error("a usual order read as an avoidance only")
	}
	if !avoidsOnly("No sugar for me, I'm diabetic.") {
		t.Error("a diabetic's note no longer reads as an avoidance")
	}
}
