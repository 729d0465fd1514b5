package text

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// differentialExprs are expressions of the shapes the extractor and recall use: wide
// case-insensitive alternations, sentence anchors, optional words, small and wide classes,
// case-sensitive islands, Chinese, and ones a literal cannot guard.
var differentialExprs = []string{
	`(?i)\b(?:i (?:now |currently )?live|we live in|(?:lives|living|resides) in|is (?:based|living) in)\b|我住在|家住|现[住居]`,
	`(?im)(?:^|[.!?;。！？；]\s*)\s*(?:currently |now )?(?:lives|living|based) (?:in|at|near)\b|(?-i:\p{Lu}\p{Ll}+) is (?:our|my) (?:cat|dog)|我(?:的)?名字|属[鼠牛虎兔]`,
	`(?i)\b(?:is|am|as|i'm) (?:an?|the) (?:[\w-]+ ){0,3}(?:engineer|vet(?:erinarian)?|nurse|c(?:eo|to))s?\b|职业\s*[：:是]|工作\s*[：:]`,
	`(?i)kelvin|\bSS\b|straße|ǅ`,                           // folding beyond ASCII: K (U+212A), ſ, ß, titlecase
	`(?i)colou?r|grey|gray|x{2,}|y+z|(?:ab)?cd|[ab][cd]ef`, // optional parts, repeats, classes
	`(?-i:\bI\b)|(?i:\b(?:i'm|my|me)\b)|我(?:[^们妈]|$)|用户`,   // one-letter literal: no prefilter
	`^[\s*>#-]*(?:my|our) (?:sister|brother|dog)s?\b|^老伴|^\p{Han}{1,6}（室友）`,
	`a|b|c|d|e`, `.*`, `x?`, `(?:)`, `[^a]`, `\d{4}年`, `(?s)foo.bar|baz\z|\Aqux`,
	// Literal sets wide enough for the one-pass index, as a whole and as branches.
	`(?i)\b(?:tea|coffee|beer|wine|juice|milk|soda|water|cocoa)\b`,
	`(?i)\bi (?:drink|like) (?:tea|coffee|beer|wine|juice|milk|soda|water|cocoa)\b|\bfavou?rite (?:food|drink|band)\b|allerg(?:y|ic|ies)|vegan|teetotal|我(?:喜欢|爱)(?:喝|吃)|讨厌|过敏|忌口|\bno (?:tea|milk)`,
}

// differentialTexts are texts built to hit, nearly hit and miss those expressions.
var differentialTexts = []string{
	"", "I live in Lisbon.", "We LIVE IN porto", "She is living in Oslo", "i now live near here", "alive in",
	"Biscuit is our dog.", "biscuit is our dog.", "My name is Ana. 我的名字叫安娜", "属虎", "属猫",
	"She is a senior backend engineer at Acme.", "I'm the CTO", "am a vet", "is the veterinarians", "职业：护士", "工作: 老师",
	"KELVIN", "\u212Aelvin", "ſs and SS", "STRASSE", "straße", "Ǆ ǅ ǆ", "colour grey", "COLOR", "xx", "x", "yz", "abcd", "cd", "bcef",
	"I", "It is", "i'm here", "Me too", "我们", "我妈", "我", "用户说", "> my sister lives", "  - our dogs", "老伴说", "阿May（室友）",
	"aaaa", "1999年", "foo\nbar", "fooxbar", "a baz", "quxx", "\xffinvalid \xfe utf8 live in", "现居上海", "现在",
	"I drink cocoa", "i like TEA.", "cocoa", "Favourite band: none", "favorite drinks", "allergic", "ALLERGIES", "teetotaller",
	"我喜欢喝茶", "我爱吃辣", "忌口", "no milk", "no teas", "I drinks tea", "veganism", "wa", "ter", "MILKY",
}

// TestPrefilterAgreesWithRegexp checks every entry point against the regexp package on
// texts made to match, nearly match and miss, and on random mutations of them: a literal
// guard may only ever skip texts the expression cannot match.
func TestPrefilterAgreesWithRegexp(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	texts := slices.Clone(differentialTexts)
	for i := 0; i < 3000; i++ {
		texts = append(texts, mutate(r, differentialTexts[r.IntN(len(differentialTexts))]))
	}
	for _, expr := range differentialExprs {
		ours, std := Lazy(expr), regexp.MustCompile(expr)
		for _, s := range texts {
			if got, want := ours.MatchString(s), std.MatchString(s); got != want {
				t.Fatalf("%q on %q: MatchString %v, regexp %v", expr, s, got, want)
			}
			if got, want := ours.FindString(s), std.FindString(s); got != want {
				t.Fatalf("%q on %q: FindString %q, regexp %q", expr, s, got, want)
			}
			if got, want := ours.FindAllStringIndex(s, -1), std.FindAllStringIndex(s, -1); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("%q on %q: FindAllStringIndex %v, regexp %v", expr, s, got, want)
			}
			if got, want := ours.ReplaceAllString(s, "<$0>"), std.ReplaceAllString(s, "<$0>"); got != want {
				t.Fatalf("%q on %q: ReplaceAllString %q, regexp %q", expr, s, got, want)
			}
		}
	}
}

// mutate changes a text a little: a rune's case, a cut, a doubled or dropped piece.
func mutate(r *rand.Rand, s string) string {
	rs := []rune(s)
	for n := 1 + r.IntN(3); n > 0 && len(rs) > 0; n-- {
		i := r.IntN(len(rs))
		switch r.IntN(4) {
		case 0:
			if unicode.IsUpper(rs[i]) {
				rs[i] = unicode.ToLower(rs[i])
			} else {
				rs[i] = unicode.ToUpper(rs[i])
			}
		case 1:
			rs = append(rs[:i:i], rs[i+1:]...)
		case 2:
			rs = append(rs[:i:i], append([]rune{rs[i], rs[i]}, rs[i+1:]...)...)
		default:
			rs = append(rs[i:i:i], rs[i:]...)
		}
	}
	return string(rs)
}

// TestPrefilterLiterals pins what the guard requires of some expressions, so that a change
// that quietly turns it off (or makes it wrong) shows.
func TestPrefilterLiterals(t *testing.T) {
	for _, c := range []struct {
		expr string
		want []string // nil: no guard
	}{
		{`(?i)\b(?:lives|living|resides) in\b`, []string{"LIVES IN", "LIVING IN", "RESIDES IN"}},
		{`(?i)colou?r`, []string{"COLOR", "COLOUR"}},
		{`我住在|家住`, []string{"家住", "我住在"}},
		{`(?i)\bis (?:an?|the) (?:\w+ )?nurse`, []string{"NURSE"}},
		{`(?i)x?y`, nil},    // one letter
		{`foo|.*`, nil},     // a branch with no literal
		{`(?:ab)*cd?`, nil}, // "c" alone is too short
		{`属[鼠牛]`, []string{"属牛", "属鼠"}},
		{`(?i)vet(?:erinarian)?s?`, []string{"VET"}},
	} {
		p := newPrefilter(c.expr)
		var got []string
		if p != nil {
			got = slices.Clone(p.lits)
			slices.Sort(got)
		}
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%q: literals %q, want %q", c.expr, got, want)
		}
	}
}

// TestCaselessBlocks holds foldRune's shortcut to what unicode.SimpleFold says.
func TestCaselessBlocks(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if caseless(r) && unicode.SimpleFold(r) != r {
			t.Fatalf("%U has case but is treated as caseless", r)
		}
	}
}

// TestBranchesCoverWideAlternations checks that a wide alternation is matched branch by
// branch, and that the branches keep the expression's flags.
func TestBranchesCoverWideAlternations(t *testing.T) {
	re := Lazy(`(?im)^lives in\b|(?-i:Biscuit)|我住在|家住|x+`)
	for i := 0; i < guardAfter; i++ {
		re.MatchString("")
	}
	if len(re.branches) != 5 {
		t.Fatalf("branches %d, want 5", len(re.branches))
	}
	for s, want := range map[string]bool{"a\nLIVES IN x": true, "biscuit": false, "BISCUIT": false, "Biscuit": true, "家住": true, "住": false, "X": true} {
		if got := re.MatchString(s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}

// FuzzPrefilter compares the guarded entry points with the regexp package on any text.
func FuzzPrefilter(f *testing.F) {
	for _, s := range differentialTexts {
		f.Add(s)
	}
	ours := make([]*Regexp, len(differentialExprs))
	std := make([]*regexp.Regexp, len(differentialExprs))
	for i, e := range differentialExprs {
		ours[i], std[i] = Lazy(e), regexp.MustCompile(e)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i := range ours {
			if got, want := ours[i].MatchString(s), std[i].MatchString(s); got != want {
				t.Fatalf("%q on %q: MatchString %v, regexp %v", differentialExprs[i], s, got, want)
			}
			if got, want := ours[i].FindStringIndex(s), std[i].FindStringIndex(s); !slices.Equal(got, want) {
				t.Fatalf("%q on %q: FindStringIndex %v, regexp %v", differentialExprs[i], s, got, want)
			}
		}
	})
}

// TestSplitAlternatives checks the cut of a pattern's source at its top-level "|".
func TestSplitAlternatives(t *testing.T) {
	for _, c := range []struct {
		expr   string
		prefix string
		alts   []string // nil: not cut
	}{
		{`(?im)a|b(?:c|d)|[|x]|\||e`, "(?im)", []string{"a", "b(?:c|d)", "[|x]", `\|`, "e"}},
		{`[]|]|(x|y)|[^]|]z|[[:alpha:]|]`, "", []string{"[]|]", "(x|y)", "[^]|]z", "[[:alpha:]|]"}},
		{`a|(?i)b|c|d`, "", nil},   // a flag group later on
		{`\Qa|b\E|c|d|e`, "", nil}, // quoted text
		{`(?i:a|b)|c|d|e`, "", []string{"(?i:a|b)", "c", "d", "e"}},
		{`abc`, "", []string{"abc"}},
	} {
		prefix, alts, ok := splitAlternatives(c.expr)
		if c.alts == nil {
			if ok {
				t.Errorf("%q: cut into %q, want no cut", c.expr, alts)
			}
			continue
		}
		if !ok || prefix != c.prefix || !slices.Equal(alts, c.alts) {
			t.Errorf("%q: %v %q %q, want %q %q", c.expr, ok, prefix, alts, c.prefix, c.alts)
		}
	}
}

// TestLitIndexAgreesWithContains compares the one-pass literal index with strings.Contains
// per literal and per group on random literal sets and texts made of their pieces: a literal
// at the very start or end, cut short, overlapping another, in several groups.
func TestLitIndexAgreesWithContains(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"TE", "TEA", "EA", "COF", "FEE", "喝", "茶", "AB", "ABC", "BC", " ", "X", "É", "\xff"}
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	for round := 0; round < 300; round++ {
		groups := make([][]string, 1+r.IntN(6))
		for g := range groups {
			for range 1 + r.IntN(12) {
				if l := word(1 + r.IntN(3)); len(l) >= 2 {
					groups[g] = append(groups[g], l)
				}
			}
		}
		x := newLitIndex(groups...)
		all := uint64(1)<<len(groups) - 1
		for range 40 {
			text := word(r.IntN(12))
			var want uint64
			for g, lits := range groups {
				if slices.ContainsFunc(lits, func(l string) bool { return strings.Contains(text, l) }) {
					want |= 1 << g
				}
			}
			if got := x.scan(text, all); got != want {
				t.Fatalf("groups %q in %q: scan %b, want %b", groups, text, got, want)
			}
			if got := x.scan(text, want); got&want != want {
				t.Fatalf("groups %q in %q: scan for %b gave %b", groups, text, want, got)
			}
			if got := newLitIndex(slices.Concat(groups...)).holds(text); got != (want != 0) {
				t.Fatalf("literals %q in %q: holds %v", groups, text, got)
			}
		}
	}
}
