package memory

import (
	"strings"
	"unicode/utf8"
)

// normalizeText makes text safe to store as it will be read back: invalid UTF-8 would make the
// whole file unparsable (it would drop out of the index on the next reindex), and CR line ends
// are folded to LF as Parse folds them, so the index row and the file always agree.
func normalizeText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	return s
}

// normalizeName is normalizeText for identifiers (source agent, session, model), also trimmed:
// a value of only line breaks would not survive the YAML round trip.
func normalizeName(s string) string { return strings.TrimSpace(normalizeText(s)) }

func normalizePtr(p *string) *string {
	if p == nil {
		return nil
	}
	v := normalizeText(*p)
	return &v
}

func normalizeList(v []string) []string {
	if v == nil {
		return nil
	}
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = normalizeText(s)
	}
	return out
}

// normalizeItem applies normalizeText to every free-text field of an item.
func normalizeItem(it Item) Item {
	it.Title, it.Body = normalizePtr(it.Title), normalizePtr(it.Body)
	it.SourceQuote, it.Reasoning = normalizePtr(it.SourceQuote), normalizePtr(it.Reasoning)
	it.Subject = normalizePtr(it.Subject)
	it.Text = normalizeText(it.Text)
	it.Reason = normalizeText(it.Reason)
	it.Aliases, it.Tags = normalizeList(it.Aliases), normalizeList(it.Tags)
	it.Supersedes, it.ConflictsWith = normalizeList(it.Supersedes), normalizeList(it.ConflictsWith)
	if it.Source != nil {
		src := *it.Source
		src.Kind, src.Agent = normalizeName(src.Kind), normalizeName(src.Agent)
		src.Session, src.Model = normalizeName(src.Session), normalizeName(src.Model)
		it.Source = &src
	}
	return it
}

func validateText(title, body string) error {
	if strings.TrimSpace(title) == "" {
		return codeErr(CodeMissingTitle, nil, "title is required")
	}
	if n := utf8.RuneCountInString(title); n > MaxTitleChars {
		return codeErr(CodeTitleTooLong, map[string]any{"Max": MaxTitleChars, "Len": n}, "title has %d characters, at most %d", n, MaxTitleChars)
	}
	if strings.ContainsAny(title, "\n\r") {
		// The same code as a missing title (clients key on it), with the lines counted: the
		// bare "A title is required (one line)" read as if no title had been sent.
		lines := len(strings.FieldsFunc(title, func(r rune) bool { return r == '\n' || r == '\r' }))
		return codeErr(CodeMissingTitle, map[string]any{"Lines": max(lines, 2)}, "title must be one line")
	}
	if len(body) > MaxBodyBytes {
		return codeErr(CodeBodyTooLarge, map[string]any{"Max": MaxBodyBytes, "Size": len(body)}, "body is %d bytes, at most %d", len(body), MaxBodyBytes)
	}
	return nil
}

func cleanList(v []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range v {
		s = strings.TrimSpace(s)
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// CleanText is a text field as a write keeps it (valid UTF-8, LF line ends, trimmed), and
// CleanList a list field (each value so, without blanks or repeats): for transports that
// compare an update with what a memory holds before sending it.
func CleanText(s string) string { return strings.TrimSpace(normalizeText(s)) }

// CleanList: see CleanText.
func CleanList(v []string) []string {
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = normalizeText(s)
	}
	return cleanList(out)
}
