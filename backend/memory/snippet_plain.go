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
			// Most lines of prose hold none of the inline markup: skip its regexps then.
			if strings.ContainsAny(t, "[]*_~`") {
				if strings.Contains(t, "](") {
					t = mdImage.ReplaceAllString(t, "$1")
					t = mdLink.ReplaceAllString(t, "$1")
				}
				if strings.Contains(t, "[[") {
					t = mdWikiLabel.ReplaceAllString(t, "$1")
					t = mdWiki.ReplaceAllString(t, "$1")
				}
				if strings.ContainsAny(t, "*_") {
					t = mdStrong.ReplaceAllString(t, "$2")
					t = mdEmphasis.ReplaceAllString(t, "$1$2")
				}
				if strings.Contains(t, "~~") {
					t = mdStrike.ReplaceAllString(t, "$1")
				}
				t = strings.ReplaceAll(t, "`", "")
			}
		}
		if t != "" {
			b.WriteString(t)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// PlainSnippet is Snippet over MarkdownText(body): the preview lists show people. Only the
// lines around what the snippet can show are read — the body's start, or the first place a
// query term occurs — since a list page or a keystroke's search summarises many bodies of up
// to 8 KiB and Go's regexps are slow on whole ones (1.5 ms each).
func PlainSnippet(body, q string, width int) string {
	span := 4 * width
	start, end := 0, len(body)
	if len(body) > 2*span {
		at := 0
		if strings.TrimSpace(q) != "" {
			lower := strings.ToLower(body)
			for _, t := range SplitQuery(q) {
				if i := strings.Index(lower, strings.ToLower(t.Text)); i >= 0 {
					at = i
					break
				}
			}
		}
		if at > span {
			start = at - span
			if nl := strings.IndexByte(body[start:at], '\n'); nl >= 0 {
				start += nl + 1
			} else {
				for start < at && !utf8.RuneStart(body[start]) {
					start++
				}
			}
		}
		if at+span < end {
			end = at + span
			if nl := strings.LastIndexByte(body[at:end], '\n'); nl > 0 {
				end = at + nl
			} else {
				for end > at && !utf8.RuneStart(body[end]) {
					end--
				}
			}
		}
	}
	out := Snippet(MarkdownText(body[start:end]), q, width)
	if start > 0 && !strings.HasPrefix(out, "…") {
		out = "…" + out
	}
	if end < len(body) && !strings.HasSuffix(out, "…") {
		out += "…"
	}
	return out
}
