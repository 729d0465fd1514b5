package recall

import (
	"fmt"
	"os"
	"slices"
	"testing"
)

// heldout2Floor is the top-1 count each language of testdata/identity_store_heldout2.json
// must keep in each vector mode (questions: en 60, zh 61). The set was written and committed
// before the concept families (facetconcept.go) and scored once after them (before: en 54,
// zh 55; after: en 56, zh 59, the same in both vector modes); the floors are what that run
// measured, so a change that loses one of those questions fails here. Its misses are left as
// they are: tuning on it would make it one more tuned set.
var heldout2Floor = map[string]int{"en": 56, "zh": 59}

// TestIdentityHeldout2 asks testdata/identity_store_heldout2.json: four homes of people
// nobody tuned for (in Bristol, Austin, Nanjing, Xi'an), each with project, reference and
// feedback notes that share the questions' nouns, in the first and third person. The first
// hit must be one of the person's notes that answer; each language's count of those must stay
// at its floor in each vector mode. ENGRAM_IDENTITY_STORE_SCORE=1 logs each miss and the
// figures.
func TestIdentityHeldout2(t *testing.T) {
	skipUnderRace(t)
	sets := loadIdentitySets(t, "testdata/identity_store_heldout2.json")
	score := os.Getenv("ENGRAM_IDENTITY_STORE_SCORE") != ""
	for _, vectors := range []bool{false, true} {
		top1, top3, asked := map[string]int{}, map[string]int{}, map[string]int{}
		for _, set := range sets {
			e := set.home(t, vectors)
			for _, q := range set.Questions {
				asked[set.Lang]++
				got := slugs(e.search(q.Q))
				if slices.ContainsFunc(got[:min(3, len(got))], func(s string) bool { return slices.Contains(q.Want, s) }) {
					top3[set.Lang]++
				}
				if len(got) > 0 && slices.Contains(q.Want, got[0]) {
					top1[set.Lang]++
				} else if score {
					t.Logf("%s (vectors %v): %q ranks %v, want %v", set.Lang, vectors, q.Q, got[:min(3, len(got))], q.Want)
				}
			}
		}
		for _, lang := range []string{"en", "zh"} {
			line := fmt.Sprintf("%s vectors=%v: top-1 %d / %d, top-3 %d / %d", lang, vectors, top1[lang], asked[lang], top3[lang], asked[lang])
			if score {
				t.Logf("SCORE %s", line)
			}
			if top1[lang] < heldout2Floor[lang] {
				t.Errorf("%s, want top-1 at least %d", line, heldout2Floor[lang])
			}
		}
	}
}
