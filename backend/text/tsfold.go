package text

import (
	"sort"
	"strings"
	"sync"
)

// tsTable is tsPairs decoded: the Traditional characters, sorted, and their Simplified forms.
var tsTable = sync.OnceValue(func() (t struct{ from, to []rune }) {
	rs := []rune(tsPairs)
	t.from, t.to = make([]rune, 0, len(rs)/2), make([]rune, 0, len(rs)/2)
	for i := 0; i+1 < len(rs); i += 2 {
		t.from, t.to = append(t.from, rs[i]), append(t.to, rs[i+1])
	}
	return t
})

// FoldTraditional writes each Traditional Chinese character of s in its Simplified form
// (character by character, OpenCC's table): rules written in Simplified characters then read
// a note or a question written in Traditional ones ("我住喺屯門" → "我住喺屯门"). Text without
// such characters is returned as it is.
func FoldTraditional(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= 0x3400 })
	if i < 0 {
		return s
	}
	t := tsTable()
	var b strings.Builder
	changed := false
	for off, r := range s[i:] {
		if r >= 0x3400 {
			if j := sort.Search(len(t.from), func(k int) bool { return t.from[k] >= r }); j < len(t.from) && t.from[j] == r {
				if !changed {
					b.Grow(len(s))
					b.WriteString(s[:i+off])
					changed = true
				}
				b.WriteRune(t.to[j])
				continue
			}
		}
		if changed {
			b.WriteRune(r)
		}
	}
	if !changed {
		return s
	}
	return b.String()
}
