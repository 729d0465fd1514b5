package format

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// This file is the single implementation of the frontmatter format: nothing else in Engram
// renders or parses the YAML header of a memory file (memory.Parse and memory.Render wrap it).

// Header is the YAML header, field for field as DESIGN §2 lists it.
type Header struct {
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

// ParseError is a file that is not a memory file: Msg in English, and Key (a catalog key,
// detail.*) with Args saying it in the person's language. Detail is the YAML decoder's words
// (with the file's lines), when it was the YAML that failed (YAMLError).
type ParseError struct {
	Msg    string
	Detail string
	Key    string
	Args   map[string]any
}

func (e *ParseError) Error() string { return e.Msg }

var fmDelim = []byte("---")

// RenderFile writes a memory file: the header between --- lines, then the body. Times are
// written in UTC to the second.
func RenderFile(h Header, body string) ([]byte, error) {
	h.Created, h.Updated = h.Created.UTC().Truncate(time.Second), h.Updated.UTC().Truncate(time.Second)
	var buf bytes.Buffer
	buf.WriteString("---\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&h); err != nil {
		return nil, fmt.Errorf("memory: unable to render frontmatter: %w", err)
	}
	_ = enc.Close()
	buf.WriteString("---\n")
	body = strings.TrimRight(body, "\r\n")
	if body != "" {
		buf.WriteString("\n")
		buf.WriteString(body)
		buf.WriteString("\n")
	}
	return buf.Bytes(), nil
}

// ParseFile reads a memory file. It never guesses: a missing or malformed header is a
// *ParseError so the caller can report the file and leave it alone. A missing confidence
// reads as medium; an unknown one, or no id, is an error.
func ParseFile(data []byte) (Header, string, error) {
	return parseFile(data, false)
}

// ParseFileWithoutID reads a memory file as ParseFile does, except that a header without an
// id is read (with ID ""), and so is a file with no header at all (all body): a note a person
// wrote by hand, whose id the store gives it.
func ParseFileWithoutID(data []byte) (Header, string, error) {
	return parseFile(data, true)
}

func parseFile(data []byte, noID bool) (Header, string, error) {
	var h Header
	if !utf8.Valid(data) {
		return h, "", parseErr(errNotUTF8)
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	if !bytes.HasPrefix(data, []byte("---\n")) {
		if noID && !bytes.Equal(data, fmDelim) {
			// A plain Markdown note, as written by hand: all body, nothing in the header. Its
			// first "# heading", when it opens the note, is its title (as in zk and Obsidian),
			// not a line repeated under a title made from the file name.
			h.Confidence = ConfidenceMedium
			body := strings.TrimRight(strings.TrimLeft(string(data), "\n"), "\r\n")
			if title, rest, ok := leadingHeading(body); ok && strings.TrimSpace(rest) != "" {
				h.Title, body = title, rest
			}
			return h, body, nil
		}
		return h, "", parseErr(errNoHeader)
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
				return h, "", parseErr(errUnterminated)
			}
		}
		head = rest[:end]
		body = rest[min(end+5, len(rest)):]
	}
	if !readHeaderFast(head, &h) {
		h = Header{}
		if err := yaml.Unmarshal(head, &h); err != nil {
			// The parser counts lines from the header's first line; people count from the
			// file's (the "---" above it), which is where their editor takes them.
			return Header{}, "", YAMLError(head, err, 1)
		}
	}
	trimHeader(&h)
	if h.ID == "" && !noID {
		return Header{}, "", parseErr(errNoID)
	}
	if h.Confidence == "" {
		h.Confidence = ConfidenceMedium
	}
	if !h.Confidence.Valid() {
		return Header{}, "", &ParseError{Msg: msgBadConfidence + strconv.Quote(string(h.Confidence)),
			Key: "detail.bad_confidence", Args: map[string]any{"Value": string(h.Confidence)}}
	}
	// A body's trailing line breaks are the renderer's, and so is a trailing lone CR: written
	// back before the renderer's closing "\n" it would read as CRLF and vanish (FuzzFile,
	// testdata/fuzz/FuzzFile/7611b139a3e69df8).
	return h, strings.TrimRight(strings.TrimLeft(string(body), "\n"), "\r\n"), nil
}

// trimHeader drops the whitespace around every text field of a header read from a file. None
// of it means anything, and YAML cannot always carry it back: yaml.v3 writes a string that
// starts with a line break as a block scalar that reads back without it ("\n00" → "00",
// "\t\nq" → ""), so a file Engram rewrote would no longer say what it read (FuzzFile found it;
// testdata/fuzz/FuzzFile/cd6b203920c24730).
func trimHeader(h *Header) {
	for _, p := range []*string{&h.ID, &h.Slug, &h.Title, &h.Workdir, &h.Agent, &h.SourceQuote, &h.Reasoning, &h.Subject} {
		*p = strings.TrimSpace(*p)
	}
	h.Scope, h.Type, h.Confidence = Scope(strings.TrimSpace(string(h.Scope))), Type(strings.TrimSpace(string(h.Type))), Confidence(strings.TrimSpace(string(h.Confidence)))
	for _, l := range []*[]string{&h.Aliases, &h.Tags, &h.Supersedes, &h.ConflictsWith} {
		for i := range *l {
			(*l)[i] = strings.TrimSpace((*l)[i])
		}
	}
	if h.Source != nil {
		s := h.Source
		for _, p := range []*string{&s.Kind, &s.Agent, &s.Session, &s.Model} {
			*p = strings.TrimSpace(*p)
		}
	}
}

// leadingHeading splits a note that opens with a level-one heading into its text (at most a
// title's length, one line) and the rest.
func leadingHeading(body string) (title, rest string, ok bool) {
	line, after, _ := strings.Cut(body, "\n")
	line = strings.TrimRight(line, "\r")
	if !strings.HasPrefix(line, "# ") {
		return "", body, false
	}
	title = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(line[2:]), "#"))
	if title == "" || utf8.RuneCountInString(title) > 120 {
		return "", body, false
	}
	return title, strings.TrimLeft(after, "\r\n"), true
}
