package format

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// SlugFromTitle makes a slug from a title: lowercase ASCII words joined by dashes, at most 48
// characters. A title with no ASCII letters (Chinese, for one) gets "memory-" and a hash of
// the title, and one whose other letters were dropped gets the hash after its ASCII words:
// "喜欢川菜 (Sichuan)" and "讨厌川菜 (Sichuan)" are two memories, not one slug twice. A title
// that would make a name Windows reserves ("Con", "AUX", "com1") gets the hash too. The title
// is read in NFC: "Zürich" typed on Linux and the same name from a macOS file name (NFD, "u"
// and a combining mark) made "z-rich-4251685e" and "zu-rich", one note imported twice.
func SlugFromTitle(title string) string {
	title = norm.NFC.String(title)
	var b strings.Builder
	dash, dropped := false, false
	for _, r := range strings.ToLower(title) {
		switch {
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
			dropped = dropped || unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		if b.Len() >= 48 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 48 {
		s = strings.Trim(s[:48], "-")
	}
	switch {
	case s == "":
		s = "memory-" + ShortHash(title)
	case len(s) < 3 || dropped || ReservedSlug(s):
		s += "-" + ShortHash(title)
	}
	return s
}

// ShortHash is the first 8 hex digits of the SHA-256 of s.
func ShortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])[:8]
}
