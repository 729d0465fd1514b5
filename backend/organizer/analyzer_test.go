package organizer

import (
	"math"
	"testing"

	"engram/backend/memory"
)

// NewAnalyzer returns an analyzer that knows no store: every content word weighs 1. Between
// two texts that is what counting them alone gives: a word one of them lacks is held by one
// memory of two (Rarity.Weight 1), and only such words are weighed (TestNewAnalyzerIsTwoTexts).
func NewAnalyzer() *Analyzer { return NewAnalyzerOver(nil) }

// TestNewAnalyzerIsTwoTexts: the tests' NewAnalyzer compares two texts as a corpus of the two
// does, guard and named words alike.
func TestNewAnalyzerIsTwoTexts(t *testing.T) {
	set := loadNearDuplicates(t)
	var pairs [][2]string
	for _, p := range set.Duplicates {
		pairs = append(pairs, [2]string{p.A, p.B})
	}
	for _, p := range set.Distinct {
		pairs = append(pairs, [2]string{p.A, p.B})
	}
	for i, p := range pairs {
		an := NewAnalyzer()
		want := Compare(an.Analyze(p[0]), an.Analyze(p[1]))
		a, b := &memory.Memory{ID: "a", Body: p[0]}, &memory.Memory{ID: "b", Body: p[1]}
		c := NewCorpus([]*memory.Memory{a, b})
		got := Compare(c.Text(a), c.Text(b))
		if math.Abs(got.Score-want.Score) < 1e-12 {
			got.Score = want.Score // vectors are normalised in map order: the last bit may differ
		}
		if got != want {
			t.Errorf("pair %d: corpus of two %+v, NewAnalyzer %+v", i, got, want)
		}
	}
}
