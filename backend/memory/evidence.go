package memory

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// This file is the single implementation of the evidence contract and of the frontmatter
// format: nothing else in Engram renders or parses the YAML header of a memory file.

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

// frontmatter is the YAML header, field for field as DESIGN §2 lists it.
type frontmatter struct {
	ID             string     `yaml:"id"`
	Slug           string     `yaml:"slug"`
	Title          string     `yaml:"title"`
	Scope          Scope      `yaml:"scope"`
	Workdir        string     `yaml:"workdir,omitempty"`
	Agent          string     `yaml:"agent,omitempty"`
	Type           Type       `yaml:"type"`
	Confidence     Confidence `yaml:"confidence,omitempty"`
	AutoDowngraded bool       `yaml:"auto_downgraded"`
	Reviewed       bool       `yaml:"reviewed"`
	SourceQuote    string     `yaml:"source_quote,omitempty"`
	Reasoning      string     `yaml:"reasoning,omitempty"`
	Aliases        []string   `yaml:"aliases,omitempty"`
	Tags           []string   `yaml:"tags,omitempty"`
	Supersedes     []string   `yaml:"supersedes,omitempty"`
	ConflictsWith  []string   `yaml:"conflicts_with,omitempty"`
	Subject        string     `yaml:"subject,omitempty"`
	Source         *Source    `yaml:"source,omitempty"`
	Created        time.Time  `yaml:"created"`
	Updated        time.Time  `yaml:"updated"`
}

var fmDelim = []byte("---")

// Render writes a memory as a file: YAML frontmatter between --- lines, then the body.
func Render(m *Memory) ([]byte, error) {
	fm := frontmatter{
		ID: m.ID, Slug: m.Slug, Title: m.Title, Scope: m.Scope, Workdir: m.Workdir, Agent: m.Agent,
		Type: m.Type, Confidence: m.Confidence, AutoDowngraded: m.AutoDowngraded, Reviewed: m.Reviewed,
		SourceQuote: m.SourceQuote, Reasoning: m.Reasoning, Aliases: m.Aliases, Tags: m.Tags,
		Supersedes: m.Supersedes, ConflictsWith: m.ConflictsWith, Subject: m.Subject,
		Created: m.Created.UTC().Truncate(time.Second), Updated: m.Updated.UTC().Truncate(time.Second),
	}
	if m.Source != (Source{}) {
		src := m.Source
		fm.Source = &src
	}
	var buf bytes.Buffer
	buf.WriteString("---\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&fm); err != nil {
		return nil, fmt.Errorf("memory: unable to render frontmatter: %w", err)
	}
	_ = enc.Close()
	buf.WriteString("---\n")
	body := strings.TrimRight(m.Body, "\n")
	if body != "" {
		buf.WriteString("\n")
		buf.WriteString(body)
		buf.WriteString("\n")
	}
	return buf.Bytes(), nil
}

// Parse reads a memory file. It never guesses: a missing or malformed header is an error so
// the caller can report the file and leave it alone.
func Parse(data []byte) (*Memory, error) {
	if !utf8.Valid(data) {
		return nil, codeErr(CodeParseError, nil, "file is not valid UTF-8")
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	if !bytes.HasPrefix(data, []byte("---\n")) {
		return nil, codeErr(CodeParseError, nil, "missing frontmatter (file must start with ---)")
	}
	rest := data[4:]
	var head, body []byte
	switch {
	case bytes.HasPrefix(rest, []byte("---\n")) || bytes.Equal(rest, fmDelim):
		head, body = nil, bytes.TrimPrefix(rest, fmDelim)
	default:
		end := bytes.Index(rest, []byte("\n---\n"))
		if end < 0 {
			if bytes.HasSuffix(rest, []byte("\n---")) {
				end = len(rest) - 4
			} else {
				return nil, codeErr(CodeParseError, nil, "unterminated frontmatter (no closing ---)")
			}
		}
		head = rest[:end]
		body = rest[min(end+5, len(rest)):]
	}
	var fm frontmatter
	if err := yaml.Unmarshal(head, &fm); err != nil {
		return nil, codeErr(CodeParseError, map[string]any{"Detail": err.Error()}, "invalid frontmatter: %v", err)
	}
	m := &Memory{
		ID: fm.ID, Slug: fm.Slug, Title: fm.Title, Scope: fm.Scope, Workdir: fm.Workdir, Agent: fm.Agent,
		Type: fm.Type, Confidence: fm.Confidence, AutoDowngraded: fm.AutoDowngraded, Reviewed: fm.Reviewed,
		SourceQuote: fm.SourceQuote, Reasoning: fm.Reasoning, Aliases: fm.Aliases, Tags: fm.Tags,
		Supersedes: fm.Supersedes, ConflictsWith: fm.ConflictsWith, Subject: fm.Subject, Created: fm.Created, Updated: fm.Updated,
		Body: strings.Trim(string(body), "\n"),
	}
	if fm.Source != nil {
		m.Source = *fm.Source
	}
	if m.ID == "" {
		return nil, codeErr(CodeParseError, nil, "frontmatter has no id")
	}
	if m.Confidence == "" {
		m.Confidence = ConfidenceMedium
	}
	if !m.Confidence.Valid() {
		return nil, codeErr(CodeParseError, nil, "unknown confidence %q", m.Confidence)
	}
	return m, nil
}

// Checksum is the version of a file's bytes: what expected_version compares against.
func Checksum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])[:16]
}
