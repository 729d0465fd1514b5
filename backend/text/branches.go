package text

import (
	"regexp"
	"strings"
)

// splitBranches compiles the top-level alternatives of expr that have a prefilter one by
// one, and the others together. The alternatives are cut from the source text (the parsed
// tree's String is slow on patterns this large: ~200 ms for recall's facet rules, paid by
// every process that asks an identity question); an alternative that does not compile alone
// means the cut went wrong, and then the expression is matched whole.
func splitBranches(expr string) []branch {
	prefix, alts, ok := splitAlternatives(expr)
	if !ok || len(alts) < minBranches {
		return nil
	}
	var out []branch
	var rest []string
	for _, alt := range alts {
		p := newPrefilter(prefix + alt)
		if p == nil {
			rest = append(rest, alt)
			continue
		}
		re, err := regexp.Compile(prefix + alt)
		if err != nil {
			return nil // the cut went wrong: match the expression whole
		}
		out = append(out, branch{pre: p, re: re})
	}
	if len(rest) > 0 {
		re, err := regexp.Compile(prefix + strings.Join(rest, "|"))
		if err != nil {
			return nil
		}
		out = append(out, branch{re: re})
	}
	return out
}

// splitAlternatives cuts expr at its top-level "|": a leading flag group ("(?im)") applies to
// every alternative and is returned as prefix. ok is false when expr cannot be cut with
// certainty (quoted text, a flag group later on, an unclosed class). The scan follows RE2's
// syntax: escapes, classes (a "]" first in one is literal, "[:alpha:]" is one item) and groups.
func splitAlternatives(expr string) (prefix string, alts []string, ok bool) {
	if strings.Contains(expr, `\Q`) {
		return "", nil, false
	}
	body := expr
	if strings.HasPrefix(body, "(?") {
		// "(?im)" sets flags for all that follows; "(?i:…)" and "(?P<name>…)" are groups.
		if end := strings.IndexByte(body, ')'); end > 0 && !strings.ContainsAny(body[2:end], ":<>=!P(") {
			prefix, body = body[:end+1], body[end+1:]
		}
	}
	depth, start := 0, 0
	for i := 0; i < len(body); i++ {
		switch c := body[i]; c {
		case '\\':
			i++
		case '[':
			i = classEnd(body, i)
			if i < 0 {
				return "", nil, false
			}
		case '(':
			if depth == 0 && strings.HasPrefix(body[i:], "(?") && !strings.HasPrefix(body[i:], "(?:") {
				// A flag group at the top level ("a|(?i)b") changes what follows it.
				if end := strings.IndexByte(body[i:], ')'); end > 0 && !strings.ContainsAny(body[i+2:i+end], ":") {
					return "", nil, false
				}
			}
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				alts = append(alts, body[start:i])
				start = i + 1
			}
		}
	}
	alts = append(alts, body[start:])
	return prefix, alts, true
}

// classEnd returns the index of the "]" closing the character class that opens at i, or -1.
// A "]" first in the class (after an optional "^") is a literal, and so are escaped ones;
// "[:alpha:]" inside a class is one item.
func classEnd(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '^' {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	for ; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			if strings.HasPrefix(s[j:], "[:") {
				if end := strings.Index(s[j+2:], ":]"); end >= 0 {
					j += 2 + end + 1
				}
			}
		case ']':
			return j
		}
	}
	return -1
}
