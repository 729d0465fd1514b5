package format

import (
	"strings"
	"time"
	"unicode/utf8"

	"engram/backend/text"
)

// Record is the JSONL form of a memory for import and export: the frontmatter fields plus body.
type Record struct {
	ID             string     `json:"id,omitempty"`
	Slug           string     `json:"slug"`
	Title          string     `json:"title"`
	Scope          Scope      `json:"scope"`
	Workdir        string     `json:"workdir,omitempty"`
	Agent          string     `json:"agent,omitempty"`
	Type           Type       `json:"type"`
	Confidence     Confidence `json:"confidence,omitempty"`
	AutoDowngraded bool       `json:"auto_downgraded,omitempty"`
	Reviewed       *bool      `json:"reviewed,omitempty"`
	SourceQuote    string     `json:"source_quote,omitempty"`
	Reasoning      string     `json:"reasoning,omitempty"`
	Aliases        []string   `json:"aliases,omitempty"`
	Tags           []string   `json:"tags,omitempty"`
	Supersedes     []string   `json:"supersedes,omitempty"`
	ConflictsWith  []string   `json:"conflicts_with,omitempty"`
	Subject        string     `json:"subject,omitempty"`
	Source         *Source    `json:"source,omitempty"`
	Created        *time.Time `json:"created,omitempty"`
	Updated        *time.Time `json:"updated,omitempty"`
	// Archived marks a memory the organizer or the person archived: an export carries it so
	// that moving machines by export and import keeps the archive (it was left out unsaid).
	Archived bool `json:"archived,omitempty"`
	// Project is the project key (16 hex digits) of a project memory whose folder its home
	// does not know (synced from another machine, placed by hand): without it such a line had
	// neither workdir nor key, and its own export could not be imported ("the project folder
	// “” must be an absolute path"). A line's workdir, or the import's --workdir, comes first.
	Project string `json:"project,omitempty"`
	Body    string `json:"body"`
}

var (
	agentRE = text.Lazy(`^[a-z0-9][a-z0-9._-]{0,62}$`)
)

// ValidSlug reports whether s follows the slug rule of DESIGN §2, widened to Chinese: 3–64
// bytes of SlugRune (lowercase ASCII letters, digits, dashes, Chinese characters), neither
// starting nor ending with a dash. The limit is in bytes, as file systems count a name
// (a Chinese character is three bytes, so "猫" is a slug and 21 characters the most), so
// "<slug>-conflict-<hash>.md" stays far below 255 bytes on every system.
func ValidSlug(s string) bool {
	if len(s) < 3 || len(s) > 64 || s[0] == '-' || s[len(s)-1] == '-' || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !SlugRune(r) {
			return false
		}
	}
	return true
}

// ValidAgent reports whether a is usable as an agent folder name.
func ValidAgent(a string) bool { return agentRE.MatchString(a) && !containsDotDot(a) }

func containsDotDot(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == '.' {
			return true
		}
	}
	return false
}

// ReservedAgent reports whether agent names a folder Windows cannot hold: its part before the
// first dot is a device name (ReservedSlug), as in "con", "aux.bot" or "com1.". Checked only
// when an agent's folder would be made: one already on disk is still read.
func ReservedAgent(agent string) bool {
	base, _, _ := strings.Cut(agent, ".")
	return ReservedSlug(strings.TrimRight(base, ". "))
}

// ReservedSlug reports whether s names a file Windows cannot hold: CON, PRN, AUX, NUL,
// COM1–COM9 and LPT1–LPT9 are device names there in any case and with any extension, so
// "con.md" in a store synced to a Windows machine (git, Syncthing, a shared folder) cannot be
// created, read or deleted there. Slugs are lowercase and dot-free, so the bare name is all
// that needs checking. A new slug must not be one (write, rename, import); a file already
// named so on disk is still read and indexed.
func ReservedSlug(s string) bool {
	switch s {
	case "con", "prn", "aux", "nul":
		return true
	}
	return len(s) == 4 && (s[:3] == "com" || s[:3] == "lpt") && s[3] >= '1' && s[3] <= '9'
}
