// Package text is Engram's one segmenter, shared by the store's index, recall and the local
// embedder: which characters are CJK, the bigram segmentation the word index stores, splitting
// text into words and CJK runs, stop words in both languages, Porter stems, cutting CJK runs
// into content chunks without a dictionary, and the everyday concepts. It imports nothing of
// Engram.
package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsCJK reports whether r belongs to a script written without spaces (Han, kana, Hangul), which
// unicode61 would otherwise swallow as one long token.
func IsCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) ||
		r == 'ー' || r == 'ｰ' // the prolonged sound mark is script Common but part of kana words
}

// SegmentCJK rewrites every run of CJK characters as overlapping bigrams separated by spaces
// ("我喜欢茶" → "我喜 喜欢 欢茶"), leaving other text alone. Indexing bigrams makes any
// two-character word a whole token, which is what a dictionary-free segmenter can promise.
func SegmentCJK(s string) string {
	var b strings.Builder
	b.Grow(len(s) * 2)
	var run []rune
	flush := func() {
		switch len(run) {
		case 0:
			return
		case 1:
			b.WriteString(" ")
			b.WriteRune(run[0])
			b.WriteString(" ")
		default:
			b.WriteString(" ")
			for i := 0; i+1 < len(run); i++ {
				if i > 0 {
					b.WriteString(" ")
				}
				b.WriteRune(run[i])
				b.WriteRune(run[i+1])
			}
			b.WriteString(" ")
		}
		run = run[:0]
	}
	for _, r := range s {
		if IsCJK(r) {
			run = append(run, r)
			continue
		}
		flush()
		b.WriteRune(r)
	}
	flush()
	return b.String()
}

// Bigrams lists the overlapping two-character pieces of a CJK chunk, the units the word index
// stores; a one-character chunk is returned whole.
func Bigrams(chunk string) []string {
	rs := []rune(chunk)
	if len(rs) < 2 {
		return []string{chunk}
	}
	out := make([]string, 0, len(rs)-1)
	for i := 0; i+1 < len(rs); i++ {
		out = append(out, string(rs[i:i+2]))
	}
	return out
}

// RuneLen is the number of characters in s.
func RuneLen(s string) int { return utf8.RuneCountInString(s) }

// HasCJK reports whether s holds any CJK character.
func HasCJK(s string) bool {
	for _, r := range s {
		if IsCJK(r) {
			return true
		}
	}
	return false
}
