package text

import (
	"regexp"
	"regexp/syntax"
	"sync"
)

// Regexp is a regular expression compiled on its first use rather than at start-up. The
// extractor and recall hold some two hundred patterns; compiled in package init they cost
// every process — `engram version` and each hook call included — tens of milliseconds
// before doing anything. An invalid expression panics on first use, as MustCompile would.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
	pre  *prefilter // nil when no literal is required
	// branches are the expression's top-level alternatives, each compiled alone with its own
	// prefilter, for MatchString: a text is run only through the few alternatives whose
	// words it holds. Nil when the expression is not a wide alternation.
	branches []branch
}

// branch is one top-level alternative (or, with a nil prefilter, all those without one).
type branch struct {
	pre *prefilter
	re  *regexp.Regexp
}

// minBranches is the width from which an alternation is matched branch by branch.
const minBranches = 4

// Lazy returns a Regexp for expr, compiled when first used.
func Lazy(expr string) *Regexp { return &Regexp{expr: expr} }

// Compiled returns the compiled expression.
func (r *Regexp) Compiled() *regexp.Regexp {
	r.once.Do(func() {
		r.re = regexp.MustCompile(r.expr)
		r.pre = newPrefilter(r.expr)
		r.branches = splitBranches(r.expr)
	})
	return r.re
}

// splitBranches compiles the top-level alternatives of expr that have a prefilter one by
// one, and the others together.
func splitBranches(expr string) []branch {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	re = re.Simplify()
	if re.Op != syntax.OpAlternate || len(re.Sub) < minBranches {
		return nil
	}
	var out []branch
	var rest []*syntax.Regexp
	for _, sub := range re.Sub {
		p := prefilterOf(sub)
		if p == nil {
			rest = append(rest, sub)
			continue
		}
		out = append(out, branch{pre: p, re: regexp.MustCompile(sub.String())})
	}
	switch len(rest) {
	case 0:
	case 1:
		out = append(out, branch{re: regexp.MustCompile(rest[0].String())})
	default:
		out = append(out, branch{re: regexp.MustCompile((&syntax.Regexp{Op: syntax.OpAlternate, Sub: rest}).String())})
	}
	return out
}

// matchBranches is MatchString through the branches: the text is folded once and each
// alternative runs only if the text holds one of its literals.
func (r *Regexp) matchBranches(s string) bool {
	f := foldString(s)
	for _, b := range r.branches {
		if b.pre != nil && !b.pre.mayFolded(f) {
			continue
		}
		if b.re.MatchString(s) {
			return true
		}
	}
	return false
}

// cannot reports whether s holds none of the literals every match needs: then there is no
// match, and the NFA need not run.
func (r *Regexp) cannot(s string) bool {
	r.Compiled()
	return r.pre != nil && !r.pre.may(s)
}

// String returns the source text.
func (r *Regexp) String() string { return r.expr }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool {
	r.Compiled()
	if r.branches != nil {
		return r.matchBranches(s)
	}
	if r.cannot(s) {
		return false
	}
	return r.re.MatchString(s)
}

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string {
	if r.cannot(s) {
		return ""
	}
	return r.re.FindString(s)
}

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int {
	if r.cannot(s) {
		return nil
	}
	return r.re.FindStringIndex(s)
}

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string {
	if r.cannot(s) {
		return nil
	}
	return r.re.FindStringSubmatch(s)
}

// FindStringSubmatchIndex is regexp.Regexp.FindStringSubmatchIndex.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	if r.cannot(s) {
		return nil
	}
	return r.re.FindStringSubmatchIndex(s)
}

// FindAllString is regexp.Regexp.FindAllString.
func (r *Regexp) FindAllString(s string, n int) []string {
	if r.cannot(s) {
		return nil
	}
	return r.re.FindAllString(s, n)
}

// FindAllStringIndex is regexp.Regexp.FindAllStringIndex.
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	if r.cannot(s) {
		return nil
	}
	return r.re.FindAllStringIndex(s, n)
}

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	if r.cannot(s) {
		return nil
	}
	return r.re.FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if r.cannot(s) {
		return nil
	}
	return r.re.FindAllStringSubmatchIndex(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(s, repl string) string {
	if r.cannot(s) {
		return s
	}
	return r.re.ReplaceAllString(s, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(s string, f func(string) string) string {
	if r.cannot(s) {
		return s
	}
	return r.re.ReplaceAllStringFunc(s, f)
}

// Split is regexp.Regexp.Split.
func (r *Regexp) Split(s string, n int) []string { return r.Compiled().Split(s, n) }

// Match is regexp.Regexp.Match.
func (r *Regexp) Match(b []byte) bool { return r.Compiled().Match(b) }
