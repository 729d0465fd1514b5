package recall

import (
	"slices"
	"testing"
)

// How the person gets to work was read as the work facet (the employer ranked first); other
// questions that share its words are not commute questions.
func TestCommuteFacetOf(t *testing.T) {
	for _, q := range []string{"how do I get to work", "how do I travel to the office", "do I drive to work",
		"how long is my commute", "how does the user commute", "do I take the train to work", "how do I commute",
		"我怎么去公司", "我每天怎么去公司", "我上班怎么去", "我开车上班吗", "我通勤要多久", "我怎么上班"} {
		got := facetsOf(q)
		if !slices.Contains(got, FacetCommute) || slices.Contains(got, FacetWork) {
			t.Errorf("facetsOf(%q) = %v, want commute and not work", q, got)
		}
	}
	for _, q := range []string{"where do I work", "how do I get the build to work", "how do I get to the docs", "我在哪上班", "怎么去机场"} {
		if got := facetsOf(q); slices.Contains(got, FacetCommute) {
			t.Errorf("facetsOf(%q) = %v, want no commute", q, got)
		}
	}
	for hay, want := range map[string]bool{
		"I cycle to the office; about 25 minutes each way.": true, "I commute by train from Headingley.": true,
		"我每天坐地铁1号线上班，四十分钟。": true, "我骑电动车上班，二十分钟。": true, "Commute: 501 streetcar, ~35 min.": true,
		"I work at Coolblue.": false, "我在网易上班。": false, "The bus API lives in docs/.": false,
	} {
		if got := statesFacet(FacetCommute, hay); got != want {
			t.Errorf("statesFacet(commute, %q) = %v, want %v", hay, got, want)
		}
	}
}
