package memory

import "regexp"

// secretPatterns refuse writes that would put credentials into plain Markdown that agents read.
var secretPatterns = []struct {
	name string
	re   *regexp.Regexp
}{
	{"private_key", regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----`)},
	{"aws_access_key", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
	{"github_token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b`)},
	{"openai_key", regexp.MustCompile(`\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b`)},
	{"slack_token", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`)},
	{"google_api_key", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`)},
	{"stripe_key", regexp.MustCompile(`\b[sr]k_live_[0-9a-zA-Z]{20,}\b`)},
	{"jwt", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b`)},
	{"password_assignment", regexp.MustCompile(`(?i)\b(?:password|passwd|api[_-]?key|secret[_-]?key|access[_-]?token)\s*[:=]\s*["']?[^\s"']{8,}`)},
}

// riskyPatterns mark text that tries to steer an agent; such memories are kept but forced
// unreviewed so a person looks at them before they are trusted.
var riskyPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget)\b.{0,30}\b(?:previous|prior|above|earlier|all)\b.{0,20}\b(?:instructions?|rules?|prompts?)`),
	regexp.MustCompile(`(?i)\b(?:system prompt|developer message|jailbreak)\b`),
	regexp.MustCompile(`(?i)\b(?:always|must)\b.{0,40}\b(?:run|execute)\b.{0,40}(?:rm -rf|curl [^|]*\|\s*(?:ba)?sh|sudo )`),
	regexp.MustCompile(`(?i)(?:rm\s+-rf\s+[/~]|curl\s+[^|\n]*\|\s*(?:ba)?sh|wget\s+[^|\n]*\|\s*(?:ba)?sh)`),
	regexp.MustCompile(`(?:忽略|无视|忘记).{0,10}(?:之前|以上|先前|所有).{0,10}(?:指令|指示|规则|提示)`),
	regexp.MustCompile(`系统提示词`),
}

// findSecret returns the name of the first secret pattern found in any text, or "".
func findSecret(texts ...string) string {
	for _, t := range texts {
		for _, p := range secretPatterns {
			if p.re.MatchString(t) {
				return p.name
			}
		}
	}
	return ""
}

// isRisky reports whether any text looks like an instruction aimed at the agent.
func isRisky(texts ...string) bool {
	for _, t := range texts {
		for _, re := range riskyPatterns {
			if re.MatchString(t) {
				return true
			}
		}
	}
	return false
}
