package recall

import (
	"context"
	"strings"
	"unicode"

	"engram/backend/memory"
	"engram/backend/text"
)

// A question about the person typed in a hurry ("whats my nmae", "where do i lvie", "wher do
// i liv") matched no facet form and no memory word: it found journal noise and never the
// note that answers it. A word of an English question (ASCII letters, three or more) that no
// memory holds and that is one edit (a letter added, dropped, changed, or two swapped) from
// exactly one of the words questions about the person are asked with (questionWords) is read
// as that word; a three-letter word only as one missing a letter. The
// corrected question is kept only when it then asks about the person (it has facets): every
// other search goes on with what was typed. A word any memory holds is never a typo ("lie"
// stays "lie" where a note says it), and words shorter than three letters are left alone.

// questionWords are the words the facet forms ask with, in full.
var questionWords = strings.Fields(`where what when which whom whose live lives living based reside name names called
call nickname work works working job employer company office role title occupation profession born birthday birth
old age married wife husband partner girlfriend boyfriend spouse kids children daughter son dog cat pet pets family
mother father brother sister parents speak language languages timezone drink drinks eat food coffee tea favourite
favorite like likes love hate dislike prefer allergic allergy allergies diet vegetarian vegan hobby hobbies music
listen watch read play sport team commute travel drive cycle train home address city town country from grow grew
raised originally usually normally phone number email contact doctor medication medicine blood school study studied
university degree afraid scared fear goal plan want tools editor shell answer answers reply style should does have`)

var questionWordSet = func() map[string]bool {
	m := make(map[string]bool, len(questionWords))
	for _, w := range questionWords {
		m[w] = true
	}
	return m
}()

// Kinds of one edit from a typed word to a meant one, most likely first: two letters
// swapped, a letter dropped, a letter added, a letter changed.
const (
	editSwap = iota
	editDropped
	editAdded
	editChanged
	editNone
)

// oneEdit says how typed is one edit from meant (editNone when it is not).
func oneEdit(typed, meant string) int {
	lt, lm := len(typed), len(meant)
	switch {
	case lt == lm:
		diff := -1
		for i := 0; i < lt; i++ {
			if typed[i] != meant[i] {
				if diff >= 0 {
					// A second difference: two swapped letters, and nothing else.
					if i == diff+1 && typed[diff] == meant[i] && typed[i] == meant[diff] && typed[i+1:] == meant[i+1:] {
						return editSwap
					}
					return editNone
				}
				diff = i
			}
		}
		if diff < 0 {
			return editNone
		}
		return editChanged
	case lt+1 == lm:
		for i := 0; i < lm; i++ {
			if meant[:i]+meant[i+1:] == typed {
				return editDropped
			}
		}
	case lt == lm+1:
		for i := 0; i < lt; i++ {
			if typed[:i]+typed[i+1:] == meant {
				return editAdded
			}
		}
	}
	return editNone
}

// meantWord is the question word typed is one edit from, "" when none or when two are equally
// near.
func meantWord(typed string) string {
	best, kind, tied := "", editNone, false
	for _, w := range questionWords {
		k := oneEdit(typed, w)
		switch {
		case k < kind:
			best, kind, tied = w, k, false
		case k == kind && k != editNone:
			tied = true
		}
	}
	if tied {
		return ""
	}
	return best
}

// foldTypos reads the typos of an English question (see above); ok reports a change.
func (s *Service) foldTypos(ctx context.Context, q string) (string, bool) {
	if text.HasCJK(q) {
		return q, false
	}
	changed := false
	var b strings.Builder
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := q[start:end]
		start = -1
		if fixed := s.typoFix(ctx, w); fixed != "" {
			b.WriteString(fixed)
			changed = true
			return
		}
		b.WriteString(w)
	}
	for i, r := range q {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || r == '\'' {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		b.WriteRune(r)
	}
	flush(len(q))
	return b.String(), changed
}

// asciiWord reports a word of ASCII letters only: "café" is no typo of "cat".
func asciiWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

// typoFix is the question word w stands for, "" when it is none or no typo.
func (s *Service) typoFix(ctx context.Context, w string) string {
	lw := strings.ToLower(w)
	if len(lw) < 3 || !asciiWord(lw) || questionWordSet[lw] || text.IsStop(lw) || textingWords[lw] != "" {
		return ""
	}
	meant := meantWord(lw)
	if meant == "" || (len(lw) == 3 && oneEdit(lw, meant) != editDropped) {
		// Three letters are read only as a word missing one ("liv"): "caf" is not "cat".
		return ""
	}
	if n, err := s.store.WordDocCount(ctx, memory.QuoteWords(lw)); err != nil || n > 0 {
		return "" // a word the memories use is not a typo
	}
	return meant
}
