package importer

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"engram/backend/memory/format"
)

// splitFrontmatter separates a Markdown file's YAML frontmatter (between "---" lines at the
// very top) from its text. A file without one has an empty map; a broken one is an error.
func splitFrontmatter(path string, b []byte) (map[string]any, string, error) {
	s := strings.TrimPrefix(string(b), "\ufeff")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if !strings.HasPrefix(s, "---\n") {
		return map[string]any{}, s, nil
	}
	rest := s[4:]
	var head, body string
	found := false
	for off := 0; off <= len(rest); {
		nl := strings.IndexByte(rest[off:], '\n')
		line, next := rest[off:], len(rest)+1
		if nl >= 0 {
			line, next = rest[off:off+nl], off+nl+1
		}
		if strings.TrimRight(line, " \t") == "---" {
			head, found = rest[:off], true
			if next <= len(rest) {
				body = rest[next:]
			}
			break
		}
		off = next
	}
	if !found {
		return nil, "", invalidKey(path, "the frontmatter opened by --- is never closed", "detail.unterminated_header", nil)
	}
	fm := map[string]any{}
	if err := yaml.Unmarshal([]byte(head), &fm); err != nil {
		return nil, "", yamlProblem(path, head, err)
	}
	if fm == nil {
		fm = map[string]any{}
	}
	return fm, body, nil
}

// yamlProblem says why a header is not YAML as doctor says a memory file's (the one reading
// of the parser's errors, format.YAMLError): the cause in the person's language, on the line of
// the file (the header starts on line 2), whichever way the parser words it (a repeated field
// or a value of the wrong kind, "unmarshal errors:\n  line N: …", said the parser's line, one
// too high). An Obsidian or Templater placeholder such as `date: {{date}}` is named as one: it
// read "invalid map key: map[string]interface {}{"date":interface {}(nil)}", Go's words for its
// own value. The parser's English stays in the arguments only.
func yamlProblem(path, head string, err error) error {
	pe := format.YAMLError([]byte(head), err, 1)
	return invalidKey(path, "the frontmatter is not YAML: "+strings.TrimPrefix(pe.Detail, "yaml: "), pe.Key, pe.Args)
}

// headerLines is how many lines of the file b come before text, its body as splitFrontmatter
// returned it: a bullet's line in the body plus this is its line in the file.
func headerLines(b []byte, text string) int {
	s := strings.ReplaceAll(strings.TrimPrefix(string(b), "\ufeff"), "\r\n", "\n")
	if !strings.HasSuffix(s, text) {
		return 0
	}
	return strings.Count(s[:len(s)-len(text)], "\n")
}

// str reads a frontmatter string field ("" when absent or not a string).
func str(fm map[string]any, key string) string {
	if v, ok := fm[key].(string); ok {
		return strings.TrimSpace(v)
	}
	return ""
}

// strList reads a list or a string of items (tags: [a, b] or tags: a, b) under any of keys
// (Obsidian's older singular tag/alias too). A string splits at commas, and at spaces too when
// words is set: a tag has no space, an alias ("Alt Name") does and is one. A number in a list
// (tags: [2024, work]) is its text.
func strList(fm map[string]any, words bool, keys ...string) []string {
	var out []string
	for _, key := range keys {
		switch v := fm[key].(type) {
		case []any:
			for _, x := range v {
				var s string
				switch y := x.(type) {
				case string:
					s = y
				case int, float64:
					s = fmt.Sprint(y)
				}
				if strings.TrimSpace(s) != "" {
					out = append(out, strings.TrimSpace(s))
				}
			}
		case string:
			for _, s := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || words && r == ' ' }) {
				if strings.TrimSpace(s) != "" {
					out = append(out, strings.TrimSpace(s))
				}
			}
		}
	}
	return out
}

var (
	headingRE = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	bulletRE  = regexp.MustCompile(`^ {0,1}(?:[-*+]|\d{1,9}[.)])\s+(.*)$`)
	fenceRE   = regexp.MustCompile("^\\s*(```|~~~)")
	// linkOnlyRE is a MEMORY.md index line: a link to a topic file, maybe with a description.
	linkOnlyRE = regexp.MustCompile(`^\[([^\]]+)\]\(([^)\s]+\.md)\)\s*(?:[-—–:]\s*(.*))?$`)
)

// bullet is one top-level list item with its continuation lines and the headings above it;
// line is where it starts in the text (from 1).
type bullet struct {
	text     string
	headings []string
	line     int
}

// bullets returns the top-level list items of Markdown text, each with its indented
// continuation (sub-items, wrapped lines). Items inside fenced code are not memories; neither
// are prose paragraphs, headings, @imports or HTML comments.
func bullets(text string) []bullet {
	var out []bullet
	var cur *bullet
	var lines []string
	var heads []string
	levels := []int{}
	inFence := false
	flush := func() {
		if cur != nil {
			cur.text = strings.TrimSpace(strings.Join(lines, "\n"))
			if cur.text != "" {
				out = append(out, *cur)
			}
		}
		cur, lines = nil, nil
	}
	for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		indented := strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "\t")
		if fenceRE.MatchString(line) {
			if cur != nil && indented {
				lines = append(lines, line)
			} else if !inFence {
				flush()
			}
			inFence = !inFence
			continue
		}
		if inFence {
			if cur != nil {
				lines = append(lines, line)
			}
			continue
		}
		if m := headingRE.FindStringSubmatch(line); m != nil {
			flush()
			lvl := len(m[1])
			for len(levels) > 0 && levels[len(levels)-1] >= lvl {
				levels, heads = levels[:len(levels)-1], heads[:len(heads)-1]
			}
			levels, heads = append(levels, lvl), append(heads, m[2])
			continue
		}
		if m := bulletRE.FindStringSubmatch(line); m != nil && !indented {
			flush()
			cur = &bullet{headings: append([]string(nil), heads...), line: i + 1}
			lines = []string{m[1]}
			continue
		}
		switch {
		case cur != nil && indented:
			lines = append(lines, strings.TrimRight(line, " \t"))
		case strings.TrimSpace(line) == "":
			// a blank line ends nothing: an indented line after it still continues the item
		default:
			flush() // prose, an @import, a comment: not a memory
		}
	}
	flush()
	return out
}

// dedent removes the indentation common to continuation lines so sub-items read as a list.
func dedent(text string) string {
	lines := strings.Split(text, "\n")
	if len(lines) < 2 {
		return text
	}
	min := -1
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if min < 0 || n < min {
			min = n
		}
	}
	for i := 1; i < len(lines); i++ {
		if len(lines[i]) >= min && min > 0 {
			lines[i] = lines[i][min:]
		}
	}
	return strings.Join(lines, "\n")
}

// plainTitle strips Markdown emphasis and code marks from a title line.
func plainTitle(s string) string {
	s = strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
	return titleOf(s)
}
