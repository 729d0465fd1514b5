package text

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// prefilter is a set of literals of which every match of an expression contains at least one
// (compared case-folded). Go's regexp runs the large alternations of the extractor and recall
// ("where do I live" against 1,500 user memories) through its NFA at microseconds a character;
// most texts hold none of the words an alternation needs, and strings.Contains says so for a
// fraction of that. The set is derived from the parsed expression, never written by hand, so
// it cannot drift from the expression it guards.
type prefilter struct {
	lits []string // folded; none is a substring of another
	// idx finds them in one pass when there are many (litIndexFrom): one strings.Contains per
	// literal read a text hundreds of times over, a fifth of an identity question's reading.
	idx *litIndex
}

// litIndexFrom is the literal count from which one indexed pass beats a scan per literal.
const litIndexFrom = 8

// litIndex holds literals (two bytes or longer) by their first two bytes, with a bit set of
// the pairs present, so a text is read once and most positions cost one bit test. Each
// literal belongs to a group (a branch of an alternation; 0 for a prefilter's own).
type litIndex struct {
	pairs  [(1 << 16) / 64]uint64
	byPair map[uint16][]groupLit
}

type groupLit struct {
	lit   string
	group uint64 // the group's bit
}

// maxLitGroups is how many groups a litIndex tells apart (the bits of a uint64).
const maxLitGroups = 64

// newLitIndex indexes groups[g] as group g (at most maxLitGroups).
func newLitIndex(groups ...[]string) *litIndex {
	x := &litIndex{byPair: map[uint16][]groupLit{}}
	for g, lits := range groups {
		for _, l := range lits {
			k := uint16(l[0])<<8 | uint16(l[1])
			x.pairs[k>>6] |= 1 << (k & 63)
			x.byPair[k] = append(x.byPair[k], groupLit{lit: l, group: 1 << g})
		}
	}
	return x
}

// holds reports whether f contains one of the literals.
func (x *litIndex) holds(f string) bool { return x.scan(f, 1) != 0 }

// scan returns the groups of want (a bit set) whose literals f contains, stopping once it has
// found them all.
func (x *litIndex) scan(f string, want uint64) uint64 {
	var found uint64
	for i := 0; i+1 < len(f); i++ {
		k := uint16(f[i])<<8 | uint16(f[i+1])
		if x.pairs[k>>6]&(1<<(k&63)) == 0 {
			continue
		}
		for _, l := range x.byPair[k] {
			if found&l.group == 0 && strings.HasPrefix(f[i:], l.lit) {
				if found |= l.group; found&want == want {
					return found
				}
			}
		}
	}
	return found
}

// maxPrefilterLits bounds the set: past it, scanning for each literal costs what the NFA does.
const maxPrefilterLits = 400

// newPrefilter derives the literal set of expr, or returns nil when a match may hold none
// (an optional part, a wide character class, an empty match) or the literals are too short
// or too many to save anything.
func newPrefilter(expr string) *prefilter {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	return prefilterOf(re.Simplify())
}

// prefilterOf is newPrefilter on a parsed, simplified expression.
func prefilterOf(re *syntax.Regexp) *prefilter {
	req := required(re)
	if req.any || len(req.lits) == 0 || len(req.lits) > maxPrefilterLits {
		return nil
	}
	lits := minimalLits(req.lits)
	for _, l := range lits {
		if len(l) < 2 {
			return nil
		}
	}
	p := &prefilter{lits: lits}
	if len(lits) >= litIndexFrom {
		p.idx = newLitIndex(lits)
	}
	return p
}

// may reports whether s can match: it holds one of the literals, case-folded.
func (p *prefilter) may(s string) bool { return p.mayFolded(foldString(s)) }

// mayFolded is may on a text already folded.
func (p *prefilter) mayFolded(f string) bool {
	if p.idx != nil {
		return p.idx.holds(f)
	}
	for _, l := range p.lits {
		if strings.Contains(f, l) {
			return true
		}
	}
	return false
}

// requirement is what a match of a sub-expression must contain: one of lits, or anything
// (any) when nothing can be said. exact, when not nil, is every string the sub-expression
// can match (folded; "" for an empty match), kept while the set stays small, so that
// "(?:lives|living) in" needs "LIVES IN" or "LIVING IN" rather than " IN".
type requirement struct {
	any   bool
	lits  []string
	exact []string
}

var anything = requirement{any: true}

// maxExact bounds an exact set; past it only the requirement is kept.
const maxExact = 64

// fromExact is the requirement of a set of exact strings: one of them, unless one is empty.
func fromExact(e []string) requirement {
	if slices.Contains(e, "") {
		return requirement{any: true, exact: e}
	}
	return requirement{lits: e, exact: e}
}

// required walks the parsed expression. A concatenation needs what each of its parts needs,
// so the most selective part (or run of exact parts, joined) stands for it; an alternation
// needs what one of its branches needs, so it needs the union; repetition needs its body
// only when the body must occur.
func required(re *syntax.Regexp) requirement {
	switch re.Op {
	case syntax.OpLiteral:
		return fromExact([]string{foldString(string(re.Rune))})
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return fromExact([]string{""})
	case syntax.OpCharClass:
		// A few runes ([鼠牛虎], [.!?]) are a few one-rune strings; a range is anything.
		var lits []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi-lo > 8 || len(lits) > 16 {
				return anything
			}
			for r := lo; r <= hi; r++ {
				if f := foldString(string(r)); !slices.Contains(lits, f) {
					lits = append(lits, f)
				}
			}
		}
		if len(lits) == 0 {
			return requirement{} // matches nothing
		}
		return fromExact(lits)
	case syntax.OpCapture:
		return required(re.Sub[0])
	case syntax.OpPlus:
		r := required(re.Sub[0])
		return requirement{any: r.any, lits: r.lits}
	case syntax.OpQuest:
		if r := required(re.Sub[0]); r.exact != nil && len(r.exact) < maxExact {
			return fromExact(union(r.exact, []string{""}))
		}
		return anything
	case syntax.OpRepeat:
		if re.Min >= 1 {
			r := required(re.Sub[0])
			return requirement{any: r.any, lits: r.lits}
		}
		return anything
	case syntax.OpNoMatch:
		return requirement{}
	case syntax.OpConcat:
		best := anything
		var run []string // the exact strings of the current run of exact parts
		allExact := true
		flush := func() {
			if run != nil {
				if r := fromExact(run); better(r, best) {
					best = r
				}
			}
			run = nil
		}
		for _, sub := range re.Sub {
			r := required(sub)
			switch {
			case r.exact != nil && run != nil && len(run)*len(r.exact) <= maxExact:
				run = cross(run, r.exact)
			case r.exact != nil:
				allExact = allExact && run == nil
				flush()
				run = r.exact
			default:
				allExact = false
				flush()
				if better(r, best) {
					best = r
				}
			}
		}
		if allExact && run != nil {
			return fromExact(run)
		}
		flush()
		return requirement{any: best.any, lits: best.lits}
	case syntax.OpAlternate:
		var out requirement
		exact := []string{}
		for _, sub := range re.Sub {
			r := required(sub)
			if exact != nil && r.exact != nil && len(exact)+len(r.exact) <= maxExact {
				exact = union(exact, r.exact)
			} else {
				exact = nil
			}
			if r.any {
				out.any = true
			}
			out.lits = append(out.lits, r.lits...)
		}
		if exact != nil {
			return fromExact(exact)
		}
		if out.any {
			return anything
		}
		return out
	default:
		// Any character, starred parts.
		return anything
	}
}

// cross is every string of a followed by one of b.
func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			if s := x + y; !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// union is a and the strings of b it lacks.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, y := range b {
		if !slices.Contains(out, y) {
			out = append(out, y)
		}
	}
	return out
}

// better reports whether requirement a is more selective than b: its shortest literal is
// longer (fewer texts hold it), or as long and there are fewer of them.
func better(a, b requirement) bool {
	if a.any {
		return false
	}
	if b.any {
		return true
	}
	ma, mb := shortest(a.lits), shortest(b.lits)
	if ma != mb {
		return ma > mb
	}
	return len(a.lits) < len(b.lits)
}

func shortest(lits []string) int {
	n := -1
	for _, l := range lits {
		if n < 0 || len(l) < n {
			n = len(l)
		}
	}
	return n
}

// minimalLits drops duplicates and every literal that contains another: a text holding the
// longer one holds the shorter, so the shorter alone decides.
func minimalLits(lits []string) []string {
	lits = slices.Clone(lits)
	slices.SortFunc(lits, func(a, b string) int { return len(a) - len(b) })
	var out []string
	for _, l := range lits {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.Contains(l, o) }) {
			out = append(out, l)
		}
	}
	return out
}

// foldString maps every rune to the smallest rune of its simple case-folding orbit, the
// equivalence (?i) matches under: "K", "k" and the Kelvin sign all become "K".
func foldString(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || ('a' <= c && c <= 'z') {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}
	if caseless(r) {
		return r
	}
	min := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < min {
			min = f
		}
	}
	return min
}

// caseless reports runes of blocks without case (CJK, kana, Hangul), where folding is the
// identity: most of a Chinese text, which SimpleFold would otherwise look up rune by rune.
func caseless(r rune) bool {
	return (r >= 0x2E80 && r < 0xA640) || (r >= 0xAC00 && r < 0xD7A4)
}
