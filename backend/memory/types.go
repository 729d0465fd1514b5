// Package memory is the canonical store: Markdown files under the home's memory/ folder plus a
// rebuildable SQLite index. It is the only code that reads or writes frontmatter and the single
// entry point (ApplyBatch) through which every writer changes memories.
package memory

import (
	"time"

	"engram/backend/memory/format"
)

// The kinds of value a memory carries live in the leaf package format (so its parsers can be
// fuzzed without the store); these are the same types under the store's names.
type (
	Scope      = format.Scope
	Type       = format.Type
	Confidence = format.Confidence
	Source     = format.Source
)

// Scopes.
const (
	ScopeGlobal  = format.ScopeGlobal
	ScopeProject = format.ScopeProject
	ScopeAgent   = format.ScopeAgent
)

// Types. TypeDaily is appended by date and never a write type.
const (
	TypeUser       = format.TypeUser
	TypeFeedback   = format.TypeFeedback
	TypeProject    = format.TypeProject
	TypeReference  = format.TypeReference
	TypeExperience = format.TypeExperience
	TypeDaily      = format.TypeDaily
)

// WriteTypes are the types a writer may create.
var WriteTypes = format.WriteTypes

// Confidence levels.
const (
	ConfidenceHigh   = format.ConfidenceHigh
	ConfidenceMedium = format.ConfidenceMedium
	ConfidenceLow    = format.ConfidenceLow
)

// Memory is one entry: its frontmatter fields, its body and where it lives.
type Memory struct {
	ID             string     `json:"id"`
	Slug           string     `json:"slug"`
	Title          string     `json:"title"`
	Scope          Scope      `json:"scope"`
	Workdir        string     `json:"workdir,omitempty"`
	Agent          string     `json:"agent,omitempty"`
	Type           Type       `json:"type"`
	Confidence     Confidence `json:"confidence"`
	AutoDowngraded bool       `json:"auto_downgraded"`
	Reviewed       bool       `json:"reviewed"`
	SourceQuote    string     `json:"source_quote"`
	Reasoning      string     `json:"reasoning"`
	Aliases        []string   `json:"aliases"`
	Tags           []string   `json:"tags"`
	Supersedes     []string   `json:"supersedes"`
	ConflictsWith  []string   `json:"conflicts_with"`
	// Subject is who or what the body's relation lines (`- works_at [[Acme]]`) are about;
	// empty means the person (user, feedback) or the project (project memories).
	Subject string    `json:"subject,omitempty"`
	Source  Source    `json:"source"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Body    string    `json:"body"`

	// Path is relative to the memory folder, with forward slashes.
	Path string `json:"path"`
	// Version is the content hash of the file; updates may pass it as expected_version.
	Version  string `json:"version"`
	Archived bool   `json:"archived"`

	// projectKey is the project key a file's folder names, kept for a project memory whose
	// workdir is unknown (hand-made file, index rebuilt elsewhere) so it stays where it lives.
	projectKey string
	// idFromPath marks a hand-written file's id that parseHand made from its path (the file
	// names none).
	idFromPath bool
}

// ScopeKey is the scope instance: "" for global, the project key, or the agent name.
func (m *Memory) ScopeKey() string {
	switch m.Scope {
	case ScopeProject:
		// The folder's key: a memory synced from another machine names that machine's
		// workdir, and a project keyed by its identity is not keyed by its path.
		if m.projectKey != "" || m.Workdir == "" {
			return m.projectKey
		}
		return ProjectKey(m.Workdir)
	case ScopeAgent:
		return m.Agent
	}
	return ""
}

// Limits from DESIGN §2.
const (
	MaxTitleChars      = format.MaxTitleChars
	MaxSubjectChars    = 120
	MaxBodyBytes       = 8 << 10
	MaxDailyBytes      = 32 << 10
	DailyWarnBytes     = 28 << 10
	MinHighQuoteChars  = 5
	DefaultQuotaLimit  = 500
	RejectionRemember  = 7 * 24 * time.Hour
	DailyRolloverHour  = 4
	MaxBatchItems      = 1000
	MaxSourceQuoteRune = 400
)

// MaxAgentDailyEntry bounds a model's journal entry (actor tool), which also may not take the
// day past DailyWarnBytes: one call filled the whole day, and the person's own entries were
// refused until the next.
const MaxAgentDailyEntry = 2 << 10
