package extraction

import (
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"engram/backend/memory"
	"engram/backend/text"
)

// ProfileEntry is one thing the profile says, with the memory that says it.
type ProfileEntry struct {
	Value    string    `json:"value"`
	MemoryID string    `json:"memory_id"`
	Slug     string    `json:"slug"`
	Reviewed bool      `json:"reviewed"`
	Updated  time.Time `json:"updated"`
}

// Experience is one experience memory read as pain → solution → outcome.
type Experience struct {
	MemoryID string    `json:"memory_id"`
	Slug     string    `json:"slug"`
	Title    string    `json:"title"`
	Pain     string    `json:"pain,omitempty"`
	Solution string    `json:"solution,omitempty"`
	Outcome  string    `json:"outcome,omitempty"`
	Reviewed bool      `json:"reviewed"`
	Updated  time.Time `json:"updated"`
}

// Profile is the person's structured profile (ZCLAW's user profile), derived on demand from
// the memories — the person-profile memory's signal lines, the global user memories and the
// experiences — so it is never a second copy that could drift from the files.
type Profile struct {
	Role               []ProfileEntry `json:"role"`
	Industry           []ProfileEntry `json:"industry"`
	CommunicationStyle []ProfileEntry `json:"communication_style"`
	RecentTopics       []ProfileEntry `json:"recent_topics"`
	PainPoints         []ProfileEntry `json:"pain_points"`
	PreferredTools     []ProfileEntry `json:"preferred_tools"`
	// About are the global user memories other than the profile itself (name, home, likes).
	About       []ProfileEntry `json:"about"`
	Experiences []Experience   `json:"experiences"`
	// ProfileID is the person-profile memory's id, when it exists.
	ProfileID string `json:"profile_id,omitempty"`
}

// Bounds of a derived profile: the newest first within each list.
const (
	profileListMax   = 12
	profileAboutMax  = 24
	profileTopicDays = 30
)

// signalLine is one line of the person-profile body: "- kind: value".
var signalLine = text.Lazy(`^\s*[-*]\s*([a-z_]+)\s*[:：]\s*(.+?)\s*$`)

// expLabel finds the experience labels in a body's text (English, Chinese), at a line's start
// or inside it: the offline extractor writes one part a line, while people and models also
// write "Pain: … Solution: … Outcome: …" on one line, which read as one long pain point.
var expLabel = text.Lazy(`(?i)(?:^|[\s.;,。；，、])(pain|problem|solution|fix|outcome|result|痛点|问题|解决|方案|结果)\s*[:：]`)

// DeriveProfile builds the profile from global memories (live ones; archived are the
// caller's to leave out). Topic signals older than profileTopicDays are left out: a topic is
// recent or it is not a topic of now.
func DeriveProfile(mems []*memory.Memory, now time.Time) Profile {
	p := Profile{}
	mems = append([]*memory.Memory(nil), mems...)
	sort.SliceStable(mems, func(i, j int) bool { return mems[i].Updated.After(mems[j].Updated) })
	for _, m := range mems {
		if m == nil || m.Scope != memory.ScopeGlobal {
			continue
		}
		switch {
		case m.Slug == ProfileSlug:
			p.ProfileID = m.ID
			for _, line := range strings.Split(m.Body, "\n") {
				sm := signalLine.FindStringSubmatch(line)
				if sm == nil {
					continue
				}
				e := ProfileEntry{Value: clipProfile(sm[2]), MemoryID: m.ID, Slug: m.Slug, Reviewed: m.Reviewed, Updated: m.Updated}
				switch sm[1] {
				// One role and one industry at a time: the last line is the newest (a body written
				// before a newer one replaced the older line may hold several).
				case SignalRole:
					p.Role = []ProfileEntry{e}
				case SignalIndustry:
					p.Industry = []ProfileEntry{e}
				case SignalCommStyle:
					p.CommunicationStyle = addEntry(p.CommunicationStyle, e)
				case SignalRecentTopic:
					if now.Sub(m.Updated) <= profileTopicDays*24*time.Hour {
						p.RecentTopics = addEntry(p.RecentTopics, e)
					}
				case SignalPainPoint:
					p.PainPoints = addEntry(p.PainPoints, e)
				case SignalPreferredTool:
					p.PreferredTools = addEntry(p.PreferredTools, e)
				}
			}
		case m.Type == memory.TypeUser:
			if len(p.About) < profileAboutMax {
				p.About = append(p.About, ProfileEntry{Value: m.Title, MemoryID: m.ID, Slug: m.Slug, Reviewed: m.Reviewed, Updated: m.Updated})
			}
		case m.Type == memory.TypeExperience:
			if len(p.Experiences) < profileListMax {
				p.Experiences = append(p.Experiences, readExperience(m))
			}
		}
	}
	for _, x := range p.Experiences {
		if x.Pain != "" {
			p.PainPoints = addEntry(p.PainPoints, ProfileEntry{Value: x.Pain, MemoryID: x.MemoryID, Slug: x.Slug, Reviewed: x.Reviewed, Updated: x.Updated})
		}
	}
	// Lists are never null on the wire.
	for _, l := range []*[]ProfileEntry{&p.Role, &p.Industry, &p.CommunicationStyle, &p.RecentTopics, &p.PainPoints, &p.PreferredTools, &p.About} {
		if *l == nil {
			*l = []ProfileEntry{}
		}
	}
	if p.Experiences == nil {
		p.Experiences = []Experience{}
	}
	return p
}

// addEntry appends e unless the list is full or says the same already (case and spacing
// aside).
func addEntry(list []ProfileEntry, e ProfileEntry) []ProfileEntry {
	if e.Value == "" || len(list) >= profileListMax {
		return list
	}
	key := strings.ToLower(strings.Join(strings.Fields(e.Value), " "))
	for _, x := range list {
		if strings.ToLower(strings.Join(strings.Fields(x.Value), " ")) == key {
			return list
		}
	}
	return append(list, e)
}

// readExperience splits an experience body into its labelled parts; an unlabelled body is
// the solution (what the memory is for). The body is read as the reader shows it (links by
// their names, no list or emphasis marks): the card showed "[[Postgres]]" as written.
func readExperience(m *memory.Memory) Experience {
	x := Experience{MemoryID: m.ID, Slug: m.Slug, Title: m.Title, Reviewed: m.Reviewed, Updated: m.Updated}
	plain := memory.MarkdownText(m.Body)
	for _, line := range strings.Split(plain, "\n") {
		marks := expLabel.FindAllStringSubmatchIndex(line, -1)
		for i, mk := range marks {
			end := len(line)
			if i+1 < len(marks) {
				end = marks[i+1][0]
			}
			v := clipProfile(strings.TrimRight(strings.TrimSpace(line[mk[1]:end]), ".;,。；，、 "))
			if v == "" {
				continue
			}
			switch strings.ToLower(line[mk[2]:mk[3]]) {
			case "pain", "problem", "痛点", "问题":
				x.Pain = first(x.Pain, v)
			case "solution", "fix", "解决", "方案":
				x.Solution = first(x.Solution, v)
			case "outcome", "result", "结果":
				x.Outcome = first(x.Outcome, v)
			}
		}
	}
	if x.Solution == "" && x.Pain == "" && x.Outcome == "" {
		x.Solution = clipProfile(plain)
	}
	return x
}

func first(have, v string) string {
	if have != "" {
		return have
	}
	return v
}

// clipProfile keeps a profile value to one short line.
func clipProfile(s string) string {
	if strings.Contains(s, "[[") {
		s = memory.MarkdownText(s)
	}
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > 160 {
		s = string([]rune(s)[:159]) + "…"
	}
	return s
}
