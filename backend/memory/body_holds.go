package memory

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"engram/backend/text"
)

// BodyHolds reports whether body already holds add as a whole: a merge update appends add only
// when it does not. A bare substring test took "Go" for held by "Works at Google." and dropped
// the update; the text found must begin and end at a word's edge (or be CJK, where words have
// no spaces between them).
func BodyHolds(body, add string) bool {
	if add == "" {
		return true
	}
	for from := 0; ; {
		i := strings.Index(body[from:], add)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(add)
		if edge(body[:start], add, true) && edge(body[end:], add, false) {
			return true
		}
		_, size := utf8.DecodeRuneInString(body[start:])
		from = start + size
	}
}

// edge reports whether the text beside a match (before it when before is set) leaves add
// whole: nothing there, a character that is no letter or digit, or a CJK character on either
// side of the seam.
func edge(beside, add string, before bool) bool {
	var r, inner rune
	if before {
		if beside == "" {
			return true
		}
		r, _ = utf8.DecodeLastRuneInString(beside)
		inner, _ = utf8.DecodeRuneInString(add)
	} else {
		if beside == "" {
			return true
		}
		r, _ = utf8.DecodeRuneInString(beside)
		inner, _ = utf8.DecodeLastRuneInString(add)
	}
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return true
	}
	if !unicode.IsLetter(inner) && !unicode.IsDigit(inner) {
		return true
	}
	return text.IsCJK(r) || text.IsCJK(inner)
}
