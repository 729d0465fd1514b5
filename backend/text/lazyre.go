package text

import (
	"regexp"
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
}

// Lazy returns a Regexp for expr, compiled when first used.
func Lazy(expr string) *Regexp { return &Regexp{expr: expr} }

// Compiled returns the compiled expression.
func (r *Regexp) Compiled() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// String returns the source text.
func (r *Regexp) String() string { return r.expr }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.Compiled().MatchString(s) }

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string { return r.Compiled().FindString(s) }

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int { return r.Compiled().FindStringIndex(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Compiled().FindStringSubmatch(s) }

// FindStringSubmatchIndex is regexp.Regexp.FindStringSubmatchIndex.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Compiled().FindStringSubmatchIndex(s)
}

// FindAllString is regexp.Regexp.FindAllString.
func (r *Regexp) FindAllString(s string, n int) []string { return r.Compiled().FindAllString(s, n) }

// FindAllStringIndex is regexp.Regexp.FindAllStringIndex.
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Compiled().FindAllStringIndex(s, n)
}

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Compiled().FindAllStringSubmatch(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(s, repl string) string {
	return r.Compiled().ReplaceAllString(s, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(s string, f func(string) string) string {
	return r.Compiled().ReplaceAllStringFunc(s, f)
}

// Split is regexp.Regexp.Split.
func (r *Regexp) Split(s string, n int) []string { return r.Compiled().Split(s, n) }

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Compiled().FindAllStringSubmatchIndex(s, n)
}

// Match is regexp.Regexp.Match.
func (r *Regexp) Match(b []byte) bool { return r.Compiled().Match(b) }
