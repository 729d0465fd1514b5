package organizer

// The guards of a near-duplicate match: what two texts may not differ in for a merge of them to
// be applied without a person (symbols, numbers, negations, words of meaning, a swapped content
// word, and key words rare in the store; contained texts: contain.go).

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"engram/backend/text"
)

// Guard is why a match is not trusted on its own.
type Guard string

// Guards.
const (
	GuardNone Guard = ""
	// GuardSymbols: equal or contained once symbols are dropped, but not with them (C++ / C#).
	GuardSymbols Guard = "symbols"
	// GuardMarks: a number or a negation on one side only.
	GuardMarks Guard = "numbers_or_negation"
	// GuardWords: a content word swapped for another, or content words rare in the store on
	// one side only (DistinctLimit).
	GuardWords Guard = "key_words"
	// GuardMeaning: a word that sets what a statement says (meaningWords: "before" / "after",
	// "on" / "off", "must" / "may") or one of a pair of opposites differs.
	GuardMeaning Guard = "meaning_words"
)

// negations are words whose presence on one side only can flip a statement's meaning.
var negations = map[string]bool{
	"not": true, "no": true, "never": true, "none": true, "nothing": true, "neither": true, "nor": true,
	"without": true, "cannot": true, "dont": true, "doesnt": true, "didnt": true, "isnt": true,
	"arent": true, "wasnt": true, "werent": true, "wont": true, "cant": true, "shouldnt": true,
	"wouldnt": true, "couldnt": true, "hasnt": true, "havent": true, "nicht": true, "kein": true,
}

// marksMeaning reports whether a token carries a number or a negation.
func marksMeaning(tok string) bool {
	if negations[tok] {
		return true
	}
	for _, r := range tok {
		if unicode.IsDigit(r) || strings.ContainsRune(negationRunes, r) {
			return true
		}
	}
	return false
}

// symbolGuard guards an exact or contained match whose texts differ once the symbols of their
// words are kept (differ): "written in C++" and "in C#" are one text to Normalize.
func symbolGuard(m Match, differ bool) Match {
	if differ {
		m.Guarded, m.Guard = true, GuardSymbols
	}
	return m
}

// fuzzyGuard guards a cosine or Jaccard match. Overlapping wording alone is no proof that two
// texts say the same thing: "the user prefers nginx for every new project" and "… kafka …"
// share twelve words of thirteen. So, in this order:
//   - the words that set what a statement says (meaningUnits: "before" / "after", "on" /
//     "off", "must" / "may", opposites such as "enable" / "disable") must be the same on both
//     sides (GuardMeaning, naming them);
//   - no content word may be swapped for another: when each side holds a content word the
//     other lacks, the two name different things ("in staging" / "in production"), however
//     common the words are in the store; content words on one side only (an addition) must be
//     ones the store uses everywhere (distinction below DistinctLimit; GuardWords);
//   - no number or negation may stand on one side only (GuardMarks).
//
// Exact texts need none of this (merging them loses nothing); contained ones have their own
// guard (containGuard).
func fuzzyGuard(m Match, a, b *Text) Match {
	if w := meaningDiffers(a.meaning, b.meaning); w != "" {
		m.Guarded, m.Guard, m.Words = true, GuardMeaning, w
		return m
	}
	switch {
	case differ(a.content, b.content) && differ(b.content, a.content), distinction(a, b) >= DistinctLimit:
		m.Guarded, m.Guard = true, GuardWords
	case guarded(a, b):
		m.Guarded, m.Guard = true, GuardMarks
	}
	return m
}

// differ reports whether x holds a unit y lacks.
func differ(x, y map[string]string) bool {
	for u := range x {
		if _, ok := y[u]; !ok {
			return true
		}
	}
	return false
}

// guarded reports whether a token carrying a number or a negation appears on one side only.
func guarded(a, b *Text) bool {
	for id := range a.marked {
		if !b.marked[id] {
			return true
		}
	}
	for id := range b.marked {
		if !a.marked[id] {
			return true
		}
	}
	return false
}

// DistinctLimit is how much distinguishing content the two texts of a fuzzy match may differ in
// and still be trusted as near-duplicates: the sum, over the content words one text holds and
// the other lacks, of each word's rarity in the store (Rarity.Weight, 0–1). One word reaches it
// alone when at most about √N of the store's N memories hold it: a word few memories hold
// ("nginx" where the other says "kafka") is over the limit on its own, a word most memories hold
// ("user", or "prefers" in a store of preferences) is not, and several common words add up. It
// weighs additions only: a content word swapped for another is guarded whatever its rarity
// (fuzzyGuard). A store too small to know what is common (every word rare) passes only
// differences in plain stop words, inflections and order.
const DistinctLimit = 0.5

// maxShownWords is how many distinguishing words a decision's reason names per side.
const maxShownWords = 3

// Rarity is the vocabulary of the store a run reads: in how many memories each content word
// occurs. Cosine and Jaccard over wording cannot tell "the user prefers nginx for every new
// project" from "… prefers kafka …" (twelve words of thirteen agree); what tells them apart is
// that the words they differ in are rare in the store, so they say what each memory is about.
// A Rarity is filled before any comparison and only read after.
type Rarity struct {
	docs int
	df   map[string]int
}

// NewRarity returns an empty vocabulary.
func NewRarity() *Rarity { return &Rarity{df: map[string]int{}} }

// Add counts the content words of one memory's body.
func (r *Rarity) Add(body string) { r.addUnits(contentUnits(Normalize(body))) }

func (r *Rarity) addUnits(units map[string]string) {
	r.docs++
	for u := range units {
		r.df[u]++
	}
}

// Weight is how much a content word distinguishes the memories holding it: 1 for a word one
// memory holds (or none: a text the store has not seen), falling towards 0 as more memories
// hold it — ln((N+1)/df) / ln(N+1) over the N memories counted. Below two memories every
// word weighs 1: nothing is known to be common.
func (r *Rarity) Weight(unit string) float64 {
	if r == nil || r.docs < 2 {
		return 1
	}
	df := min(max(r.df[unit], 1), r.docs)
	w := math.Log(float64(r.docs+1)/float64(df)) / math.Log(float64(r.docs+1))
	return math.Max(0, math.Min(1, w))
}

// contentUnits maps the content words of normalised text to a surface form to show: English
// words that are not stop words, by their Porter stem ("editors" and "editor" are one), and
// the characters of CJK runs once their function words are cut out (text.Chunks). A CJK
// character rather than a bigram: reordering a Chinese sentence makes new bigrams across word
// boundaries but no new characters, while a different thing named ("乌龙茶" / "普洱茶") brings
// different characters. Numbers and negations are left out: the guard of marked tokens
// covers them.
func contentUnits(norm string) map[string]string {
	out := map[string]string{}
	for _, tok := range text.Split(norm) {
		if tok.CJK {
			for _, chunk := range text.Chunks(tok.Text) {
				for _, r := range chunk {
					if !strings.ContainsRune(negationRunes, r) && !unicode.IsDigit(r) {
						out[string(r)] = string(r)
					}
				}
			}
			continue
		}
		if text.IsStop(tok.Text) || marksMeaning(tok.Text) {
			continue
		}
		st := text.Stem(tok.Text)
		if _, ok := out[st]; !ok {
			out[st] = tok.Text
		}
	}
	return out
}

// negationRunes are the CJK characters that negate; marksMeaning guards them.
const negationRunes = "不没别无非未勿否"

// distinction sums the rarity of the content words a holds and b lacks, and the reverse.
func distinction(a, b *Text) float64 {
	return only(a.content, b.content, a.rarity, nil) + only(b.content, a.content, a.rarity, nil)
}

// keyWords names the rarest content words each of a and b holds and the other lacks, for the
// reason of a match guarded by them ("nginx / kafka"): computed for the proposals a planner
// makes, never for every comparison.
func keyWords(a, b *Text) string {
	da, db := map[string]float64{}, map[string]float64{}
	only(a.content, b.content, a.rarity, da)
	only(b.content, a.content, a.rarity, db)
	return distinctWords(shown(a, da), shown(b, db))
}

// only sums the weights of the units of x that y lacks; a non-nil diff receives them with
// their weights.
func only(x, y map[string]string, r *Rarity, diff map[string]float64) float64 {
	var sum float64
	for u := range x {
		if _, ok := y[u]; ok {
			continue
		}
		w := r.Weight(u)
		sum += w
		if diff != nil {
			diff[u] = w
		}
	}
	return sum
}

// shown lists at most maxShownWords of t's distinguishing units (diff) as a person reads them:
// words by their surface form, the rarest first; CJK characters as the runs they stand in
// ("乌龙", not "乌, 龙").
func shown(t *Text, diff map[string]float64) []string {
	type item struct {
		s string
		w float64
		i int
	}
	var items []item
	var run []rune
	var runW float64
	flush := func() {
		if len(run) > 0 {
			items = append(items, item{string(run), runW, len(items)})
			run, runW = nil, 0
		}
	}
	for _, r := range t.Norm {
		if w, ok := diff[string(r)]; ok && text.IsCJK(r) {
			run, runW = append(run, r), max(runW, w)
			continue
		}
		flush()
	}
	flush()
	for u, w := range diff {
		if s := t.content[u]; !text.HasCJK(s) {
			items = append(items, item{s, w, len(items)})
		}
	}
	sort.Slice(items, func(i, j int) bool {
		if items[i].w != items[j].w {
			return items[i].w > items[j].w
		}
		if text.HasCJK(items[i].s) && text.HasCJK(items[j].s) {
			return items[i].i < items[j].i
		}
		return items[i].s < items[j].s
	})
	var out []string
	seen := map[string]bool{}
	for _, it := range items {
		if len(out) == maxShownWords {
			break
		}
		if !seen[it.s] {
			seen[it.s] = true
			out = append(out, it.s)
		}
	}
	return out
}

// distinctWords renders the distinguishing words of both sides for a reason: "nginx / kafka",
// or one side alone when the other adds nothing.
func distinctWords(onlyA, onlyB []string) string {
	var parts []string
	for _, side := range [][]string{onlyA, onlyB} {
		if len(side) > 0 {
			parts = append(parts, strings.Join(side, ", "))
		}
	}
	return strings.Join(parts, " / ")
}
