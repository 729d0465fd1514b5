package text

import (
	"regexp"
	"sync"
	"sync/atomic"
)

// Regexp is a regular expression compiled on its first use rather than at start-up. The
// extractor and recall hold some two hundred patterns; compiled in package init they cost
// every process — `engram version` and each hook call included — tens of milliseconds
// before doing anything. An invalid expression panics on first use, as MustCompile would.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp

	// The guards are worked out once the pattern has been used guardAfter times: deriving
	// them costs a few times what compiling does, which a pattern run once or twice in a
	// short process (a CLI search, a hook) would not earn back.
	uses      atomic.Int32
	guardOnce sync.Once
	pre       *prefilter // nil when no literal is required
	// branches are the expression's top-level alternatives, each compiled alone with its own
	// prefilter, for MatchString: a text is run only through the few alternatives whose
	// words it holds. Nil when the expression is not a wide alternation.
	branches []branch
	// branchIdx finds in one pass which branches' literals a text holds (branch i is group
	// i), when there are several and no more than maxLitGroups.
	branchIdx *litIndex
	// branchLits is the set of branches that have literals (the others always run).
	branchLits uint64
}

// guardAfter is the use from which a pattern's guards are in place.
const guardAfter = 100

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
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// guarded counts a use and reports whether the guards are in place, working them out on the
// guardAfter-th.
func (r *Regexp) guarded() bool {
	if r.uses.Load() < guardAfter && r.uses.Add(1) < guardAfter {
		return false
	}
	r.guardOnce.Do(func() {
		r.pre = newPrefilter(r.expr)
		r.branches = splitBranches(r.expr)
		if len(r.branches) >= minBranches && len(r.branches) <= maxLitGroups {
			groups := make([][]string, len(r.branches))
			for i, b := range r.branches {
				if b.pre != nil {
					groups[i] = b.pre.lits
					r.branchLits |= 1 << i
				}
			}
			r.branchIdx = newLitIndex(groups...)
		}
	})
	return true
}

// matchBranches is MatchString through the branches: the text is folded once and each
// alternative runs only if the text holds one of its literals.
func (r *Regexp) matchBranches(s string) bool {
	f := foldString(s)
	var may uint64 // with branchIdx: the branches whose literals f holds
	if r.branchIdx != nil {
		may = r.branchIdx.scan(f, r.branchLits)
	}
	for i, b := range r.branches {
		switch {
		case b.pre == nil:
		case r.branchIdx != nil:
			if may&(1<<i) == 0 {
				continue
			}
		case !b.pre.mayFolded(f):
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
	return r.guarded() && r.pre != nil && !r.pre.may(s)
}

// String returns the source text.
func (r *Regexp) String() string { return r.expr }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool {
	if r.guarded() {
		if r.branches != nil {
			return r.matchBranches(s)
		}
		if r.pre != nil && !r.pre.may(s) {
			return false
		}
	}
	return r.Compiled().MatchString(s)
}

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string {
	if r.cannot(s) {
		return ""
	}
	return r.Compiled().FindString(s)
}

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int {
	if r.cannot(s) {
		return nil
	}
	return r.Compiled().FindStringIndex(s)
}

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string {
	if r.cannot(s) {
		return nil
	}
	return r.Compiled().FindStringSubmatch(s)
}

// FindStringSubmatchIndex is regexp.Regexp.FindStringSubmatchIndex.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	if r.cannot(s) {
		return nil
	}
	return r.Compiled().FindStringSubmatchIndex(s)
}

// FindAllString is regexp.Regexp.FindAllString.
func (r *Regexp) FindAllString(s string, n int) []string {
	if r.cannot(s) {
		return nil
	}
	return r.Compiled().FindAllString(s, n)
}

// FindAllStringIndex is regexp.Regexp.FindAllStringIndex.
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	if r.cannot(s) {
		return nil
	}
	return r.Compiled().FindAllStringIndex(s, n)
}

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	if r.cannot(s) {
		return nil
	}
	return r.Compiled().FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if r.cannot(s) {
		return nil
	}
	return r.Compiled().FindAllStringSubmatchIndex(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(s, repl string) string {
	if r.cannot(s) {
		return s
	}
	return r.Compiled().ReplaceAllString(s, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(s string, f func(string) string) string {
	if r.cannot(s) {
		return s
	}
	return r.Compiled().ReplaceAllStringFunc(s, f)
}

// Split is regexp.Regexp.Split.
func (r *Regexp) Split(s string, n int) []string { return r.Compiled().Split(s, n) }

// Match is regexp.Regexp.Match.
func (r *Regexp) Match(b []byte) bool { return r.Compiled().Match(b) }
