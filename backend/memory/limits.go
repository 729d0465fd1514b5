package memory

import (
	"errors"
	"unicode/utf8"
)

// Codes for a frontmatter field over its limit; args {Field, Max} and what was found: Len, a
// value's characters, or Values, how many values the list holds.
const (
	// CodeControlChar refuses text holding a control character (an escape code, a bell…),
	// which a terminal printing the memory would act on; args {Field}.
	CodeControlChar    = "control_character"
	CodeFieldTooLong   = "field_too_long"
	CodeTooManyValues  = "too_many_values"
	CodeFieldOverLimit = "field_over_limit" // a hand-placed file's problem; args {Detail}
)

// fieldLimit bounds one frontmatter field: MaxChars characters per value and, for lists,
// MaxValues values. The body has its own byte limit (MaxBodyBytes).
type fieldLimit struct {
	Field     string
	MaxChars  int
	MaxValues int // 0 for a single value
	values    func(m *Memory) []string
}

func one(s string) []string { return []string{s} }

// FieldLimits is every frontmatter field's limit, in the order they are checked. The counts
// leave room for an organizer merge of several memories (their titles become aliases, their
// slugs supersedes); the lengths are far above anything a person or a model writes on purpose,
// and bound what a hostile writer can make every reader load.
var FieldLimits = []fieldLimit{
	{Field: "title", MaxChars: MaxTitleChars, values: func(m *Memory) []string { return one(m.Title) }},
	{Field: "source_quote", MaxChars: MaxSourceQuoteRune, values: func(m *Memory) []string { return one(m.SourceQuote) }},
	{Field: "reasoning", MaxChars: 2000, values: func(m *Memory) []string { return one(m.Reasoning) }},
	{Field: "subject", MaxChars: MaxSubjectChars, values: func(m *Memory) []string { return one(m.Subject) }},
	{Field: "workdir", MaxChars: 4096, values: func(m *Memory) []string { return one(m.Workdir) }},
	{Field: "agent", MaxChars: 64, values: func(m *Memory) []string { return one(m.Agent) }},
	{Field: "aliases", MaxChars: MaxTitleChars, MaxValues: 32, values: func(m *Memory) []string { return m.Aliases }},
	{Field: "tags", MaxChars: 64, MaxValues: 32, values: func(m *Memory) []string { return m.Tags }},
	{Field: "supersedes", MaxChars: 128, MaxValues: 64, values: func(m *Memory) []string { return m.Supersedes }},
	{Field: "conflicts_with", MaxChars: 128, MaxValues: 64, values: func(m *Memory) []string { return m.ConflictsWith }},
	{Field: "source.kind", MaxChars: 32, values: func(m *Memory) []string { return one(m.Source.Kind) }},
	{Field: "source.agent", MaxChars: 64, values: func(m *Memory) []string { return one(m.Source.Agent) }},
	{Field: "source.session", MaxChars: 128, values: func(m *Memory) []string { return one(m.Source.Session) }},
	{Field: "source.model", MaxChars: 128, values: func(m *Memory) []string { return one(m.Source.Model) }},
}

// checkLimits returns a coded error for the first field over its limit, or holding a control
// character, or nil.
func checkLimits(m *Memory) error {
	if hasControl(m.Body) {
		return controlErr("body")
	}
	for _, l := range FieldLimits {
		vs := l.values(m)
		if l.MaxValues > 0 && len(vs) > l.MaxValues {
			return codeErr(CodeTooManyValues, map[string]any{"Field": l.Field, "FieldKey": fieldKey(l.Field), "Values": len(vs), "Max": l.MaxValues},
				"%s has %d values, at most %d", l.Field, len(vs), l.MaxValues)
		}
		for _, v := range vs {
			if hasControl(v) {
				return controlErr(l.Field)
			}
			if n := utf8.RuneCountInString(v); n > l.MaxChars {
				return codeErr(CodeFieldTooLong, map[string]any{"Field": l.Field, "FieldKey": fieldKey(l.Field), "Len": n, "Max": l.MaxChars},
					"%s has a value of %d characters, at most %d", l.Field, n, l.MaxChars)
			}
		}
	}
	return nil
}

// hasControl reports a control character no memory text needs: C0 but tab and line feed, DEL,
// C1 and the bidirectional formatting controls. A terminal acts on them (ESC begins its escape codes, OSC 52 writes the clipboard),
// and a model may send them — a memory holds text, not instructions to a terminal. Carriage
// returns pass: a write folds them into line feeds (normalizeText), and a hand file from an
// old Mac may end its lines with them. Bytes, not runes: every file of a rebuild passes here,
// and C1 is the only control of more than one byte (0xC2 0x80–0x9F in valid UTF-8).
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20:
			if c != '\t' && c != '\n' && c != '\r' {
				return true
			}
		case c == 0x7f:
			return true
		case c == 0xc2:
			if i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
				return true
			}
		case c == 0xe2:
			// Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069)
			// reorder how the text around them is shown ("Trojan Source"): a model could make
			// a title read differently in Review from what it holds. Right-to-left text needs
			// none of them (the marks U+200E and U+200F pass).
			if i+2 < len(s) && ((s[i+1] == 0x80 && s[i+2] >= 0xaa && s[i+2] <= 0xae) || (s[i+1] == 0x81 && s[i+2] >= 0xa6 && s[i+2] <= 0xa9)) {
				return true
			}
		}
	}
	return false
}

func controlErr(field string) error {
	return codeErr(CodeControlChar, map[string]any{"Field": field, "FieldKey": fieldKey(field)}, "the %s holds a control character", field)
}

// fieldKey is the catalog key of a field's name (field.*): a refusal keeps the field as the
// code spells it in Field, and a message in another language names it in words. The refusal
// is kept in the audit log with its arguments, so the UI's Activity says it the same way.
func fieldKey(field string) string { return "field." + field }

// handPlacedLimits checks a file found on disk: a field over its limit is reported as a
// problem (its code, and the fault checkLimits's error names: the field, what was found and
// the limit) and the file is left exactly as it is.
func handPlacedLimits(m *Memory) (string, fault) {
	var ce *Error
	if err := checkLimits(m); errors.As(err, &ce) {
		f := fault{text: ce.Msg, args: map[string]any{}}
		for k, v := range ce.Args {
			f.args[k] = v
		}
		switch ce.Code {
		case CodeControlChar:
			return ProblemHandControl, fault{text: ce.Args["Field"].(string)}
		case CodeFieldTooLong:
			f.key = "detail.field_too_long"
		case CodeTooManyValues:
			f.key = "detail.too_many_values"
		}
		return CodeFieldOverLimit, f
	}
	return "", fault{}
}
