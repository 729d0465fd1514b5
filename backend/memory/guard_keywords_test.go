package memory

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The one-pass keyword index finds exactly the rules whose keywords a text holds, as asking
// each keyword in turn does: on texts made of keywords, their pieces and their overlaps at
// every position, and on plain prose in two languages.
func TestKeywordIndexAgreesWithContains(t *testing.T) {
	if len(secretRules) > 128 {
		t.Fatalf("%d secret rules; ruleSet holds 128", len(secretRules))
	}
	var words []string
	for _, r := range secretRules {
		for _, w := range r.keywords {
			if w != strings.ToLower(w) {
				t.Errorf("keyword %q is not lowercase: the text it is matched in is", w)
			}
			words = append(words, w)
		}
	}
	r := rand.New(rand.NewPCG(8, 14))
	pieces := append([]string{" ", "\n", "a", "-", "_", "the quick brown fox", "我的猫叫豆豆", "glass", "sk", "skill"}, words...)
	texts := []string{"", "plain text with nothing in it", "English gloss, glad and ugly", "住在南京，喝茶。"}
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for k := r.IntN(12); k >= 0; k-- {
			p := pieces[r.IntN(len(pieces))]
			if r.IntN(3) == 0 && len(p) > 1 {
				p = p[:1+r.IntN(len(p)-1)] // a keyword cut short
			}
			b.WriteString(p)
		}
		texts = append(texts, strings.ToLower(b.String()))
	}
	for _, text := range texts {
		got := secretKeywords.scan(text)
		for i, rule := range secretRules {
			if want := containsAny(text, rule.keywords); got.has(i) != want {
				t.Fatalf("rule %d (%s) on %q: index says %v, strings.Contains %v", i, rule.kind, text, got.has(i), want)
			}
		}
	}
}
