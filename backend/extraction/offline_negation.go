package extraction

import (
	"strings"

	"engram/backend/text"
)

// Negated and contrasted items are not the person's tools or topics: "I use Go, not Java",
// "I use Python but not Django", "I never use vim", "我用 Go 写后端，不用 Java" say nothing
// in favour of Java, Django, vim. positiveOnly blanks such spans before tools are read from a
// sentence, so no "uses" relation, preferred tool or recent topic comes from them. A span
// runs from the negation or contrast word to the end of its clause: a comma or stop, a "but",
// or a preposition that starts the context ("don't use semicolons in JavaScript": JavaScript
// is still the topic).
var (
	negEN = text.Lazy(`\b(?:not|never|no|nor|don't|don’t|dont|doesn't|doesn’t|didn't|didn’t|won't|won’t|can't|can’t|cannot|isn't|aren't|wasn't|weren't|without|instead of|rather than|except|other than|over|than|avoid|avoiding|stopped|quit)\b`)
	// negEndEN ends a negated span: punctuation, a turn of the sentence, or the context.
	negEndEN = text.Lazy(`[,;:.!?()]|\s(?:but|though|although|yet|however|and i|and we|so|because|in|for|on|at|when|while|since)\b`)
	negZH    = text.Lazy(`(?:从来不|从不|不再|没有|很少|不|没|别)(?:太|怎么|再|会|想)?(?:用|使用|喜欢|爱|碰|写|学|装|要|选)|而不是|而非|并非|不是`)
	negEndZH = text.Lazy(`[，,；;。！!？?：:（(]|但是|但|可是|而是|只用|只是`)
)

// positiveOnly returns the lower-cased sentence l (same length, same offsets) with its
// negated and contrasted spans blanked.
func positiveOnly(l string) string {
	var spans [][2]int
	for _, lang := range [2][2]*text.Regexp{{negEN, negEndEN}, {negZH, negEndZH}} {
		covered := 0
		for _, m := range lang[0].FindAllStringIndex(l, -1) {
			// A negation inside the previous span ends where it does: skipping it keeps a
			// sentence of a thousand "no"s linear.
			if m[0] < covered {
				continue
			}
			covered = spanEnd(l, m[1], lang[1])
			spans = append(spans, [2]int{m[0], covered})
		}
	}
	if len(spans) == 0 {
		return l
	}
	b := []byte(l)
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			b[i] = ' ' // spans start and end on rune boundaries: whole runes become spaces
		}
	}
	return string(b)
}

// spanEnd is where the negated span starting before i ends.
func spanEnd(l string, i int, end *text.Regexp) int {
	if m := end.FindStringIndex(l[i:]); m != nil {
		return i + m[0]
	}
	return len(l)
}

// hedged reports a sentence that states nothing firmly ("I'm not sure I prefer Go",
// "也许我会用 Kafka"): its tools are no topic of the person's either.
func hedged(s *sentence) bool {
	if s.cjk {
		return zhHedge.MatchString(s.mask)
	}
	return enHedge.MatchString(s.lower)
}

// clauseOf cuts the lower-cased text l at its first clause end, so a dislike's objects are
// those of its own clause ("我不喜欢 Java，我用 Go": Java only).
func clauseOf(l string) string {
	if i := strings.IndexAny(l, ",;，；。!?！？"); i >= 0 {
		return l[:i]
	}
	return l
}
