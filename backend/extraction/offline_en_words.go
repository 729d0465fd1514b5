package extraction

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"engram/backend/text"
)

// English word helpers shared by the English rules: phrase ends, capitals, verb forms and the
// first-to-third-person rewrite of titles.

var (
	enThirdLead = text.Lazy(`^(?i:i(?:'m|’m| am)|i(?:'ve|’ve| have)|i (?:don't|don’t|do not|dont)|i (?:can't|can’t|cannot|can not)|i (?:never|only|also|still|really|mostly|mainly|usually|always|primarily|generally|strongly|definitely|absolutely|just|now|exclusively|daily)|i)\b\s*`)
	enChatTail  = text.Lazy(`(?i)\s+(?:lol|lmao|haha|hehe|xd|:\)|:d|tbh|honestly)$`)
	enThirdMap  = map[string]string{"i'm": "Is", "i’m": "Is", "i am": "Is", "i've": "Has", "i’ve": "Has", "i have": "Has",
		"i don't": "Doesn't", "i don’t": "Doesn't", "i do not": "Does not", "i dont": "Doesn't",
		"i can't": "Can't", "i can’t": "Can't", "i cannot": "Cannot", "i can not": "Cannot"}
)

// imperativeAfter reports whether the word after offset i looks like a verb's base form (an
// instruction) rather than a third-person, past or -ing form (a report).
func imperativeAfter(l string, i int) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(l[i:]), " ")
	w = strings.TrimRight(w, ".,;:!?")
	switch {
	case w == "", w == "was", w == "is", w == "has", w == "does", w == "again", w == "mind", w == "once", w == "ever", w == "before":
		return false
	case enNotBaseVerb[w]:
		return false
	case strings.HasSuffix(w, "ss"): // "always pass --race"
		return true
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "ed"), strings.HasSuffix(w, "ing"):
		return false
	}
	return true
}

// enNotBaseVerb are words that follow "always"/"never" in chat without making an instruction:
// irregular past forms ("never had a chance", "always thought so"), modals, and adjectives,
// adverbs, prepositions and determiners ("always good to hear", "always up for something
// sweet", "never a dull moment"), which a subject-less sentence starts with in casual speech.
var enNotBaseVerb = map[string]bool{
	"had": true, "did": true, "got": true, "gotten": true, "made": true, "went": true, "gone": true, "came": true,
	"saw": true, "seen": true, "said": true, "thought": true, "felt": true, "knew": true, "known": true,
	"took": true, "taken": true, "gave": true, "given": true, "found": true, "told": true, "kept": true,
	"heard": true, "met": true, "ran": true, "sat": true, "stood": true, "won": true, "lost": true,
	"bought": true, "brought": true, "caught": true, "taught": true, "wrote": true, "written": true,
	"drove": true, "spoke": true, "broke": true, "chose": true, "ate": true, "drank": true, "sang": true,
	"swam": true, "began": true, "forgot": true, "understood": true, "been": true, "were": true, "am": true,
	"are": true, "would": true, "could": true, "should": true, "will": true, "can": true, "might": true,
	"must": true, "good": true, "great": true, "nice": true, "fun": true, "happy": true, "glad": true,
	"fine": true, "cool": true, "true": true, "easy": true, "hard": true, "awesome": true, "amazing": true,
	"lovely": true, "sweet": true, "here": true, "there": true, "up": true, "down": true, "around": true,
	"ready": true, "so": true, "too": true, "such": true, "a": true, "an": true, "the": true, "my": true,
	"your": true, "his": true, "her": true, "our": true, "their": true, "its": true, "for": true,
	"with": true, "in": true, "on": true, "at": true, "about": true, "into": true, "by": true, "from": true,
	"sure": true, "late": true, "early": true, "enough": true, "worth": true, "better": true, "best": true,
	"busy": true, "free": true, "welcome": true, "grateful": true, "thankful": true, "open": true,
	"available": true, "together": true, "home": true, "interested": true, "excited": true, "fond": true,
	"i": true, "me": true, "we": true, "you": true, "it": true, "that": true, "this": true, "what": true,
}

// aboutThisArtifact reports an instruction whose object is a thing of the current task
// ("never use that approach", "always run this script"): verb, then a demonstrative.
func aboutThisArtifact(rest string) bool {
	f := strings.Fields(rest)
	return len(f) >= 2 && enDemonstrative.MatchString(f[1])
}

// hasNamedObject reports whether the words after offset i of the sentence name a thing (not
// a pronoun): "don't use testify" yes, "don't use that" no.
func hasNamedObject(s *sentence, i int) bool {
	rest := strings.TrimSpace(s.lower[i:])
	return rest != "" && !enBadObject.MatchString(rest) && unicode.IsLetter(firstRune(rest)) || strings.HasPrefix(rest, "~")
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// capitalised reports whether the masked sentence has an upper-case letter at offset i.
func capitalised(s *sentence, i int) bool {
	r, _ := utf8.DecodeRuneInString(s.mask[i:])
	return unicode.IsUpper(r)
}

// enNationality keeps "I'm Italian" from being read as a name.
func enNationality(w string) bool {
	for _, suf := range []string{"ese", "ish", "ian", "can", "ean"} {
		if strings.HasSuffix(w, suf) && len(w) > 5 {
			return true
		}
	}
	return false
}

// extendRole continues a role phrase through "at …", "in …", "for …" up to the clause end
// ("backend lead at a fintech in Milan"): the profile's role signal, which describes the
// person's job in their words, while the role memory holds the role alone.
func extendRole(s *sentence, a, b int) string {
	rest := s.lower[b:]
	for _, p := range []string{" at ", " in ", " for ", " with ", " on "} {
		if strings.HasPrefix(rest, p) {
			return clipRunes(trimPunct(s.orig[a:clauseEnd(s.lower, b)]), offlinePhraseRunes)
		}
	}
	return trimPunct(s.orig[a:b])
}

// clauseEnd returns where the phrase starting at offset i of the lower-cased sentence ends:
// the next comma or stop, or a conjunction that starts another thought.
func clauseEnd(l string, i int) int {
	end := len(l)
	if j := strings.IndexAny(l[i:], ",;!?"); j >= 0 {
		end = i + j
	}
	if j := strings.Index(l[i:], ". "); j >= 0 && i+j < end {
		end = i + j
	}
	if strings.HasSuffix(l[:end], ".") {
		end--
	}
	for _, w := range enOutroEnd {
		if j := strings.Index(l[i:], w); j >= 0 && i+j < end {
			end = i + j
		}
	}
	return end
}

// enUsedAs is a tool and the role the person gives it: "Neovim as my main editor".
var enUsedAs = text.Lazy(`^(\S.{0,40}?)\s+as\s+(?:my|our|the)\s+((?:[a-z-]+\s+){0,2}[a-z-]+)$`)

// usedAs titles "I use Neovim as my main editor" by the role: "Main editor: Neovim" (a
// title that reads like a profile line, not "Uses Neovim as my main editor"). at is where the
// tool starts in the sentence, end where its clause ends; ok is false for any other shape.
func usedAs(s *sentence, at, end int) (string, bool) {
	if at < 0 || end <= at {
		return "", false
	}
	m := enUsedAs.FindStringSubmatchIndex(s.lower[at:end])
	if m == nil {
		return "", false
	}
	return capFirst(s.orig[at+m[4]:at+m[5]]) + ": " + s.orig[at+m[2]:at+m[3]], true
}

// enMine are the person's own words for themselves inside a clause made third-person.
var enMine = text.Lazy(`\b(?:my|mine|myself)\b`)

// thirdPerson turns a clause the person said about themselves into a title about them:
// "I prefer tabs over spaces" → "Prefers tabs over spaces", "I'm vegetarian" → "Is vegetarian",
// "I keep my notes in Obsidian" → "Keeps their notes in Obsidian". Anything it does not
// recognise is kept as said.
func thirdPerson(c string) string {
	t := thirdPersonLead(c)
	if t == c {
		return c
	}
	return enMine.ReplaceAllStringFunc(t, func(w string) string {
		return map[string]string{"my": "their", "mine": "theirs", "myself": "themselves"}[w]
	})
}

func thirdPersonLead(c string) string {
	c = enChatTail.ReplaceAllString(c, "")
	m := enThirdLead.FindStringIndex(c)
	if m == nil {
		return c
	}
	lead := strings.ToLower(strings.TrimSpace(c[:m[1]]))
	rest := c[m[1]:]
	if t, ok := enThirdMap[lead]; ok {
		return t + " " + rest
	}
	adv := strings.TrimSpace(strings.TrimPrefix(lead, "i"))
	verb, tail, _ := strings.Cut(rest, " ")
	if verb == "" || !isLowerWord(verb) {
		return c
	}
	switch {
	case strings.HasSuffix(verb, "s") || strings.HasSuffix(verb, "sh") || strings.HasSuffix(verb, "ch") || strings.HasSuffix(verb, "x"):
		verb += "es"
	case strings.HasSuffix(verb, "y") && len(verb) > 2 && !strings.ContainsRune("aeiou", rune(verb[len(verb)-2])):
		verb = verb[:len(verb)-1] + "ies"
	default:
		verb += "s"
	}
	out := verb
	if adv != "" {
		out = adv + " " + verb
	}
	if tail != "" {
		out += " " + tail
	}
	return capFirst(out)
}

func isLowerWord(w string) bool {
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}
