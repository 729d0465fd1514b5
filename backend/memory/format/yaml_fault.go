package format

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The one reading of the YAML parser's errors: why a header is not YAML, in a catalog key
// (detail.yaml_*) with its arguments, and the line of the file it is on. ParseFile says a
// memory file's broken header with it and the importer a source file's; the parser's own
// words are English ("did not find expected ',' or ']'" inside a Chinese sentence).

// yamlCauses name the parser's reasons a hand-edited header meets most.
var yamlCauses = []struct{ words, key string }{
	{"did not find expected ',' or ']'", "detail.yaml_unclosed_list"},
	{"did not find expected ',' or '}'", "detail.yaml_unclosed_map"},
	{"mapping values are not allowed", "detail.yaml_colon_in_value"},
	{"found unexpected end of stream", "detail.yaml_unclosed_quote"},
	{"could not find expected ':'", "detail.yaml_no_colon"},
	{"found a tab character", "detail.yaml_tab"},
	{"found character that cannot start any token", "detail.yaml_reserved_char"},
	{"did not find expected key", "detail.yaml_indent"},
	{"cannot unmarshal", "detail.yaml_wrong_kind"},
}

var (
	yamlLineRE    = regexp.MustCompile(`\bline (\d+)\b`)
	yamlRepeatRE  = regexp.MustCompile(`mapping key "([^"]*)" already defined`)
	yamlBadTimeRE = regexp.MustCompile(`parsing time "([^"]*)"`)
)

// YAMLError is the *ParseError of a header the YAML parser refused with err: head is the
// header's text and off the lines of the file above it (1: the "---"), so every line it names
// is the file's, where the person's editor takes them. Key and Args say the cause in the
// catalog: Line (when the parser names one), Field for a repeated field, Value for a date that
// is no time, Text for a template placeholder ({{date}}, from Obsidian or Templater), and
// Reason, the parser's words, kept for doctor --json and logs but out of the sentence.
func YAMLError(head []byte, err error, off int) *ParseError {
	detail := fileLines(err.Error(), off)
	reason := strings.TrimPrefix(detail, "yaml: ")
	key, args := yamlCause(string(head), reason, off)
	args["Reason"] = reason
	return &ParseError{Msg: msgBadYAML + detail, Detail: detail, Key: key, Args: args}
}

// yamlCause classifies reason, the parser's words with the file's lines.
func yamlCause(head, reason string, off int) (string, map[string]any) {
	if m := yamlBadTimeRE.FindStringSubmatch(reason); m != nil {
		return "detail.yaml_bad_time", map[string]any{"Value": m[1]}
	}
	lines := strings.Split(head, "\n")
	line := 0
	if m := yamlLineRE.FindStringSubmatch(reason); m != nil {
		line, _ = strconv.Atoi(m[1])
	}
	// A template placeholder reads as a map where a value belongs ("invalid map key", which
	// names no line, or "cannot unmarshal !!map"): said by name, on its line.
	at := -1
	switch {
	case strings.Contains(reason, "invalid map key"):
		for i, l := range lines {
			if strings.Contains(l, "{{") {
				at = i
				break
			}
		}
	case strings.Contains(reason, "!!map") && line-off-1 >= 0 && line-off-1 < len(lines) && strings.Contains(lines[line-off-1], "{{"):
		at = line - off - 1
	}
	if at >= 0 {
		return "detail.bad_yaml_template", map[string]any{"Line": at + off + 1, "Text": clipLine(lines[at])}
	}
	if line == 0 {
		// The parser names no line for a fault on the header's first one (its marks count
		// from 0 and it leaves out "line 0"): that line, when the cause is one it places.
		for _, c := range yamlCauses {
			if strings.Contains(reason, c.words) {
				return refineCause(c.key, lines, 0), map[string]any{"Line": off + 1}
			}
		}
		return "detail.yaml_invalid", map[string]any{}
	}
	args := map[string]any{"Line": line}
	if m := yamlRepeatRE.FindStringSubmatch(reason); m != nil {
		args["Field"] = m[1]
		return "detail.yaml_repeated_field", args
	}
	for _, c := range yamlCauses {
		if strings.Contains(reason, c.words) {
			return refineCause(c.key, lines, line-off-1), args
		}
	}
	return "detail.yaml_invalid_line", args
}

// refineCause reads the header's line i where the parser's words mislead: a tab that indents
// a line is "a character that cannot start any token" to it, which read as a reserved
// character (@, `, %) instead of the tab it is.
func refineCause(key string, lines []string, i int) string {
	if key == "detail.yaml_reserved_char" && i >= 0 && i < len(lines) && strings.HasPrefix(strings.TrimLeft(lines[i], " "), "\t") {
		return "detail.yaml_tab"
	}
	return key
}

// clipLine is a line of a header as a person reads it in a sentence: its words, one space
// apart, at most 80 characters.
func clipLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > 80 {
		return string([]rune(s)[:79]) + "…"
	}
	return s
}

// fileLines adds off to every "line N" of a YAML parser's message.
func fileLines(msg string, off int) string {
	return yamlLineRE.ReplaceAllStringFunc(msg, func(m string) string {
		n, err := strconv.Atoi(strings.TrimPrefix(m, "line "))
		if err != nil {
			return m
		}
		return "line " + strconv.Itoa(n+off)
	})
}
