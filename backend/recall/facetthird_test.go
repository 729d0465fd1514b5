package recall

import (
	"slices"
	"testing"

	"engram/backend/memory"
)

// TestFoldThirdPerson reads an agent's "the user" / "用户" as the person, and leaves software
// things named after users alone.
func TestFoldThirdPerson(t *testing.T) {
	for in, want := range map[string]string{
		"what is the user's name":                "what is my name",
		"where does the user live":               "where do I live",
		"what company does the user work at":     "what company do I work at",
		"is the user married":                    "am I married",
		"the user lives where":                   "I live where",
		"what should I call the user":            "what should I call me",
		"what columns does the users table have": "what columns does the users table have",
		"用户叫什么":                                  "我叫什么",
		"用户养了什么宠物":                               "我养了什么宠物",
		"用户表有哪些字段":                               "用户表有哪些字段",
		"用户名最长多少":                                "用户名最长多少",
		"what is my name":                        "what is my name",
	} {
		if got := foldThirdPerson(in); got != want {
			t.Errorf("foldThirdPerson(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAgentAndAskedFacets reads the facets of questions an agent asks in the third person and
// of the first-person forms the store set found missing; software questions stay unread.
func TestAgentAndAskedFacets(t *testing.T) {
	for q, want := range map[string]Facet{
		"what is the user's name":                  FacetName,
		"which city does the user live in?":        FacetHome,
		"what company does the user work at":       FacetWork,
		"is the user married or in a relationship": FacetFamily,
		"do I have pets":                           FacetFamily,
		"用户叫什么":                                    FacetName,
		"用户住哪里":                                    FacetHome,
		"我在哪个城市":                                   FacetHome,
		"用户的雇主是谁":                                  FacetWork,
		"我给谁打工":                                    FacetWork,
		"我有宠物吗":                                    FacetFamily,
		"用户养了什么宠物":                                 FacetFamily,
		"我喜欢什么样的回答":                                FacetManner,
	} {
		if got := facetsOf(q); !slices.Contains(got, want) {
			t.Errorf("facetsOf(%q) = %v, want %v among them", q, got, want)
		}
	}
	for _, q := range []string{"what columns does the users table have", "用户表有哪些字段", "where does the OpenAPI spec live", "which language server do we use", "what timezone does the scheduler use"} {
		if got := facetsOf(q); len(got) != 0 {
			t.Errorf("facetsOf(%q) = %v, want none", q, got)
		}
	}
}

// TestLeans prefers, among the memories that answer a facet, the one that names the part the
// question names: the role for a job title, the employer for who, a dislike for what is hated,
// a pastime for a hobby, the partner for a marriage.
func TestLeans(t *testing.T) {
	notes := map[string]*memory.Memory{
		"role":     {Title: "Role: data engineer", Body: "I'm a data engineer; I own the nightly ETL pipelines."},
		"employer": {Title: "Works at Coolblue", Body: "I work at Coolblue, on the warehouse logistics team."},
		"dislike":  {Title: "不喜欢香菜", Body: "我不喜欢香菜，点菜记得去掉。"},
		"tea":      {Title: "喜欢喝龙井", Body: "我平时喜欢喝龙井，不加糖。"},
		"hobby":    {Title: "喜欢跑步", Body: "我周末喜欢在西湖边跑步。"},
		"partner":  {Title: "Partner Joris", Body: "My partner Joris is a nurse."},
		"home":     {Title: "Based in Rotterdam", Body: "I live in Rotterdam, Kralingen, with my partner."},
	}
	for _, c := range []struct {
		q       string
		asked   Facet
		yes, no string
	}{
		{"what is my job title", FacetWork, "role", "employer"},
		{"who do I work for", FacetWork, "employer", "role"},
		{"我讨厌吃什么", FacetPreference, "dislike", "tea"},
		{"我有什么爱好", FacetPreference, "hobby", "tea"},
		{"am I married", FacetFamily, "partner", "home"},
	} {
		q := facetQuery{asked: []Facet{c.asked}, folded: facetText(c.q)}
		if !q.leans(notes[c.yes]) || q.leans(notes[c.no]) {
			t.Errorf("%q: leans to %s %v (want true), to %s %v (want false)", c.q, c.yes, q.leans(notes[c.yes]), c.no, q.leans(notes[c.no]))
		}
	}
}
