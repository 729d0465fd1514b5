package extraction

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"engram/backend/text"
)

// sentence is one sentence of the person's message. mask has the same bytes as the message
// except that quoted and backticked spans are blanked, so words the person quotes ("the error
// says 'I am …'") are never read as the person speaking; lower is mask with ASCII letters
// lower-cased (same byte offsets).
type sentence struct {
	start, end int // byte offsets in the message
	orig, mask string
	lower      string
	cjk        bool
	consumed   bool
}

// quotePairs are the quotation marks whose content is someone else's words (or code).
var quotePairs = map[rune]rune{'"': '"', '“': '”', '「': '」', '『': '』', '`': '`', '《': '》'}

// maskQuotes blanks the content of paired quotation marks with '~', keeping byte offsets.
func maskQuotes(s string) string {
	b := []byte(s)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		closer, ok := quotePairs[r]
		if !ok {
			i += n
			continue
		}
		j := strings.IndexRune(s[i+n:], closer)
		if j < 0 || j > 400 {
			i += n
			continue
		}
		for k := i + n; k < i+n+j; k++ {
			b[k] = '~'
		}
		i += n + j + utf8.RuneLen(closer)
	}
	return string(b)
}

// lowerASCII lower-cases ASCII letters only, so offsets stay aligned with the original.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// splitSentences cuts the message at sentence ends: newlines, ! ? ; and their fullwidth forms,
// 。, and a full stop followed by a space or the end (so "Fly.io" and "3.5" stay whole).
func splitSentences(msg, mask string) []sentence {
	var out []sentence
	start := 0
	emit := func(end int) {
		s, e := start, end
		for s < e && (mask[s] == ' ' || mask[s] == '\t' || mask[s] == '\r' || mask[s] == '\n') {
			s++
		}
		for e > s && (mask[e-1] == ' ' || mask[e-1] == '\t' || mask[e-1] == '\r' || mask[e-1] == '\n') {
			e--
		}
		// A list item's bullet ("- never use ORMs") is no word of the sentence: rules anchored
		// at its start read it, and its title does not open with "- ".
		for _, b := range []string{"- ", "* ", "+ ", "• "} {
			if strings.HasPrefix(mask[s:e], b) {
				s += len(b)
				break
			}
		}
		if e > s {
			m := mask[s:e]
			out = append(out, sentence{start: s, end: e, orig: msg[s:e], mask: m, lower: lowerASCII(m), cjk: text.HasCJK(m)})
		}
		start = end
	}
	for i := 0; i < len(mask); {
		r, n := utf8.DecodeRuneInString(mask[i:])
		switch r {
		case '\n', '!', '?', ';', '。', '！', '？', '；':
			emit(i + n)
		case '.':
			if (i+n == len(mask) || mask[i+n] == ' ' || mask[i+n] == '\n') && !abbreviationAt(mask, i) {
				emit(i + n)
			}
		case '…':
			// "Don't use tabs in this codebase… Also stop adding emoji": an ellipsis (one or
			// "……") ends a sentence as a full stop does, and the next one is read on its own.
			if !strings.HasPrefix(mask[i+n:], "…") {
				emit(i + n)
			}
		}
		i += n
	}
	emit(len(mask))
	// A message of many short lines (a pasted log, then the request) is read at its beginning
	// and its end: the last sentences are most often what the person asks.
	if len(out) > offlineMaxSentences {
		head := offlineMaxSentences / 3
		out = append(out[:head], out[len(out)-(offlineMaxSentences-head):]...)
	}
	return out
}

// from is the rest of the sentence from byte offset i (the person speaking after a clause
// about someone else).
func (s *sentence) from(i int) *sentence {
	return &sentence{start: s.start + i, end: s.end, orig: s.orig[i:], mask: s.mask[i:], lower: s.lower[i:], cjk: s.cjk}
}

// quoteAround returns the verbatim words of msg[start:end], cut to offlineMaxQuoteBytes on a
// rune (and, for Latin text, a word) boundary: always an exact substring of the message.
func quoteAround(msg string, start, end int) string {
	if start < 0 || end > len(msg) || start >= end {
		return ""
	}
	for start < end && !utf8.RuneStart(msg[start]) {
		start++
	}
	q := strings.TrimSpace(msg[start:end])
	if len(q) <= offlineMaxQuoteBytes {
		return trimQuoteEnd(q)
	}
	cut := clip(q, offlineMaxQuoteBytes)
	if !text.HasCJK(cut) {
		if i := strings.LastIndexByte(cut, ' '); i > offlineMaxQuoteBytes/2 {
			cut = cut[:i]
		}
	}
	return trimQuoteEnd(cut)
}

// trimQuoteEnd drops trailing spaces and separators so a quote ends on a word; the result is
// still a prefix of its input, hence still a substring of the message.
func trimQuoteEnd(q string) string {
	return strings.TrimRightFunc(q, func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == '，' || r == '、' || r == ':' || r == '：'
	})
}

// isPunct reports separators ignored by slug hashing.
func isPunct(r rune) bool {
	return unicode.IsPunct(r) || unicode.IsSymbol(r)
}

// clause is a piece of a sentence between commas or conjunctions, used by the experience and
// identity rules; offsets are in bytes of the message.
type clause struct {
	start, end int
	lower      string
}

// splitClauses cuts a span of the message at commas, semicolons, sentence ends and the
// English joins ", and" / ", but".
func splitClauses(lower string, from, to int) []clause {
	var out []clause
	start := from
	emit := func(end int) {
		s, e := start, end
		for s < e && (lower[s] == ' ' || lower[s] == '\n') {
			s++
		}
		for e > s && (lower[e-1] == ' ' || lower[e-1] == '\n') {
			e--
		}
		if e > s {
			out = append(out, clause{start: s, end: e, lower: lower[s:e]})
		}
	}
	for i := from; i < to; {
		r, n := utf8.DecodeRuneInString(lower[i:])
		cut := false
		switch r {
		case ',', ';', '!', '?', '\n', '，', '；', '。', '！', '？':
			cut = true
		case '.':
			cut = i+n == to || lower[i+n] == ' '
		}
		if cut {
			emit(i)
			start = i + n
		}
		i += n
	}
	emit(to)
	return out
}

// trimPunct strips surrounding spaces and sentence punctuation from a captured phrase.
func trimPunct(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == '.' || r == ',' || r == '!' || r == '?' || r == ';' ||
			r == ':' || r == '。' || r == '，' || r == '！' || r == '？' || r == '；' || r == '：' || r == '、' || r == '…'
	})
}

// capFirst upper-cases the first letter of a Latin phrase.
func capFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// offlinePhraseRunes bounds every phrase copied from the message into a title or body, so a
// body stays far below the 8 KiB limit whatever the person pastes.
const offlinePhraseRunes = 300

// saidText is the sentence as the person said it, bounded, for a body's "in their words" line.
func saidText(s *sentence) string {
	return clipRunes(trimPunct(s.orig), offlinePhraseRunes)
}

// abbreviations end in a full stop that ends no sentence: "My name is Dr. Lee" was read as
// "My name is Dr." (the name Dr) and "Lee.".
var abbreviations = map[string]bool{"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true,
	"st": true, "jr": true, "sr": true, "mt": true, "e.g": true, "i.e": true, "vs": true, "approx": true}

// abbreviationAt reports whether the full stop at dot closes an abbreviation or a name's
// initial ("John F. Kennedy"), followed by more of the sentence.
func abbreviationAt(mask string, dot int) bool {
	if dot+1 >= len(mask) || mask[dot+1] == '\n' {
		return false
	}
	from := dot
	for from > 0 && (mask[from-1] >= 'a' && mask[from-1] <= 'z' || mask[from-1] >= 'A' && mask[from-1] <= 'Z' || mask[from-1] == '.') {
		from--
	}
	if from > 0 && mask[from-1] != ' ' && mask[from-1] != '(' && mask[from-1] != '\n' {
		return false
	}
	w := mask[from:dot]
	if len(w) == 1 && w[0] >= 'A' && w[0] <= 'Z' {
		// An initial between two capitalised words ("John F. Kennedy", not "plan B. Then").
		rest := strings.TrimLeft(mask[dot+1:], " ")
		before := strings.Fields(mask[:from])
		return rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' && len(before) > 0 &&
			before[len(before)-1][0] >= 'A' && before[len(before)-1][0] <= 'Z'
	}
	return abbreviations[lowerASCII(w)]
}
