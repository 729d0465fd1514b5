package organizer

// The guard of a contained match: "Mock the database in integration tests." lies word for word
// inside "Never mock the database in integration tests.", yet the longer text says the
// opposite. A containment loses nothing only when the shorter text's statement still stands in
// the longer one: the words around it are clauses of their own that add to it, not words
// inside its clause that change it.

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"engram/backend/text"
)

// Strengths of a boundary between two pieces of a normalised text.
const (
	boundWord     int8 = iota // a space between words of one clause
	boundClause               // , ， 、 : ： ( ) — and the like
	boundSentence             // . ! ? followed by a space, 。！？；; and line breaks
)

// containGuard guards a containment of small in large whose extra words may change what small
// says (unguarded for the first occurrence of small whose extras are harmless):
//   - words joined to small's own clause (before it without a sentence break, after it
//     without a clause break) change it when they hold a number or a negation (GuardMarks),
//     a word of meaningWords ("before", "only", "must") or a contrast (GuardMeaning), or
//     content words rare in the store (GuardWords, DistinctLimit);
//   - clauses of their own only add to it, unless they restrict or take it back: a contrast
//     word ("except", "anymore", "但是"), the opposite of one of small's words ("off" after
//     "on"; GuardMeaning), or a number or a negation with no new content word to apply to
//     ("… Not at all."; GuardMarks).
//
// The match's Words names what changes it.
func containGuard(m Match, small, large *Text) Match {
	bounds := clauseBounds(large.body, large.Norm)
	var first Match
	for i, start := range boundaryMatches(large.Norm, small.Norm, -1) {
		end := start + len(small.Norm)
		g, words := GuardNone, ""
		before := large.Norm[:start]
		if s := bounds[start-1]; start > 0 && s < boundSentence {
			g, words = changesClause(small, before)
		} else if start > 0 {
			g, words = addsClauses(small, before, bounds, 0)
		}
		if g == GuardNone && end < len(large.Norm) {
			after := large.Norm[end:]
			if bounds[end] == boundWord {
				g, words = changesClause(small, after)
			} else {
				g, words = addsClauses(small, after, bounds, end)
			}
		}
		if g == GuardNone {
			return m
		}
		if i == 0 {
			first = m
			first.Guarded, first.Guard, first.Words = true, g, words
		}
	}
	if first.Guard == GuardNone { // no occurrence at word boundaries: cannot happen for a containment
		return m
	}
	return first
}

// changesClause judges words joined to small's clause.
func changesClause(small *Text, extra string) (Guard, string) {
	if w := markedWords(extra); w != "" {
		return GuardMarks, w
	}
	if mu := meaningWordsOf(meaningUnits(extra)); len(mu) > 0 {
		return GuardMeaning, strings.Join(sortedSurface(mu, nil), ", ")
	}
	diff := map[string]float64{}
	if only(contentUnits(extra), small.content, small.rarity, diff) >= DistinctLimit {
		t := &Text{Norm: extra, content: contentUnits(extra)}
		return GuardWords, strings.Join(shown(t, diff), ", ")
	}
	return GuardNone, ""
}

// addsClauses judges clauses of their own added to small: extra is large.Norm from offset off
// on (or up to it when off is 0 and extra ends where small starts), cut at bounds.
func addsClauses(small *Text, extra string, bounds map[int]int8, off int) (Guard, string) {
	if w := contrastIn(extra); w != "" {
		return GuardMeaning, w
	}
	if w := opposed(meaningUnits(extra), small.meaning); w != "" {
		return GuardMeaning, w
	}
	for _, clause := range cutClauses(extra, bounds, off) {
		w := markedWords(clause)
		if w == "" {
			continue
		}
		fresh := false
		for u := range contentUnits(clause) {
			if _, ok := small.content[u]; !ok {
				fresh = true
				break
			}
		}
		if !fresh {
			return GuardMarks, w
		}
	}
	return GuardNone, ""
}

// markedWords names the words of normalised text that carry a number or a negation; in CJK
// runs, a negation with the character after it ("不再") or a run of digits.
func markedWords(norm string) string {
	var out []string
	seen := map[string]bool{}
	add := func(w string) {
		if !seen[w] && len(out) < maxShownWords {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, tok := range text.Split(norm) {
		if !tok.CJK {
			if marksMeaning(tok.Text) {
				add(tok.Text)
			}
			continue
		}
		rs := []rune(tok.Text)
		for i := 0; i < len(rs); i++ {
			switch {
			case strings.ContainsRune(negationRunes, rs[i]):
				add(string(rs[i:min(i+2, len(rs))]))
			case unicode.IsDigit(rs[i]):
				j := i
				for j < len(rs) && unicode.IsDigit(rs[j]) {
					j++
				}
				add(string(rs[i:j]))
				i = j - 1
			}
		}
	}
	return strings.Join(out, ", ")
}

// contrastIn names the first contrast word of normalised text.
func contrastIn(norm string) string {
	for _, tok := range text.Split(norm) {
		if !tok.CJK && contrastWords[tok.Text] {
			return tok.Text
		}
		for _, w := range cjkContrastWords {
			if tok.CJK && strings.Contains(tok.Text, w) {
				return w
			}
		}
	}
	return ""
}

// cutClauses cuts extra, the part of a normalised text at offset off, at the clause and
// sentence bounds that fall inside it.
func cutClauses(extra string, bounds map[int]int8, off int) []string {
	var cuts []int
	for p, s := range bounds {
		if s > boundWord && p > off && p < off+len(extra) {
			cuts = append(cuts, p-off)
		}
	}
	sort.Ints(cuts)
	var out []string
	prev := 0
	for _, c := range cuts {
		out = append(out, strings.TrimSpace(extra[prev:c]))
		prev = c
	}
	return append(out, strings.TrimSpace(extra[prev:]))
}

// clauseBounds maps the offsets of the spaces of norm (Normalize(body)) that stand for a
// clause or sentence break in body to its strength; nil when body's pieces do not normalise
// to norm (every space is then a word boundary: the stricter reading).
func clauseBounds(body, norm string) map[int]int8 {
	bounds := map[int]int8{}
	var b strings.Builder
	pending := boundWord
	emit := func(piece string, s int8) {
		n := Normalize(piece)
		if n == "" {
			pending = max(pending, s)
			return
		}
		if b.Len() > 0 {
			bounds[b.Len()] = pending
			b.WriteByte(' ')
		}
		b.WriteString(n)
		pending = s
	}
	start := 0
	for i := 0; i < len(body); {
		r, size := utf8.DecodeRuneInString(body[i:])
		if s := breakStrength(r, body[i+size:]); s > boundWord {
			emit(body[start:i], s)
			start = i + size
		}
		i += size
	}
	emit(body[start:], boundWord)
	if b.String() != norm {
		return nil
	}
	return bounds
}

// breakStrength is the strength of the break r makes, followed by rest.
func breakStrength(r rune, rest string) int8 {
	switch r {
	case '。', '！', '？', '；', ';', '\n':
		return boundSentence
	case '.', '!', '?', '…':
		next, _ := utf8.DecodeRuneInString(rest)
		if rest == "" || unicode.IsSpace(next) || strings.ContainsRune(`"')]}»”’`, next) {
			return boundSentence
		}
	case ',', '，', '、', ':', '：', '(', ')', '（', '）', '—', '–':
		return boundClause
	}
	return boundWord
}

// boundaryMatches returns the offsets at which needle occurs in hay starting and ending at
// word boundaries, at most limit of them (all when limit < 0); next to CJK text any position
// is a boundary (CJK is written without spaces).
func boundaryMatches(hay, needle string, limit int) []int {
	var out []int
	if needle == "" {
		return nil
	}
	first, _ := utf8.DecodeRuneInString(needle)
	last, _ := utf8.DecodeLastRuneInString(needle)
	for off := 0; off <= len(hay)-len(needle) && limit != 0; {
		i := strings.Index(hay[off:], needle)
		if i < 0 {
			break
		}
		start := off + i
		end := start + len(needle)
		before, _ := utf8.DecodeLastRuneInString(hay[:start])
		after, _ := utf8.DecodeRuneInString(hay[end:])
		okLeft := start == 0 || before == ' ' || text.IsCJK(first) || text.IsCJK(before)
		okRight := end == len(hay) || after == ' ' || text.IsCJK(last) || text.IsCJK(after)
		if okLeft && okRight {
			out = append(out, start)
			limit--
		}
		_, size := utf8.DecodeRuneInString(hay[start:])
		off = start + size
	}
	return out
}
