package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"unicode/utf8"

	"engram/backend/memory/format"
)

// This file is the single implementation of the evidence contract, and the store's entry to the
// frontmatter format (format.ParseFile / format.RenderFile, the one implementation of it).

// ApplyEvidence bounds a requested confidence by its quote: high needs a verbatim quote of at
// least MinHighQuoteChars characters, medium needs any quote; otherwise the level steps down
// and downgraded is true.
func ApplyEvidence(requested Confidence, quote string) (applied Confidence, downgraded bool) {
	if requested == "" {
		requested = ConfidenceMedium
	}
	q := strings.TrimSpace(quote)
	applied = requested
	if applied == ConfidenceHigh && utf8.RuneCountInString(q) < MinHighQuoteChars {
		applied = ConfidenceMedium
	}
	if applied == ConfidenceMedium && q == "" {
		applied = ConfidenceLow
	}
	return applied, applied != requested
}

// Render writes a memory as a file: YAML frontmatter between --- lines, then the body
// (format.RenderFile).
func Render(m *Memory) ([]byte, error) {
	h := format.Header{
		ID: m.ID, Slug: m.Slug, Title: m.Title, Scope: m.Scope, Workdir: m.Workdir, Agent: m.Agent,
		Type: m.Type, Confidence: m.Confidence, AutoDowngraded: m.AutoDowngraded, Reviewed: m.Reviewed,
		SourceQuote: m.SourceQuote, Reasoning: m.Reasoning, Aliases: m.Aliases, Tags: m.Tags,
		Supersedes: m.Supersedes, ConflictsWith: m.ConflictsWith, Subject: m.Subject,
		Created: m.Created, Updated: m.Updated,
	}
	if m.Source != (Source{}) {
		src := m.Source
		h.Source = &src
	}
	return format.RenderFile(h, m.Body)
}

// Parse reads a memory file (format.ParseFile). It never guesses: a missing or malformed
// header is a parse_error so the caller can report the file and leave it alone.
func Parse(data []byte) (*Memory, error) {
	fm, body, err := format.ParseFile(data)
	if err != nil {
		var pe *format.ParseError
		if errors.As(err, &pe) && pe.Detail != "" {
			return nil, codeErr(CodeParseError, map[string]any{"Detail": pe.Detail}, "%s", pe.Msg)
		}
		return nil, codeErr(CodeParseError, nil, "%s", err.Error())
	}
	m := &Memory{
		ID: fm.ID, Slug: fm.Slug, Title: fm.Title, Scope: fm.Scope, Workdir: fm.Workdir, Agent: fm.Agent,
		Type: fm.Type, Confidence: fm.Confidence, AutoDowngraded: fm.AutoDowngraded, Reviewed: fm.Reviewed,
		SourceQuote: fm.SourceQuote, Reasoning: fm.Reasoning, Aliases: fm.Aliases, Tags: fm.Tags,
		Supersedes: fm.Supersedes, ConflictsWith: fm.ConflictsWith, Subject: fm.Subject, Created: fm.Created, Updated: fm.Updated,
		Body: body,
	}
	if fm.Source != nil {
		m.Source = *fm.Source
	}
	return m, nil
}

// Checksum is the version of a file's bytes: what expected_version compares against.
func Checksum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])[:16]
}
