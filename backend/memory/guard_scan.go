package memory

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// scanForm is the text the rules see: format characters (zero-width spaces and joiners, soft
// hyphens, bidi marks) removed and compatibility forms folded (fullwidth Ａ to A, ： to :), so
// a key split or disguised by them is still one key.
func scanForm(s string) string {
	plain := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	prev := rune(0)
	for _, r := range s {
		if invisible(r) || unicode.Is(unicode.Mn, r) && prev < utf8.RuneSelf && (isAlnum(byte(prev)) || prev == '_' || prev == '-') {
			continue
		}
		b.WriteRune(r)
		prev = r
	}
	return norm.NFKC.String(b.String())
}

// invisible reports a character drawn as nothing: format characters, the combining grapheme
// joiner, the Hangul fillers, variation selectors (U+FE0F after a letter changes nothing you
// see) and the blank Braille pattern. A combining mark after an ASCII letter or digit is
// dropped too (scanForm): it turns "g" into "ǵ" on screen but no key holds one, so one inside
// a token is there to split it.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r) ||
		r == '\u034f' || r == '\u115f' || r == '\u1160' || r == '\u3164' || r == '\u2800'
}

// SecretKind is the kind of the first secret the guard finds in s ("" for none), for a caller
// outside the store that keeps text of its own (the settings).
func SecretKind(s string) string { return secretKind(s) }

// secretKind returns the kind of the first secret found in one text, or "". A text whose key
// was wrapped over lines is read again with the key joined (joinSplitTokens).
func secretKind(s string) string {
	if k := secretKindIn(s); k != "" {
		return k
	}
	if j := joinSplitTokens(s); j != s {
		return secretKindIn(j)
	}
	return ""
}

func secretKindIn(s string) string {
	if s == "" {
		return ""
	}
	s = scanForm(s)
	lower := strings.ToLower(s)
	present := secretKeywords.scan(lower)
	var lines, lowerLines []string
	for i := range secretRules {
		r := &secretRules[i]
		if !present.has(i) {
			continue
		}
		if r.whole {
			if k := r.match(s); k != "" {
				return k
			}
			continue
		}
		if lines == nil {
			lines, lowerLines = strings.Split(s, "\n"), strings.Split(lower, "\n")
		}
		for i, line := range lines {
			if !containsAny(lowerLines[i], r.keywords) {
				continue
			}
			if k := r.match(line); k != "" {
				return k
			}
		}
	}
	return ""
}

// match returns the kind the rule names if it finds a secret in text, else "".
func (r *secretRule) match(text string) string {
	var ms [][]int
	if r.find != nil {
		ms = r.find(text)
	} else {
		ms = r.re.FindAllStringSubmatchIndex(text, -1)
	}
	for _, m := range ms {
		if !r.accepts(text, m) {
			continue
		}
		if r.kind == "" {
			return assignmentKind(text[m[2]:m[3]])
		}
		return r.kind
	}
	return ""
}

// accepts reports whether match m (submatch indexes into text) is a secret: the rule's judge
// agrees and a context rule's value is no made-up run. secretKind and RedactSecrets both ask
// it, so whatever the refusal calls a secret is redacted from a conversation, and nothing else.
// Before, both skipped any match holding a run (abcdefgh, 000000) anywhere: a Slack webhook
// ending in one was kept in a session's messages while the first 80 characters of the same
// turn, quoted as a memory's source_quote, were refused.
func (r *secretRule) accepts(text string, m []int) bool {
	if r.valid != nil && !r.valid(text, m) {
		return false
	}
	for g := r.value; g > 0 && 2*g+1 < len(m); g++ {
		if m[2*g] >= 0 {
			return !placeholderRun(text[m[2*g]:m[2*g+1]])
		}
	}
	return true
}

// ruleSet is a set of secretRules by index.
type ruleSet [2]uint64

func (s ruleSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s *ruleSet) add(o ruleSet) { s[0] |= o[0]; s[1] |= o[1] }
func (s *ruleSet) addRule(i int) { s[i/64] |= 1 << (i % 64) }

// keywordIndex finds which rules' keywords a lowercased text holds in one pass over it: a rule
// runs only on a text holding one of its keywords, and asking each of some 150 keywords in
// turn (strings.Contains) read every text that many times — two thirds of the secret scan,
// and a tenth of a cold build's CPU.
type keywordIndex struct {
	// byFirst holds each keyword under its first byte.
	byFirst [256][]keywordEntry
	// pairs marks the two-byte pairs a keyword can begin with (a one-byte keyword marks every
	// pair of its byte): most positions of a text begin none, and are passed over with one
	// bit test instead of a walk of byFirst's list (that walk was 8% of a reindex's CPU).
	pairs [1 << 16 / 64]uint64
}

type keywordEntry struct {
	word  string
	rules ruleSet
}

// newKeywordIndex indexes each rule's keywords (lists[i] for rule i, written as the text they
// are matched in is: lowercase).
func newKeywordIndex(lists [][]string) *keywordIndex {
	x := &keywordIndex{}
	for i, words := range lists {
		for _, w := range words {
			if w == "" {
				continue
			}
			es := x.byFirst[w[0]]
			j := slices.IndexFunc(es, func(e keywordEntry) bool { return e.word == w })
			if j < 0 {
				es = append(es, keywordEntry{word: w})
				j = len(es) - 1
			}
			es[j].rules.addRule(i)
			x.byFirst[w[0]] = es
			for b := 0; b < 256; b++ {
				if len(w) == 1 || int(w[1]) == b {
					p := int(w[0])<<8 | b
					x.pairs[p/64] |= 1 << (p % 64)
				}
			}
		}
	}
	return x
}

// scan returns the rules one of whose keywords lower holds.
func (x *keywordIndex) scan(lower string) ruleSet {
	var out ruleSet
	for i := 0; i < len(lower); i++ {
		if i+1 < len(lower) {
			if p := int(lower[i])<<8 | int(lower[i+1]); x.pairs[p/64]&(1<<(p%64)) == 0 {
				continue
			}
		}
		es := x.byFirst[lower[i]]
		if len(es) == 0 {
			continue
		}
		rest := lower[i:]
		for _, e := range es {
			// The second byte settles most candidates before a whole comparison.
			if len(rest) >= len(e.word) && (len(e.word) < 2 || rest[1] == e.word[1]) && rest[:len(e.word)] == e.word {
				out.add(e.rules)
			}
		}
	}
	return out
}

// secretKeywords indexes secretRules' keywords.
var secretKeywords = newKeywordIndex(func() (lists [][]string) {
	for _, r := range secretRules {
		lists = append(lists, r.keywords)
	}
	return lists
}())

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// base64Runs finds every maximal run of standard base64 characters of 40 or more.
func base64Runs(text string) [][]int {
	var out [][]int
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && isAlnum(text[i]) || i < len(text) && (text[i] == '/' || text[i] == '+') {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= 40 {
			out = append(out, []int{start, i})
		}
		start = -1
	}
	return out
}

// textField is one named free-text value; the name is the frontmatter field it came from.
type textField struct{ name, text string }

// memoryFields lists every free-text value of a memory: a secret hidden in a tag, an alias or
// the source is as readable by agents as one in the body.
func memoryFields(m *Memory) []textField {
	fs := []textField{{"title", m.Title}, {"body", m.Body}, {"source_quote", m.SourceQuote},
		{"reasoning", m.Reasoning}, {"subject", m.Subject}, {"workdir", m.Workdir}, {"agent", m.Agent}}
	for _, l := range []struct {
		name string
		vs   []string
	}{{"aliases", m.Aliases}, {"tags", m.Tags}, {"supersedes", m.Supersedes}, {"conflicts_with", m.ConflictsWith}} {
		for _, v := range l.vs {
			fs = append(fs, textField{l.name, v})
		}
	}
	return append(fs, textField{"source.kind", m.Source.Kind}, textField{"source.agent", m.Source.Agent},
		textField{"source.session", m.Source.Session}, textField{"source.model", m.Source.Model})
}

// scanFields returns the kind of the first secret found and the field holding it.
func scanFields(fs ...textField) (kind, field string) {
	for _, f := range fs {
		if k := secretKind(f.text); k != "" {
			return k, f.name
		}
	}
	return "", ""
}

// secretErr refuses a write; it names the kind and the field and never echoes the secret.
func secretErr(kind, field string) error {
	return codeErr(CodeSecretDetected, map[string]any{"Kind": kind, "Field": field, "FieldKey": fieldKey(field)},
		"refused: the %s field looks like a secret (%s)", field, kind)
}

// checkMemory applies the frontmatter limits and the secret guard to a memory about to be
// written: every writer (write, update, import) passes here before its file is rendered.
func checkMemory(m *Memory) error {
	if err := checkLimits(m); err != nil {
		return err
	}
	if kind, field := scanFields(memoryFields(m)...); kind != "" {
		return secretErr(kind, field)
	}
	return nil
}
