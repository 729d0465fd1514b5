// Package text is Engram's one segmenter, shared by the store's index, recall and the local
// embedder: which characters are CJK, the bigram segmentation the word index stores, splitting
// text into words and CJK runs, stop words in both languages, Porter stems, cutting CJK runs
// into content chunks without a dictionary, and the everyday concepts. It imports nothing of
// Engram.
package text

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsCJK reports whether r belongs to a script written without spaces (Han, kana, Hangul), which
// unicode61 would otherwise swallow as one long token.
func IsCJK(r rune) bool {
	switch {
	case r < 0x1100: // below Hangul Jamo, the first of these scripts: most text, at once
		return false
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0xAC00 && r <= 0xD7A3: // the common ideographs, Hangul syllables
		return true
	case r >= 0x3000 && r <= 0x3004, r >= 0x3008 && r <= 0x3020, r >= 0xFF01 && r <= 0xFF65: // CJK and fullwidth punctuation
		return false
	}
	return isCJKSlow(r)
}

// isCJKSlow is IsCJK from the script tables alone (TestIsCJKFastPaths holds the fast paths to it).
func isCJKSlow(r rune) bool {
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
	segmentCJK(&b, s, nil)
	return b.String()
}

// SegmentCJKDoc is SegmentCJK for a document's columns in the word index, and the characters
// that would be missing from its tokens' first letters: a run's last character is otherwise
// only the second half of a bigram ("欢茶"), so "茶" begins no token of "我喜欢茶". With them
// added to the document every CJK character it holds begins a token, and a lone character
// is found through the index as a prefix ("茶"*) instead of by reading every body. Each such
// character is listed once, and only when no token of the document begins with it already:
// the search asks which documents hold a character, not where, and that keeps the index ~2%
// larger instead of ~8% (one token per run). The caller appends finals after a column's text,
// where no phrase of bigrams can run into them.
func SegmentCJKDoc(cols ...string) (segs []string, finals string) {
	segs = make([]string, len(cols))
	var last []rune
	var seen charFilter
	for i, c := range cols {
		if !mayHoldCJK(c) {
			segs[i] = c
			continue
		}
		var b strings.Builder
		b.Grow(len(c) * 2)
		segmentCJK(&b, c, func(run []rune) {
			if f := run[len(run)-1]; len(run) > 1 && !slices.Contains(last, f) {
				last = append(last, f)
				seen.add(f)
			}
		})
		segs[i] = b.String()
	}
	if len(last) == 0 {
		return segs, ""
	}
	// A final some token begins with already (a character of a run other than its last, or a
	// run of one) needs nothing.
	for _, c := range cols {
		if !mayHoldCJK(c) {
			continue
		}
		segmentCJK(nil, c, func(run []rune) {
			for _, r := range run[:max(len(run)-1, 1)] {
				if seen.may(r) {
					if i := slices.Index(last, r); i >= 0 {
						last[i] = -1
					}
				}
			}
		})
	}
	var f strings.Builder
	for _, r := range last {
		if r >= 0 {
			f.WriteString(" ")
			f.WriteRune(r)
		}
	}
	return segs, f.String()
}

// mayHoldCJK is false when s is valid UTF-8 and no byte of it can begin a CJK character (all
// begin at U+1100, whose lead byte is 0xE1): segmentCJK would then write s as it is, so English
// text — most of what a reindex segments — is not read rune by rune. Invalid UTF-8 takes the
// slow path, which writes U+FFFD for each bad byte.
func mayHoldCJK(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xE1 {
			return true
		}
		if s[i] >= utf8.RuneSelf {
			ascii = false
		}
	}
	return !ascii && !utf8.ValidString(s)
}

// charFilter is a 1,024-bit Bloom filter of characters: most characters of a document are
// answered "not a final" without a look at the list.
type charFilter [16]uint64

func (f *charFilter) add(r rune)      { f[r>>6&15] |= 1 << (r & 63) }
func (f *charFilter) may(r rune) bool { return f[r>>6&15]&(1<<(r&63)) != 0 }

// segmentCJK writes s to b as SegmentCJK does (when b is not nil), handing each CJK run to
// seen (when not nil).
func segmentCJK(b *strings.Builder, s string, seen func(run []rune)) {
	var run []rune
	flush := func() {
		if len(run) > 0 && seen != nil {
			seen(run)
		}
		if b == nil {
			run = run[:0]
			return
		}
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
		if b != nil {
			b.WriteRune(r)
		}
	}
	flush()
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
