package memory

import (
	"strings"
	"unicode"
)

// RedactKeyLike masks what in a refused item's slug or title could be the secret that got it
// refused. The refusal is recorded (the audit log, the extraction run's report) and shown in
// Activity; a slug the extractor made from "production token AKIAZ7Q3…" carries the key in
// lower case, which no provider shape matches any more. So every word of 12 or more letters
// and digits that mixes both, and every word the secret guard names, becomes "redacted".
func RedactKeyLike(s string) string {
	if s == "" {
		return s
	}
	var b strings.Builder
	word := func(w string) {
		if keyLike(w) || secretKind(w) != "" {
			b.WriteString("redacted")
			return
		}
		b.WriteString(w)
	}
	start := -1
	for i, r := range s {
		inWord := r == '_' || r == '+' || r == '/' || r == '=' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case inWord && start < 0:
			start = i
		case !inWord:
			if start >= 0 {
				word(s[start:i])
				start = -1
			}
			b.WriteRune(r)
		}
	}
	if start >= 0 {
		word(s[start:])
	}
	return b.String()
}

// keyLike reports a run of 12+ ASCII letters and digits (and key punctuation) holding both.
func keyLike(w string) bool {
	if len(w) < 12 {
		return false
	}
	letters, digits := 0, 0
	for _, r := range w {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letters++
		case r == '_' || r == '+' || r == '/' || r == '=' || r == '.':
		default:
			return false
		}
	}
	return letters > 0 && digits > 0
}
