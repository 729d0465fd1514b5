package memory

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Markdown a person sees as syntax in a one-line preview: a table read "| a | b | |---|---|",
// a link "[docs](https://…)". PlainSnippet shows what the reader would render instead.
var (
	mdImage     = regexp.MustCompile(`!\[([^\]\n]*)\]\([^)\n]*\)`)
	mdLink      = regexp.MustCompile(`\[([^\]\n]+)\]\([^)\n]*\)`)
	mdWikiLabel = regexp.MustCompile(`\[\[[^\]|\n]+\|([^\]\n]+)\]\]`)
	mdWiki      = regexp.MustCompile(`\[\[([^\]\n]+)\]\]`)
	mdStrong    = regexp.MustCompile(`(\*\*|__)(\S(?:[^\n]*?\S)?)(\*\*|__)`)
	mdEmphasis  = regexp.MustCompile(`(^|[\s(])\*(\S(?:[^*\n]*?\S)?)\*`)
	mdStrike    = regexp.MustCompile(`~~(\S(?:[^\n]*?\S)?)~~`)
	mdLead      = regexp.MustCompile(`^\s*(?:#{1,6}\s+|>\s?|[-*+]\s+\[[ xX]\]\s+|[-*+]\s+|\d{1,9}[.)]\s+)`)
	mdRule      = regexp.MustCompile(`^\s*(?:[-*_]\s*){3,}$`)
	mdTableSep  = regexp.MustCompile(`^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$`)
)

// MarkdownText is body as a reader sees it in one line of text: headings, list and quote
// markers, fences, table rules and pipes, emphasis and link syntax gone, their text kept.
// It is for previews a person reads; models get the Markdown as written.
func MarkdownText(body string) string {
	var b strings.Builder
	fenced := false
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if !fenced {
			if mdRule.MatchString(t) || mdTableSep.MatchString(t) {
				continue
			}
			t = mdLead.ReplaceAllString(t, "")
			if strings.HasPrefix(t, "|") || strings.HasSuffix(t, "|") {
				cells := strings.Split(strings.Trim(t, "|"), "|")
				for i := range cells {
					cells[i] = strings.TrimSpace(cells[i])
				}
				t = strings.Join(cells, " · ")
			}
			t = mdImage.ReplaceAllString(t, "$1")
			t = mdLink.ReplaceAllString(t, "$1")
			t = mdWikiLabel.ReplaceAllString(t, "$1")
			t = mdWiki.ReplaceAllString(t, "$1")
			t = mdStrong.ReplaceAllString(t, "$2")
			t = mdEmphasis.ReplaceAllString(t, "$1$2")
			t = mdStrike.ReplaceAllString(t, "$1")
			t = strings.ReplaceAll(t, "`", "")
		}
		if t != "" {
			b.WriteString(t)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// PlainSnippet is Snippet over MarkdownText(body): the preview lists show people. Without a
// query only the body's start can show, so only its first lines are read (a list page
// summarises hundreds of bodies of up to 8 KiB).
func PlainSnippet(body, q string, width int) string {
	cut := false
	if strings.TrimSpace(q) == "" {
		if limit := 8 * width; len(body) > limit {
			cut = true
			at := strings.LastIndexByte(body[:limit], '\n')
			if at <= 0 {
				at = limit
				for at > 0 && !utf8.RuneStart(body[at]) {
					at--
				}
			}
			body = body[:at]
		}
	}
	out := Snippet(MarkdownText(body), q, width)
	if cut && !strings.HasSuffix(out, "…") {
		out += "…"
	}
	return out
}
