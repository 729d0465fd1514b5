package memory

import "strings"

// splitPrefixes open the provider keys the guard knows by their prefix; a line ending in one of
// them, followed by a line that goes on with key characters, is a key a terminal or an editor
// wrapped (a paste of `ghp_0123…` cut at column 80).
var splitPrefixes = []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk-", "xox",
	"akia", "asia", "hf_", "npm_", "pypi-", "aiza", "sg.", "gsk_", "xai-", "whsec_", "rk_live_", "sk_live_", "r8_",
	"dapi", "hvs.", "ltai", "gocspx-"}

// joinSplitTokens returns s with each line break that cuts such a key removed (with the next
// line's indentation), or s itself when there is none. It is only searched, never stored.
func joinSplitTokens(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	lines := strings.Split(s, "\n")
	var b strings.Builder
	b.Grow(len(s))
	word := "" // the key being joined: the last word written, while it is one
	for i, line := range lines {
		line = strings.TrimRight(line, "\r")
		if i > 0 {
			next := strings.TrimLeft(line, " \t>")
			if word != "" && keyPrefixed(word) && len(next) > 0 && tokenChar(next[0]) {
				line = next
			} else {
				b.WriteByte('\n')
			}
		}
		b.WriteString(line)
		word = lastWord(b.String())
	}
	if b.Len() == len(s) && b.String() == s {
		return s
	}
	return b.String()
}

// lastWord is the run of key characters that ends s ("" when s ends otherwise).
func lastWord(s string) string {
	i := len(s)
	for i > 0 && tokenChar(s[i-1]) {
		i--
	}
	return s[i:]
}

func tokenChar(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '.' }

// keyPrefixed reports a word that opens with a known prefix and has key characters after it.
func keyPrefixed(w string) bool {
	lw := strings.ToLower(w)
	for _, p := range splitPrefixes {
		if strings.HasPrefix(lw, p) && len(w) >= len(p)+8 {
			return true
		}
	}
	return false
}
