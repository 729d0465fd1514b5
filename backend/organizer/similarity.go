package organizer

import (
	"engram/backend/text"
	"math"
	"sort"
	"strings"
	"unicode"
)

// Tier names how two memories were found to be near-duplicates, strongest first. The tiers
// follow the consolidation ladder of the reference design: containment of one normalised
// body in the other, cosine over word and character n-gram vectors, Jaccard over word sets.
type Tier string

// Tiers.
const (
	TierNone        Tier = ""
	TierExact       Tier = "exact"
	TierContainment Tier = "containment"
	TierCosine      Tier = "cosine"
	TierJaccard     Tier = "jaccard"
	// TierAge is not a similarity: it marks mark_review decisions proposed for stale entries.
	TierAge Tier = "age"
)

// Thresholds of the fuzzy tiers and the smallest text the containment tier trusts.
const (
	CosineThreshold  = 0.90
	JaccardThreshold = 0.85
	// MinContainedTokens is the fewest tokens a body must have before its containment in
	// another counts: "uses go" inside a long note says nothing.
	MinContainedTokens = 4
	// MinFuzzyTokens is the fewest tokens both bodies need for the cosine and Jaccard tiers.
	MinFuzzyTokens = 3
)

// Weights of the three vector spaces in the combined cosine; they sum to 1, so the combined
// cosine is the weighted mean of the per-space cosines.
const (
	weightWords   = 0.4
	weightBigrams = 0.3
	weightChars   = 0.3
)

// Normalize folds a body to the form the tiers compare: lower case, full-width ASCII folded,
// apostrophes inside words dropped ("don't" → "dont"), every other non-letter, non-digit
// character a space, runs of spaces collapsed.
func Normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	pendingSpace := false
	var prev rune
	runes := []rune(s)
	for i, r := range runes {
		r = unicode.ToLower(foldWidth(r))
		if (r == '\'' || r == '’') && unicode.IsLetter(prev) && i+1 < len(runes) && unicode.IsLetter(runes[i+1]) {
			continue
		}
		prev = r
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			if pendingSpace && b.Len() > 0 {
				b.WriteByte(' ')
			}
			pendingSpace = false
			b.WriteRune(r)
			continue
		}
		pendingSpace = true
	}
	return b.String()
}

// Tokens splits normalised text into words; a run of CJK characters becomes its overlapping
// character bigrams (one character alone stays a token), as the index segments it.
func Tokens(norm string) []string {
	var out []string
	for _, field := range strings.Fields(norm) {
		var word, cjk []rune
		flushWord := func() {
			if len(word) > 0 {
				out = append(out, string(word))
				word = word[:0]
			}
		}
		flushCJK := func() {
			if len(cjk) > 0 {
				out = append(out, text.Bigrams(string(cjk))...)
				cjk = cjk[:0]
			}
		}
		for _, r := range field {
			if text.IsCJK(r) {
				flushWord()
				cjk = append(cjk, r)
				continue
			}
			flushCJK()
			word = append(word, r)
		}
		flushWord()
		flushCJK()
	}
	return out
}

// feature is one dimension of a sparse vector, features sorted by id.
type feature struct {
	id int32
	w  float64
}

// Text is one body analysed for comparison. Texts compared with each other must come from
// the same Analyzer (they share its vocabulary).
type Text struct {
	Norm string
	// Strict is the text with the symbols its words carry (StrictNorm): "C++" and "C#", "-1"
	// and "1" are one word to Norm, not to Strict.
	Strict string
	Tokens []string
	set    []int32 // sorted unique token ids
	words  []feature
	bigram []feature
	chars  []feature
	marked map[int32]bool // token ids that carry a number or a negation
	// content maps the text's content words (stems, CJK characters) to a surface form, and
	// rarity weighs them (its Analyzer's vocabulary).
	content map[string]string
	rarity  *Rarity
	// meaning maps the words that set what the text says (meaningUnits) to a surface form;
	// body is the text as written, whose sentence and clause marks containGuard reads.
	meaning map[string]string
	body    string
}

// Analyzer interns the features of the texts it analyses; texts compared with each other must
// come from one Analyzer. It weighs content words by the vocabulary it was given (Rarity),
// which it only reads: a run analyses every memory once into a Corpus, which counts them.
type Analyzer struct {
	vocab  map[string]int32
	rarity *Rarity
}

// NewAnalyzerOver returns an analyzer that weighs content words by the store's vocabulary r,
// which counts the texts it will analyse (NewCorpus); a nil r knows no store, and every
// content word weighs 1.
func NewAnalyzerOver(r *Rarity) *Analyzer {
	return &Analyzer{vocab: map[string]int32{}, rarity: r}
}

func (a *Analyzer) id(s string) int32 {
	if id, ok := a.vocab[s]; ok {
		return id
	}
	id := int32(len(a.vocab))
	a.vocab[s] = id
	return id
}

// Analyze normalises body and computes its token set and vectors.
func (a *Analyzer) Analyze(body string) *Text {
	t := &Text{Norm: Normalize(body), Strict: StrictNorm(body), rarity: a.rarity, body: body}
	t.Tokens = Tokens(t.Norm)
	t.content = contentUnits(t.Norm)
	t.meaning = meaningUnits(t.Norm)
	words := map[int32]float64{}
	t.marked = map[int32]bool{}
	for _, tok := range t.Tokens {
		id := a.id("w\x00" + tok)
		words[id]++
		if marksMeaning(tok) {
			t.marked[id] = true
		}
	}
	t.set = make([]int32, 0, len(words))
	for id := range words {
		t.set = append(t.set, id)
	}
	sort.Slice(t.set, func(i, j int) bool { return t.set[i] < t.set[j] })
	t.words = unit(words)
	bi := map[int32]float64{}
	for i := 0; i+1 < len(t.Tokens); i++ {
		bi[a.id("b\x00"+t.Tokens[i]+" "+t.Tokens[i+1])]++
	}
	t.bigram = unit(bi)
	ch := map[int32]float64{}
	r := []rune(t.Norm)
	for i := 0; i+3 <= len(r); i++ {
		ch[a.id("c\x00"+string(r[i:i+3]))]++
	}
	t.chars = unit(ch)
	return t
}

func unit(m map[int32]float64) []feature {
	out := make([]feature, 0, len(m))
	var n float64
	for id, w := range m {
		out = append(out, feature{id, w})
		n += w * w
	}
	n = math.Sqrt(n)
	for i := range out {
		out[i].w /= n
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

func dot(a, b []feature) float64 {
	var s float64
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].id == b[j].id:
			s += a[i].w * b[j].w
			i++
			j++
		case a[i].id < b[j].id:
			i++
		default:
			j++
		}
	}
	return s
}

// Match is the result of comparing two texts.
type Match struct {
	Tier  Tier    `json:"tier"`
	Score float64 `json:"score"`
	// Contained is -1 when a lies inside b, 1 when b lies inside a, 0 otherwise or when equal.
	Contained int `json:"contained"`
	// Guarded is set on a fuzzy match whose texts differ in a number, a negation, a word of
	// meaning or distinguishing content words, on a contained one whose longer text adds words
	// that may change the shorter (containGuard), and on an exact or contained one whose texts
	// differ in the symbols of a word: they may say different or opposite things, so the match must not be
	// trusted on its own. Guard says which.
	Guarded bool  `json:"guarded"`
	Guard   Guard `json:"guard,omitempty"`
	// Words names, for GuardWords, the rarest content words each side holds and the other
	// lacks ("nginx / kafka"): Compare names them, the offline planner only for the merges it
	// proposes. For GuardMeaning it names the words of meaning that differ ("before / after"),
	// and for a guarded containment the longer text's words that change the shorter.
	Words string `json:"words,omitempty"`
}

// Cosine is the weighted cosine of two texts over words, word bigrams and character trigrams.
func Cosine(a, b *Text) float64 {
	return weightWords*dot(a.words, b.words) + weightBigrams*dot(a.bigram, b.bigram) + weightChars*dot(a.chars, b.chars)
}

// Jaccard is |A∩B| / |A∪B| over the token sets.
func Jaccard(a, b *Text) float64 {
	inter := intersect(a.set, b.set)
	union := len(a.set) + len(b.set) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

func intersect(a, b []int32) int {
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			n++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return n
}

// Compare finds the strongest tier that links a and b, or TierNone, and guards a match its
// tier alone does not make trustworthy (symbolGuard, fuzzyGuard): a guarded match is proposed
// for a person, never merged by a run on its own. A match guarded for its key words names them
// (Words).
func Compare(a, b *Text) Match {
	m := compare(a, b)
	if m.Guard == GuardWords && m.Words == "" {
		m.Words = keyWords(a, b)
	}
	return m
}

// compare is Compare without naming the key words: clustering needs a match's tier, guard and
// score only, and the offline planner names the words of the proposals it makes (keyWords).
func compare(a, b *Text) Match {
	if a.Norm == "" || b.Norm == "" {
		return Match{}
	}
	// Texts equal or contained once symbols are dropped, but not with them ("written in C++" /
	// "in C#", "set it to -1" / "to 1"), are guarded: a merge of them would lose the difference,
	// so it is never applied without a person.
	if a.Norm == b.Norm {
		return symbolGuard(Match{Tier: TierExact, Score: 1}, a.Strict != b.Strict)
	}
	small, large, dir := a, b, -1
	if len(a.Norm) > len(b.Norm) {
		small, large, dir = b, a, 1
	}
	if len(small.Tokens) >= MinContainedTokens && intersect(small.set, large.set) == len(small.set) &&
		containsAtBoundary(large.Norm, small.Norm) {
		m := symbolGuard(Match{Tier: TierContainment, Score: float64(len(small.Norm)) / float64(len(large.Norm)), Contained: dir},
			!containsAtBoundary(large.Strict, small.Strict))
		if m.Guarded {
			return m
		}
		return containGuard(m, small, large)
	}
	if len(a.Tokens) < MinFuzzyTokens || len(b.Tokens) < MinFuzzyTokens {
		return Match{}
	}
	if c := Cosine(a, b); c >= CosineThreshold {
		return fuzzyGuard(Match{Tier: TierCosine, Score: c}, a, b)
	}
	if j := Jaccard(a, b); j >= JaccardThreshold {
		return fuzzyGuard(Match{Tier: TierJaccard, Score: j}, a, b)
	}
	return Match{}
}

// StrictNorm folds case, full-width forms, typographic quotes and dashes and spacing like
// Normalize but keeps the symbols a word carries inside it or at its start ("c++", "c#", "-1",
// "test-all", "v1.2"); the punctuation around words (sentence marks, quotes, brackets,
// Markdown emphasis) and words of punctuation alone (a list's "-", a heading's "#", a dash)
// are dropped.
func StrictNorm(s string) string {
	var b strings.Builder
	for _, f := range strings.Fields(s) {
		rs := []rune(f)
		hasWord := false
		for i, r := range rs {
			r = foldWidth(r)
			switch {
			case r == '’' || r == '‘' || r == '′':
				r = '\''
			case r == '“' || r == '”' || r == '「' || r == '」' || r == '『' || r == '』':
				r = '"'
			case r == '–' || r == '—' || r == '‐' || r == '‑' || r == '−':
				r = '-'
			case r == '、':
				r = ','
			case r == '。':
				r = '.'
			}
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				hasWord = true
			}
			rs[i] = unicode.ToLower(r)
		}
		w := strings.TrimLeft(strings.TrimRight(string(rs), wordTail), wordHead)
		if w == "" || !hasWord {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// The punctuation StrictNorm drops around a word: before it, and after it (after folding:
// full-width forms, CJK quotes and marks are ASCII by then).
const (
	wordHead = "\"'([{<*_`«【"
	wordTail = ".,;:!?\"')]}>*_`»…】"
)

// foldWidth maps a full-width ASCII form to its ASCII letter and the ideographic space to a
// space; other runes are returned as they are.
func foldWidth(r rune) rune {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		return r - 0xFEE0
	case r == 0x3000:
		return ' '
	}
	return r
}

// containsAtBoundary reports whether needle occurs in hay starting and ending at word
// boundaries (boundaryMatches).
func containsAtBoundary(hay, needle string) bool { return len(boundaryMatches(hay, needle, 1)) > 0 }

// tierConfidence maps a match to the confidence of a merge it proposes: exact and contained
// bodies lose nothing when merged; fuzzy matches earn less, and a guarded one (symbols,
// numbers, negations, words of meaning or key words differ, or a containment changes the
// shorter text) falls below the 0.7 line so the gate always leaves it to a person.
func tierConfidence(m Match) float64 {
	var c float64
	switch m.Tier {
	case TierExact:
		c = 0.98
	case TierContainment:
		c = 0.9 + 0.05*m.Score
	case TierCosine:
		c = 0.8 + 1.5*(m.Score-CosineThreshold)
	case TierJaccard:
		c = 0.75 + (m.Score - JaccardThreshold)
	default:
		return 0
	}
	if m.Guarded {
		c = math.Min(c, 0.6)
	}
	return math.Round(math.Min(c, 0.99)*1000) / 1000
}

// tierRank orders tiers strongest first, for picking the weakest link of a merge.
func tierRank(t Tier) int {
	switch t {
	case TierExact:
		return 0
	case TierContainment:
		return 1
	case TierCosine:
		return 2
	case TierJaccard:
		return 3
	}
	return 4
}
