package format

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SlugFromTitle makes a slug from a title: lowercase ASCII words joined by dashes, at most 48
// characters; a title with no ASCII letters (Chinese, for one) gets "memory-" and a hash of it.
func SlugFromTitle(title string) string {
	var b strings.Builder
	dash := false
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
		}
		if b.Len() >= 48 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 48 {
		s = strings.Trim(s[:48], "-")
	}
	if len(s) < 3 {
		if s == "" {
			s = "memory"
		}
		s += "-" + ShortHash(title)
	}
	return s
}

// ShortHash is the first 8 hex digits of the SHA-256 of s.
func ShortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])[:8]
}
