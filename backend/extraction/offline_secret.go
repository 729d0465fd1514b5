package extraction

import (
	"strings"
	"unicode"

	"engram/backend/memory"
	"engram/backend/text"
)

// A credential is never a memory. The secret guard redacts the shapes it knows before the
// planner sees a turn ("[redacted secret]") and refuses a write that still holds one; but a
// sentence whose fact is a credential ("my password is correcthorse…", "my OpenAI key is
// [redacted secret]") leaves nothing worth keeping once the value is gone, and a value the
// guard does not know would be written as is. So the offline extractor reads no sentence that
// states a credential: analyse blanks it like pasted material.
var (
	// credAny: a password-like word followed by what it is; any value counts ("my password is
	// hunter2", "密码是 abc").
	credAny = text.Lazy(`(?i)\b(?:password|passwd|passphrase|passcode|pin(?: code)?|otp|2fa code|recovery codes?|seed phrase|mnemonic)s?\b(?:\s+(?:for|of|to|on|at)\s+[\w.@-]+(?:\s+[\w.@-]+)?)?\s*(?:is|are|was|=|:)\s*\S|(?:密码|口令|验证码|助记词|PIN码)[^，,。；;\s是为]{0,4}(?:是|为|[：:=])\s*\S`)
	// credKey: a key- or token-like word; what follows must look like a value (tokenValue).
	credKey = text.Lazy(`(?i)\b(?:api[ _-]?key|key|token|secret|credential|jwt|cookie|session id|access key(?: id)?|client id|bearer)s?\b|密钥|秘钥|私钥|令牌`)
	// credLink: what may stand between the word and its value ("for prod is", "=", "是").
	credLink = text.Lazy(`(?i)^(?:\s+(?:for|of|to|on|at)\s+[\w.@-]+(?:\s+[\w.@-]+)?)?\s*(?:is|are|was|=|:|是|为|：)?\s*['"“]?`)
	// credURL: a URL that carries a user and password ("postgres://admin:s3cret@db").
	credURL = text.Lazy(`[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]+:[^\s/@]+@`)
)

// redactedMark is what the secret guard leaves where it removed a secret.
const redactedMark = "[redacted secret]"

// maskCredentials blanks, in mask, each sentence of the message that states a credential.
// guarded says whether the secret guard finds a secret anywhere in the message (checked once,
// not per sentence).
func maskCredentials(msg, mask string) string {
	guarded := memory.RedactSecrets(msg) != msg
	b := []byte(mask)
	for _, s := range splitSentences(msg, mask) {
		if credentialSentence(s.orig, guarded) {
			for i := s.start; i < s.end; i++ {
				if b[i] != '\n' {
					b[i] = '~'
				}
			}
		}
	}
	return string(b)
}

// credentialSentence reports a sentence that states a credential or holds a redacted one.
func credentialSentence(s string, guarded bool) bool {
	if strings.Contains(s, redactedMark) || credAny.MatchString(s) || credURL.MatchString(s) {
		return true
	}
	for _, m := range credKey.FindAllStringIndex(s, -1) {
		rest := s[m[1]:]
		if l := credLink.FindStringIndex(rest); l != nil && tokenValue(rest[l[1]:]) {
			return true
		}
	}
	return guarded && memory.RedactSecrets(s) != s
}

// tokenValue reports whether s starts with a value shaped like a key or token: 8 or more
// letters, digits and _-./+= with a digit or one of those separators among them
// ("AKIAIOSFODNN7EXAMPLE", "ghp_…", "sk-proj-…"). "is to commit small" and "takeaway" are words.
func tokenValue(s string) bool {
	end := strings.IndexFunc(s, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-./+=", r)))
	})
	if end < 0 {
		end = len(s)
	}
	v := strings.TrimRight(s[:end], ".")
	return len(v) >= 8 && strings.ContainsFunc(v, func(r rune) bool { return unicode.IsDigit(r) || strings.ContainsRune("_-/+=", r) })
}
