package recall

import (
	"slices"
	"testing"

	"engram/backend/memory"
)

// TestTitleFacets: a title that is a label names its facet; other titles name none.
func TestTitleFacets(t *testing.T) {
	cases := []struct {
		title string
		want  []Facet
	}{
		{"Tom's job", []Facet{FacetWork}},
		{"Home and roots", []Facet{FacetHome, FacetOrigin}},
		{"Working life", []Facet{FacetWork}},
		{"drinks + cab music", []Facet{FacetPreference}},
		{"Food likes", []Facet{FacetPreference}},
		{"口味", []Facet{FacetPreference}},
		{"住处和老家", []Facet{FacetHome, FacetOrigin}},
		{"DOB", []Facet{FacetAge}},
		{"Kasia", nil},
		{"Buying a house", nil},
		{"Job queue retries", nil},
		{"猫", nil},
		{"", nil},
	}
	for _, c := range cases {
		got := titleFacets(c.title)
		if !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("titleFacets(%q) = %v, want %v", c.title, got, c.want)
		}
	}
	m := &memory.Memory{Type: memory.TypeUser, Title: "Tom's job", Body: "Tom drives the 6 and the 49 for First Bus."}
	if !answersFacet([]Facet{FacetWork}, m) {
		t.Error("a note titled as the person's job does not answer the work facet")
	}
}

// TestRestrictionsDoNotAnswerTastes: a note of restrictions only is not what the person likes,
// but it does answer whether they may eat or drink something.
func TestRestrictionsDoNotAnswerTastes(t *testing.T) {
	m := &memory.Memory{Type: memory.TypeUser, Title: "医生交代的忌口", Body: "痛风，海鲜、啤酒、动物内脏都不能碰。"}
	if newFacetQuery(Analyze("我最爱吃什么", t0, t0.Location()), nil).boosts(m) {
		t.Error("restrictions answered a question about what the person loves")
	}
	if !newFacetQuery(Analyze("我能喝啤酒吗", t0, t0.Location()), nil).boosts(m) {
		t.Error("restrictions did not answer whether the person may drink beer")
	}
}
