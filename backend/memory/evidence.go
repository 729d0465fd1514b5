package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/oklog/ulid/v2"

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
	return parse(data, format.ParseFile)
}

// parseHand reads the memory file at rel (relative to the memory folder) as it lies in the
// home: a header without an id, as a person writes a note by hand (Obsidian, an editor), is
// read with the id handID gives its path. Engram writes that id into the file the first time
// it changes the memory (an accept, an edit); until then a rename is a new memory. Everything
// else a hand file must satisfy is checked as before (handProblem).
func parseHand(data []byte, rel string) (*Memory, error) {
	m, err := parse(data, format.ParseFileWithoutID)
	if err == nil && m.ID == "" {
		m.ID, m.idFromPath = handID(rel), true
	}
	return m, err
}

// handID is the id of a memory file without one: a ULID made from a hash of its path, so the
// same file gets the same id in every rebuild of the index (its audit rows and access counts
// stay with it) and two files never share one.
func handID(rel string) string {
	sum := sha256.Sum256([]byte("engram hand-written file\x00" + filepath.ToSlash(rel)))
	var id ulid.ULID
	copy(id[:], sum[:16])
	return id.String()
}

func parse(data []byte, read func([]byte) (format.Header, string, error)) (*Memory, error) {
	fm, body, err := read(data)
	if err != nil {
		var pe *format.ParseError
		if errors.As(err, &pe) {
			// The parser's reason by its catalog key, with its arguments (the YAML line and
			// cause, the confidence found…): a problem keeps them as they are.
			var args map[string]any
			if pe.Key != "" || pe.Detail != "" {
				args = map[string]any{}
				for k, v := range pe.Args {
					args[k] = v
				}
				if pe.Detail != "" {
					args["Detail"] = pe.Detail
				}
				if pe.Key != "" {
					args["DetailKey"] = pe.Key
				}
			}
			return nil, codeErr(CodeParseError, args, "%s", pe.Msg)
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
