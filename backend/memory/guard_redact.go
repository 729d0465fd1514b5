package memory

import (
	"sort"
	"strings"

	"engram/backend/text"
)

// keyBeginRE and keyEndRE find a private key block's first and last lines, however their
// dashes and case were retyped.
var (
	keyBeginRE = text.Lazy(`(?i)^-{4,5} ?BEGIN `)
	keyEndRE   = text.Lazy(`(?i)-{4,5} ?END `)
)

// redactedMark replaces a secret in text Engram keeps that is not a memory (a conversation's
// turns): the refusal keeps secrets out of memories, and this keeps them out of the index.
const redactedMark = "[redacted secret]"

// RedactSecrets returns text with every secret the guard recognises replaced by a mark: a
// key's shape, an assignment to a credential name, a URL's password, a private key block
// from its BEGIN line to its END line. A line that only reads as a secret once normalised
// (full-width letters and the like) is replaced whole. Text with no secret comes back as is.
func RedactSecrets(text string) string {
	if secretKind(text) == "" {
		return text
	}
	lower := strings.ToLower(text)
	present := secretKeywords.scan(lower)
	var spans [][2]int
	for i := range secretRules {
		r := &secretRules[i]
		if !present.has(i) {
			continue
		}
		if r.whole {
			spans = append(spans, r.spans(text, 0)...)
			continue
		}
		off := 0
		for _, line := range strings.SplitAfter(text, "\n") {
			if containsAny(strings.ToLower(line), r.keywords) {
				spans = append(spans, r.spans(line, off)...)
			}
			off += len(line)
		}
	}
	out := replaceSpans(text, spans)
	if secretKind(out) == "" {
		return out
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if secretKindIn(l) != "" {
			lines[i] = redactedMark
		}
	}
	// A key wrapped over lines: the two lines it is cut between go (the whole text, should a
	// key run over more).
	if joined := strings.Join(lines, "\n"); secretKind(joined) != "" {
		for i := 0; i+1 < len(lines); i++ {
			if pair := lines[i] + "\n" + lines[i+1]; secretKindIn(pair) == "" && secretKind(pair) != "" {
				lines[i], lines[i+1] = redactedMark, redactedMark
			}
		}
		if joined = strings.Join(lines, "\n"); secretKind(joined) != "" {
			return redactedMark
		}
		return joined
	}
	return strings.Join(lines, "\n")
}

// spans returns where the rule finds secrets in text, offset by off; a private key's span
// runs on to the end of its END line (the BEGIN line alone is what the rule matches).
func (r *secretRule) spans(text string, off int) [][2]int {
	var ms [][]int
	if r.find != nil {
		ms = r.find(text)
	} else {
		ms = r.re.FindAllStringSubmatchIndex(text, -1)
	}
	var out [][2]int
	for _, m := range ms {
		if !r.accepts(text, m) {
			continue
		}
		out = append(out, [2]int{off + m[0], off + m[1]})
	}
	return out
}

// replaceSpans puts redactedMark over each span (merged where they overlap), and over a
// private key's body up to its END line.
func replaceSpans(text string, spans [][2]int) string {
	if len(spans) == 0 {
		return text
	}
	for i, sp := range spans {
		if strings.HasPrefix(text[sp[0]:], "LS0tLS1CRUdJTi") {
			// A base64-wrapped key block runs on over the lines that are base64 alone.
			for e := sp[1]; e < len(text) && text[e] == '\n'; {
				next := strings.IndexByte(text[e+1:], '\n')
				line := text[e+1:]
				if next >= 0 {
					line = text[e+1 : e+1+next]
				}
				if l := strings.TrimSpace(line); l == "" || strings.Trim(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") != "" {
					break
				}
				e += 1 + len(line)
				spans[i][1] = e
			}
			continue
		}
		if keyBeginRE.MatchString(text[sp[0]:sp[1]]) {
			loc := keyEndRE.FindStringIndex(text[sp[1]:])
			end := -1
			if loc != nil {
				end = loc[0]
			}
			if end < 0 {
				spans[i][1] = len(text)
				continue
			}
			e := sp[1] + end
			if nl := strings.IndexByte(text[e:], '\n'); nl >= 0 {
				spans[i][1] = e + nl
			} else {
				spans[i][1] = len(text)
			}
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		if sp[1] <= at {
			continue
		}
		if sp[0] > at {
			b.WriteString(text[at:sp[0]])
			b.WriteString(redactedMark)
		} else if at == 0 && sp[0] == 0 {
			b.WriteString(redactedMark)
		}
		at = sp[1]
	}
	b.WriteString(text[at:])
	return b.String()
}
