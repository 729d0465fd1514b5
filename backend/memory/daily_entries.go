package memory

import (
	"strings"

	"engram/backend/text"
)

// Journal entry authors, as DailyEntry.AuthorKind says who wrote an entry.
const (
	// AuthorPerson is the person (the desktop window, the CLI without --agent, the browser).
	AuthorPerson = "person"
	// AuthorAgent is a named agent (Author holds its name) or, with Author empty, an MCP
	// caller that gave no name.
	AuthorAgent = "agent"
	// AuthorExtractor is the extractor writing on its own after a turn.
	AuthorExtractor = "extractor"
	// AuthorOther is an import, the organizer, or text written by hand without a heading.
	AuthorOther = "other"
)

// agentMark prefixes an agent's name in an entry heading when the name alone would read as
// one of the actors ("user", "bridge", …): an agent calling itself "user" must not pass for
// the person in the journal.
const agentMark = "agent:"

// DailyEntry is one entry of a journal day: the "## HH:MM · who" heading opAppendDaily writes
// and the text below it. Text before the first heading (a hand edit) is an entry of its own
// with no time and AuthorOther.
type DailyEntry struct {
	Time       string `json:"time,omitempty"`
	Author     string `json:"author,omitempty"`
	AuthorKind string `json:"author_kind"`
	Text       string `json:"text"`
}

var dailyHeadRE = text.Lazy(`^## (\d{2}:\d{2}) · (.+)$`)

// reservedAuthor reports whether who would read as an actor rather than an agent's name.
func reservedAuthor(who string) bool {
	switch strings.ToLower(who) {
	case ActorUser, ActorBridge, ActorTool, ActorExtractor, ActorOrganizer, ActorReconcile, ActorImport, "you":
		return true
	}
	return strings.HasPrefix(strings.ToLower(who), agentMark)
}

// dailyAuthor is the heading's "who" for an entry: the agent's name when one was given
// (marked when it could pass for an actor), else the actor.
func dailyAuthor(actor string, src *Source) string {
	if src == nil || strings.TrimSpace(src.Agent) == "" {
		return actor
	}
	// The name goes into a heading: one short line, so it cannot forge entries below it.
	who := strings.Join(strings.Fields(src.Agent), " ")
	if r := []rune(who); len(r) > 64 {
		who = string(r[:64])
	}
	if reservedAuthor(who) {
		who = agentMark + who
	}
	return who
}

// authorOf classifies the "who" of a heading.
func authorOf(who string) (kind, name string) {
	switch {
	case strings.HasPrefix(who, agentMark):
		return AuthorAgent, strings.TrimPrefix(who, agentMark)
	case who == ActorUser || who == ActorBridge || strings.EqualFold(who, "you"):
		// "you" is how a person writes themselves into a heading by hand (the store writes
		// "user"); an agent of that name is written "agent:you" (reservedAuthor).
		return AuthorPerson, ""
	case who == ActorTool:
		return AuthorAgent, ""
	case who == ActorExtractor:
		return AuthorExtractor, ""
	case who == ActorImport || who == ActorOrganizer || who == ActorReconcile:
		return AuthorOther, who
	}
	return AuthorAgent, who
}

// DailyEntries splits a journal day's body into its entries, in file order. A heading inside
// fenced code is text, not an entry.
func DailyEntries(body string) []DailyEntry {
	out := []DailyEntry{}
	for _, b := range DailyBlocks(body) {
		if b.Time == "" {
			out = append(out, DailyEntry{AuthorKind: AuthorOther, Text: b.Text})
			continue
		}
		_, rest, _ := strings.Cut(b.Text, "\n")
		kind, name := authorOf(strings.TrimSpace(b.Who))
		out = append(out, DailyEntry{Time: b.Time, Author: name, AuthorKind: kind, Text: strings.Trim(rest, "\n")})
	}
	return out
}

// DailyBlock is one entry of a journal day as its file holds it: the heading line and the text
// below it, verbatim (Time and Who read from the heading); text before the first heading (a
// hand edit) is a block with no time. A sync merges days by these (history), so both
// machines' entries keep their headings.
type DailyBlock struct {
	Time, Who string
	Text      string
}

// DailyBlocks splits a journal day's body at its entry headings; a heading inside fenced code
// is text. A block of only blank lines is dropped.
func DailyBlocks(body string) []DailyBlock {
	var out []DailyBlock
	var cur []string
	var at, who string
	flush := func() {
		t := strings.Trim(strings.Join(cur, "\n"), "\n")
		if at != "" || strings.TrimSpace(t) != "" {
			out = append(out, DailyBlock{Time: at, Who: who, Text: t})
		}
		cur = nil
	}
	fenced := false
	for _, line := range strings.Split(body, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fenced = !fenced
		}
		if !fenced {
			if m := dailyHeadRE.FindStringSubmatch(line); m != nil {
				flush()
				at, who = m[1], m[2]
			}
		}
		cur = append(cur, line)
	}
	flush()
	return out
}

// escapeHeadings backslash-escapes lines of an entry's text that read as an entry heading
// (Markdown shows them as the same text, and DailyEntries no longer splits there).
func escapeHeadings(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if dailyHeadRE.MatchString(strings.TrimLeft(l, " ")) {
			lines[i] = `\` + strings.TrimLeft(l, " ")
		}
	}
	return strings.Join(lines, "\n")
}
