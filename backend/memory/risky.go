package memory

import (
	"regexp"
)

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
