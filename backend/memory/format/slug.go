package format

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"
)

// slugMaxTitleBytes is how much of a title a slug made from it keeps, leaving room under the
// 64-byte slug limit for a hash and a suffix such as "-conflict-<hash>".
const slugMaxTitleBytes = 48

// SlugFromTitle makes a slug from a title: its words — lowercase ASCII letters and digits, and
// Chinese characters (SlugRune) — joined by dashes, at most 48 bytes. "张三 works at 阿里巴巴"
// is "张三-works-at-阿里巴巴" and "喜欢川菜" is "喜欢川菜": the file keeps the title's words
// (a mixed title lost its Chinese and a Chinese one became "memory-<hash>"). A title with no
// such words (emoji alone) gets "memory-" and a hash of the title, and one whose other letters
// were dropped ("Café", Korean) gets the hash after its words: "사랑 (love)" and "미움 (love)"
// are two memories, not one slug twice. A title that would make a name Windows reserves
// ("Con", "AUX", "com1") gets the hash too. The title is read in NFC with full-width letters
// folded ("ＡＩ" is "ai"): "Zürich" typed on Linux and the same name from a macOS file name
// (NFD) made "z-rich-4251685e" and "zu-rich", one note imported twice.
func SlugFromTitle(title string) string {
	title = norm.NFC.String(width.Fold.String(title))
	return slugOf(title, func(r rune) bool { return SlugRune(r) && r != '-' })
}

// slugOf joins the runs of title's runes keep takes with single dashes, cut to the slug
// length; a title of none gets a hash, and one that dropped letters or digits, or that is
// short or reserved, the hash as a suffix (two titles differing only in what was dropped
// stay apart).
func slugOf(title string, keep func(rune) bool) string {
	var b strings.Builder
	dash, dropped := false, false
	for _, r := range strings.ToLower(title) {
		switch {
		case keep(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
			dropped = dropped || unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		if b.Len() >= slugMaxTitleBytes {
			break
		}
	}
	s := CutSlug(b.String(), slugMaxTitleBytes)
	switch {
	case s == "":
		s = "memory-" + ShortHash(title)
	case len(s) < 3 || dropped || ReservedSlug(s):
		s += "-" + ShortHash(title)
	}
	return s
}

// SlugRune reports whether r may stand in a slug: a lowercase ASCII letter, a digit, a dash,
// or a Chinese character (Han script) that every file system stores and compares as itself —
// no case, and unchanged by NFC, NFD and NFKC, so a macOS file name (NFD) is the same bytes
// as on Linux and Windows; compatibility ideographs (U+F900…) and Kangxi radicals, which
// normalisation turns into other characters, are left out.
func SlugRune(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-'
	case !unicode.Is(unicode.Han, r) || !(unicode.IsLetter(r) || unicode.IsNumber(r)):
		return false
	}
	s := string(r)
	return norm.NFKC.String(s) == s && norm.NFD.String(s) == s
}

// CutSlug cuts s to at most n bytes at a character boundary (a Chinese character is three or
// four bytes: a byte cut left half of one, no UTF-8 and no slug) and trims the dashes left at
// either end. Every slug given a suffix ("-proposed", "-conflict-<hash>") is cut through it.
func CutSlug(s string, n int) string {
	if len(s) > n {
		i := n
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i]
	}
	return strings.Trim(s, "-")
}

// ShortHash is the first 8 hex digits of the SHA-256 of s.
func ShortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])[:8]
}

// LegacySlugFromTitle is the slug builds before Chinese was kept made from title (ASCII words
// only: "猫" was "memory-<hash>", "张三 works at 阿里巴巴" "works-at-<hash>"), or "" when it is
// the slug SlugFromTitle makes now. A write or import taking its slug from a title checks it
// too, so a title written or imported before is still found as taken or already present
// instead of becoming a second memory under the new slug; files are never renamed.
func LegacySlugFromTitle(title string) string {
	title = norm.NFC.String(title)
	s := slugOf(title, func(r rune) bool { return r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) })
	if s == SlugFromTitle(title) {
		return ""
	}
	return s
}
