package memory

import (
	"strings"
	"unicode"

	"engram/backend/text"
)

// QueryTerm is one unit of a user query: a word, or a CJK run to be matched as a phrase of
// bigrams.
type QueryTerm struct {
	Text string
	CJK  bool
}

// SplitQuery breaks free text into terms. Everything that is not a letter or digit separates
// terms, so FTS operators typed by a user (quotes, *, -, :, NEAR, parentheses) are only text.
func SplitQuery(q string) []QueryTerm {
	var terms []QueryTerm
	var cur []rune
	curCJK := false
	flush := func() {
		if len(cur) > 0 {
			terms = append(terms, QueryTerm{Text: string(cur), CJK: curCJK})
			cur = cur[:0]
		}
	}
	for _, r := range q {
		switch {
		case text.IsCJK(r):
			if !curCJK {
				flush()
			}
			curCJK = true
			cur = append(cur, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if curCJK {
				flush()
			}
			curCJK = false
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return terms
}

// quoteFTS makes s one FTS5 string literal: wrapped in double quotes with inner quotes doubled.
// The trigram table reads it with its own tokenizer; the word index needs QuoteWords.
func quoteFTS(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// FTSTerm renders one term as a safe FTS5 expression against the bigram-segmented index, or ""
// when the term cannot be expressed there (a lone CJK character).
func FTSTerm(t QueryTerm) string {
	if !t.CJK {
		return QuoteWords(t.Text)
	}
	seg := strings.TrimSpace(text.SegmentCJK(t.Text))
	if len([]rune(t.Text)) < 2 {
		return ""
	}
	return QuoteWords(seg)
}

// BuildFTSQuery joins the terms of q with op ("OR" or "AND") into an FTS5 MATCH expression that
// can never be a syntax error. It returns "" when q has no indexable term.
func BuildFTSQuery(q, op string) string {
	var parts []string
	seen := map[string]bool{}
	for _, t := range SplitQuery(q) {
		e := FTSTerm(t)
		if e == "" || seen[strings.ToLower(e)] {
			continue
		}
		seen[strings.ToLower(e)] = true
		parts = append(parts, e)
	}
	return strings.Join(parts, " "+op+" ")
}

// TrigramQuery renders q as a substring query for the trigram table, or "" when it is shorter
// than three characters (trigram cannot match those).
func TrigramQuery(q string) string {
	// FTS5 reads its query as a C string: a NUL would cut the quoted literal short.
	q = strings.TrimSpace(strings.ReplaceAll(q, "\x00", " "))
	if len([]rune(q)) < 3 {
		return ""
	}
	return quoteFTS(q)
}

// escapeLike escapes s for a LIKE pattern with ESCAPE '\'.
func escapeLike(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}
