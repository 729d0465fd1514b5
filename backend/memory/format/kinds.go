// Package format holds the formats a memory is read from outside input in — the frontmatter
// file (frontmatter.go), the JSONL record of export and import (record.go) — and the kinds of
// value they carry (scope, type, confidence, source, slug and agent names). It is a leaf (the
// standard library, yaml and text only) so the parsers can be fuzzed without linking the
// store's SQLite; package memory re-exports every name, and stays the only code that reads
// and writes memory files.
package format

// Scope says who a memory is visible to.
type Scope string

// Scopes.
const (
	ScopeGlobal  Scope = "global"
	ScopeProject Scope = "project"
	ScopeAgent   Scope = "agent"
)

// Valid reports whether s is a known scope.
func (s Scope) Valid() bool { return s == ScopeGlobal || s == ScopeProject || s == ScopeAgent }

// Type is the kind of a memory.
type Type string

// Types. TypeDaily is appended by date and never a write type.
const (
	TypeUser       Type = "user"
	TypeFeedback   Type = "feedback"
	TypeProject    Type = "project"
	TypeReference  Type = "reference"
	TypeExperience Type = "experience"
	TypeDaily      Type = "daily"
)

// WriteTypes are the types a writer may create.
var WriteTypes = []Type{TypeUser, TypeFeedback, TypeProject, TypeReference, TypeExperience}

// Writable reports whether t may be used by write/update.
func (t Type) Writable() bool {
	for _, w := range WriteTypes {
		if w == t {
			return true
		}
	}
	return false
}

// Valid reports whether t is any known type, daily included.
func (t Type) Valid() bool { return t == TypeDaily || t.Writable() }

// Confidence is how sure the writer was, bounded by its evidence.
type Confidence string

// Confidence levels.
const (
	ConfidenceHigh   Confidence = "high"
	ConfidenceMedium Confidence = "medium"
	ConfidenceLow    Confidence = "low"
)

// Valid reports whether c is a known confidence.
func (c Confidence) Valid() bool {
	return c == ConfidenceHigh || c == ConfidenceMedium || c == ConfidenceLow
}

// Source records where a memory came from.
type Source struct {
	Kind    string `json:"kind,omitempty" yaml:"kind,omitempty"`
	Agent   string `json:"agent,omitempty" yaml:"agent,omitempty"`
	Session string `json:"session,omitempty" yaml:"session,omitempty"`
	Turn    int    `json:"turn,omitempty" yaml:"turn,omitempty"`
	Model   string `json:"model,omitempty" yaml:"model,omitempty"`
}

// MaxTitleChars bounds a title (DESIGN §2).
const MaxTitleChars = 120
