package organizer

import (
	"strings"
	"unicode/utf8"

	"engram/backend/memory"
)

// preserve computes what a merge writes onto its keeper: the merged body (a planner's, or
// the keeper's followed by whatever the others add), the union of aliases, tags and
// supersedes (the others' titles become aliases, their slugs supersedes), and the strongest
// evidence (the highest confidence, then the longest quote). bucket is non-empty when the
// merge cannot be applied (the merged body would be too large or empty, or the keeper would hold
// more aliases, tags or supersedes than the store takes).
func preserve(keeper *memory.Memory, sources []*memory.Memory, body *string) (p *Preserved, bucket string) {
	p = &Preserved{}
	if body != nil {
		p.Body = strings.TrimSpace(*body)
	} else {
		others := make([]string, len(sources))
		for i, s := range sources {
			others[i] = s.Body
		}
		p.Body = mergeBodies(keeper.Body, others)
	}
	if p.Body == "" {
		return nil, BucketNothingToMerge
	}
	if len(p.Body) > memory.MaxBodyBytes {
		return nil, BucketBodyTooLarge
	}
	aliases := newUnion(true)
	tags := newUnion(false)
	sup := newUnion(false)
	aliases.add(keeper.Aliases...)
	tags.add(keeper.Tags...)
	sup.add(keeper.Supersedes...)
	best := keeper
	for _, s := range sources {
		aliases.add(s.Aliases...)
		if !strings.EqualFold(strings.TrimSpace(s.Title), strings.TrimSpace(keeper.Title)) {
			aliases.add(s.Title)
		}
		tags.add(s.Tags...)
		sup.add(s.Supersedes...)
		if s.Slug != keeper.Slug {
			sup.add(s.Slug)
		}
		if stronger(s, best) {
			best = s
		}
		if keeper.Reviewed && !s.Reviewed && p.Body != strings.TrimSpace(keeper.Body) {
			p.Unreview = true
		}
	}
	aliases.drop(keeper.Title)
	sup.drop(keeper.Slug)
	p.Aliases, p.Tags, p.Supersedes = aliases.list(), tags.list(), sup.list()
	p.SourceQuote, p.Confidence = best.SourceQuote, best.Confidence
	for field, vs := range map[string][]string{"aliases": p.Aliases, "tags": p.Tags, "supersedes": p.Supersedes} {
		if n := valuesLimit(field); n > 0 && len(vs) > n {
			return nil, BucketFieldsTooLarge
		}
	}
	return p, ""
}

// valuesLimit is how many values the store takes in a list field of a memory (0: no limit).
// A merge gathers the aliases, tags and supersedes of every memory it folds in; over the
// limit, the store refuses the keeper's write at apply time, after a manual run's report had
// offered the merge as applicable and while a scheduled run counted it as automatic.
func valuesLimit(field string) int {
	for _, l := range memory.FieldLimits {
		if l.Field == field {
			return l.MaxValues
		}
	}
	return 0
}

// stronger reports whether a's evidence beats b's: higher confidence, then a longer quote.
func stronger(a, b *memory.Memory) bool {
	if confRank[a.Confidence] != confRank[b.Confidence] {
		return confRank[a.Confidence] > confRank[b.Confidence]
	}
	return utf8.RuneCountInString(strings.TrimSpace(a.SourceQuote)) > utf8.RuneCountInString(strings.TrimSpace(b.SourceQuote))
}

// union keeps the first spelling of each value, in order.
type union struct {
	fold  bool
	seen  map[string]bool
	items []string
}

func newUnion(fold bool) *union { return &union{fold: fold, seen: map[string]bool{}} }

func (u *union) key(s string) string {
	if u.fold {
		return strings.ToLower(s)
	}
	return s
}

func (u *union) add(vs ...string) {
	for _, v := range vs {
		v = strings.TrimSpace(v)
		if v == "" || u.seen[u.key(v)] {
			continue
		}
		u.seen[u.key(v)] = true
		u.items = append(u.items, v)
	}
}

func (u *union) drop(v string) {
	k := u.key(strings.TrimSpace(v))
	if !u.seen[k] {
		return
	}
	out := u.items[:0]
	for _, it := range u.items {
		if u.key(it) != k {
			out = append(out, it)
		}
	}
	u.items = out
	delete(u.seen, k)
}

func (u *union) list() []string {
	if u.items == nil {
		return []string{}
	}
	return u.items
}

// mergeBodies keeps the keeper's text and adds, from each other body, the sentences it does
// not already hold. A body that holds the whole merged text replaces it (nothing is lost).
func mergeBodies(keeper string, others []string) string {
	merged := strings.TrimSpace(keeper)
	for _, o := range others {
		o = strings.TrimSpace(o)
		// Compared with the words' symbols kept: "make test-all" is not "make test all", and
		// the keeper's exact command must not give way to the other's.
		no, nm := StrictNorm(o), StrictNorm(merged)
		switch {
		case no == "" || no == nm || containsAtBoundary(nm, no):
			continue
		case nm == "" || containsAtBoundary(no, nm):
			merged = o
			continue
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(merged, "\n") {
			for _, s := range splitSentences(line) {
				seen[StrictNorm(s)] = true
			}
		}
		var add []string
		for _, line := range strings.Split(o, "\n") {
			var keep []string
			for _, s := range splitSentences(line) {
				ns := StrictNorm(s)
				if ns == "" || seen[ns] {
					continue
				}
				if len(Tokens(ns)) >= MinFuzzyTokens && containsAtBoundary(nm, ns) {
					continue
				}
				seen[ns] = true
				keep = append(keep, s)
			}
			if len(keep) > 0 {
				add = append(add, joinSentences(keep))
			}
		}
		if len(add) > 0 {
			merged += "\n\n" + strings.Join(add, "\n")
		}
	}
	return merged
}

// splitSentences cuts a line after sentence-ending punctuation, keeping it; the pieces are
// trimmed and never empty.
func splitSentences(line string) []string {
	var out []string
	start := 0
	runes := []rune(line)
	for i, r := range runes {
		if !strings.ContainsRune(".!?。！？；;", r) {
			continue
		}
		if r == '.' && i+1 < len(runes) && runes[i+1] != ' ' && runes[i+1] != '\t' {
			continue // 3.14, example.com
		}
		if s := strings.TrimSpace(string(runes[start : i+1])); s != "" {
			out = append(out, s)
		}
		start = i + 1
	}
	if s := strings.TrimSpace(string(runes[start:])); s != "" {
		out = append(out, s)
	}
	return out
}

// joinSentences joins kept sentences with a space, or with nothing after CJK punctuation.
func joinSentences(ss []string) string {
	var b strings.Builder
	for i, s := range ss {
		if i > 0 {
			last, _ := utf8.DecodeLastRuneInString(ss[i-1])
			if !strings.ContainsRune("。！？；", last) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(s)
	}
	return b.String()
}
