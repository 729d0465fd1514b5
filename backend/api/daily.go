package api

import (
	"regexp"
	"sort"
	"time"

	"engram/backend/memory"
)

// DailyService is the journal: days appended by the person and their agents, read one day at
// a time, listed for the calendar and searched. Journal days live apart from the memory list
// (memory.list and memory.search leave them out unless asked for type daily).
type DailyService struct{ a *API }

// AppendParams add one journal entry to today. Agent names the agent writing; empty means
// the caller itself (the person from the window, CLI or browser; "tool" from MCP).
type AppendParams struct {
	Text  string `json:"text"`
	Agent string `json:"agent,omitempty"`
}

// Append adds an entry to today's journal (the day rolls over at 04:00).
func (s *DailyService) Append(p AppendParams) (ItemResult, error) {
	if err := s.a.Wait(); err != nil {
		return ItemResult{}, err
	}
	it := memory.Item{Op: memory.OpAppendDaily, Text: p.Text}
	if p.Agent != "" {
		it.Source = &memory.Source{Agent: p.Agent}
	}
	return s.a.Memory.one(it)
}

// DayParams name a journal day, YYYY-MM-DD; empty means today. Archived reads the day's
// archived copy (under .archive/YYYY/daily/) instead of the live one.
type DayParams struct {
	Date     string `json:"date,omitempty"`
	Archived bool   `json:"archived,omitempty"`
}

// DayEntry is one entry of a day with its author: AuthorKind person (shown as "You"), agent
// (Author is its name; empty for an MCP caller that gave none), extractor, or other.
type DayEntry struct {
	Time       string `json:"time,omitempty"`
	Author     string `json:"author,omitempty"`
	AuthorKind string `json:"author_kind"`
	Text       string `json:"text"`
	HTML       string `json:"html"`
}

// DayResult is one journal day; Memory is nil for a day with no entries. Bytes is the size
// of the day's file, which is refused past MaxBytes and warned about from WarnBytes.
type DayResult struct {
	Date      string         `json:"date"`
	Memory    *memory.Memory `json:"memory"`
	HTML      string         `json:"html"`
	Entries   []DayEntry     `json:"entries"`
	Bytes     int            `json:"bytes"`
	WarnBytes int            `json:"warn_bytes"`
	MaxBytes  int            `json:"max_bytes"`
	Archived  bool           `json:"archived"`
	Today     string         `json:"today"`
	// Problem is why the day's file cannot be read, when it is there but unreadable (the day
	// showed as empty, and an append to it is refused).
	Problem *memory.Problem `json:"problem,omitempty"`
}

var dayRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// CodeInvalidDate refuses a journal day that is not a calendar date (2026-13-45 has the shape).
const CodeInvalidDate = "invalid_date"

// validDay reports whether day is a calendar date written YYYY-MM-DD.
func validDay(day string) bool {
	if !dayRE.MatchString(day) {
		return false
	}
	_, err := time.Parse(time.DateOnly, day)
	return err == nil
}

func (s *DailyService) today() string {
	st := s.a.deps.Store
	return memory.JournalDay(st.Now(), st.Location())
}

// dayBytes is the size of a day's file as the store writes it (what the limit counts).
func dayBytes(m *memory.Memory) int {
	data, err := memory.Render(m)
	if err != nil {
		return len(m.Body)
	}
	return len(data)
}

// Read returns one day of the journal, rendered whole and entry by entry. A day with no live
// file but an archived copy is read from the archive.
func (s *DailyService) Read(p DayParams) (DayResult, error) {
	if err := s.a.Wait(); err != nil {
		return DayResult{}, err
	}
	day := p.Date
	if day == "" {
		day = s.today()
	}
	if !validDay(day) {
		return DayResult{}, s.a.newError(CodeInvalidDate, map[string]any{"Value": day})
	}
	out := DayResult{Date: day, Entries: []DayEntry{}, WarnBytes: memory.DailyWarnBytes, MaxBytes: memory.MaxDailyBytes, Today: s.today()}
	st := s.a.deps.Store
	m, err := st.Daily(s.a.ctx, day, p.Archived)
	if memory.CodeOf(err) == memory.CodeNotFound && !p.Archived {
		m, err = st.Daily(s.a.ctx, day, true)
	}
	if err != nil {
		if memory.CodeOf(err) == memory.CodeNotFound {
			out.Problem, err = s.dayProblem(day)
			if err != nil {
				return DayResult{}, s.a.fail(err)
			}
			return out, nil
		}
		return DayResult{}, s.a.fail(err)
	}
	// [[links]] in a day read as in the reader: to the memory of that slug or title, else to
	// the entity of that name.
	from := memory.LinkFrom{Scope: m.Scope, ScopeKey: m.ScopeKey()}
	out.Memory, out.HTML, out.Bytes, out.Archived = m, s.a.renderLinkedFrom(m.Body, from), dayBytes(m), m.Archived
	for _, e := range memory.DailyEntries(m.Body) {
		out.Entries = append(out.Entries, DayEntry{Time: e.Time, Author: e.Author, AuthorKind: e.AuthorKind,
			Text: e.Text, HTML: s.a.renderLinkedFrom(e.Text, from)})
	}
	return out, nil
}

// DayListParams bound a range of days (inclusive); empty bounds are open.
type DayListParams struct {
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// DayListResult lists the days that have entries, newest first, live and archived, with the
// journal's size limits and today's date (the day rolls over at 04:00 local time).
type DayListResult struct {
	Days      []DaySummary `json:"days"`
	Today     string       `json:"today"`
	WarnBytes int          `json:"warn_bytes"`
	MaxBytes  int          `json:"max_bytes"`
}

// DaySummary is one journal day in a listing: its file size and number of entries.
type DaySummary struct {
	Date     string `json:"date"`
	Bytes    int    `json:"bytes"`
	Entries  int    `json:"entries"`
	Archived bool   `json:"archived"`
}

// maxDays bounds a listing or search: more than thirteen years of daily entries.
const maxDays = 5000

// days lists every journal day, live ones then archived ones.
func (s *DailyService) days() ([]*memory.Memory, error) {
	var all []*memory.Memory
	for _, archived := range []bool{false, true} {
		items, _, err := s.a.deps.Store.List(s.a.ctx, memory.Filter{Scope: memory.ScopeGlobal, Type: memory.TypeDaily,
			Archived: archived, Limit: maxDays})
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Slug > all[j].Slug })
	return all, nil
}

// List returns the days that have journal entries, live and archived.
func (s *DailyService) List(p DayListParams) (DayListResult, error) {
	if err := s.a.Wait(); err != nil {
		return DayListResult{}, err
	}
	for _, d := range []string{p.From, p.To} {
		if d != "" && !validDay(d) {
			return DayListResult{}, s.a.newError(CodeInvalidDate, map[string]any{"Value": d})
		}
	}
	items, err := s.days()
	if err != nil {
		return DayListResult{}, s.a.fail(err)
	}
	out := DayListResult{Days: []DaySummary{}, Today: s.today(), WarnBytes: memory.DailyWarnBytes, MaxBytes: memory.MaxDailyBytes}
	for _, m := range items {
		if (p.From != "" && m.Slug < p.From) || (p.To != "" && m.Slug > p.To) {
			continue
		}
		out.Days = append(out.Days, DaySummary{Date: m.Slug, Bytes: dayBytes(m), Entries: len(memory.DailyEntries(m.Body)), Archived: m.Archived})
	}
	return out, nil
}

// dayProblem is the problem the store recorded for the day's file, translated, or nil.
func (s *DailyService) dayProblem(day string) (*memory.Problem, error) {
	ps, err := s.a.deps.Store.Problems(s.a.ctx)
	if err != nil {
		return nil, err
	}
	for i := range ps {
		if ps[i].Path == "daily/"+day+".md" {
			one := ps[i : i+1]
			s.a.translateProblems(one)
			return &one[0], nil
		}
	}
	return nil, nil
}
