package api

import (
	"regexp"

	"engram/backend/memory"
)

// DailyService is the journal.
type DailyService struct{ a *API }

// AppendParams add one journal entry to today.
type AppendParams struct {
	Text  string `json:"text"`
	Agent string `json:"agent,omitempty"`
}

// Append adds an entry to today's journal (the day rolls over at 04:00).
func (s *DailyService) Append(p AppendParams) (ItemResult, error) {
	it := memory.Item{Op: memory.OpAppendDaily, Text: p.Text}
	if p.Agent != "" {
		it.Source = &memory.Source{Agent: p.Agent}
	}
	return s.a.Memory.one(it)
}

// DayParams name a journal day, YYYY-MM-DD; empty means today.
type DayParams struct {
	Date string `json:"date,omitempty"`
}

// DayResult is one journal day; Memory is nil for a day with no entries.
type DayResult struct {
	Date   string         `json:"date"`
	Memory *memory.Memory `json:"memory"`
	HTML   string         `json:"html"`
}

var dayRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// Read returns one day of the journal.
func (s *DailyService) Read(p DayParams) (DayResult, error) {
	st := s.a.deps.Store
	day := p.Date
	if day == "" {
		day = memory.JournalDay(st.Now(), st.Location())
	}
	if !dayRE.MatchString(day) {
		return DayResult{}, s.a.newError(CodeInvalidParams, map[string]any{"Method": "daily.read", "Detail": "date must be YYYY-MM-DD"})
	}
	m, err := st.GetBySlug(s.a.ctx, memory.ScopeGlobal, "", "", day)
	if err != nil {
		if memory.CodeOf(err) == memory.CodeNotFound {
			return DayResult{Date: day}, nil
		}
		return DayResult{}, s.a.fail(err)
	}
	return DayResult{Date: day, Memory: m, HTML: RenderMarkdown(m.Body)}, nil
}

// DayListParams bound a range of days (inclusive); empty bounds are open.
type DayListParams struct {
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// DayListResult lists the days that have entries, newest first.
type DayListResult struct {
	Days []DaySummary `json:"days"`
}

// DaySummary is one journal day in a listing.
type DaySummary struct {
	Date  string `json:"date"`
	Bytes int    `json:"bytes"`
}

// List returns the days that have journal entries.
func (s *DailyService) List(p DayListParams) (DayListResult, error) {
	items, _, err := s.a.deps.Store.List(s.a.ctx, memory.Filter{Scope: memory.ScopeGlobal, Type: memory.TypeDaily, Limit: 5000})
	if err != nil {
		return DayListResult{}, s.a.fail(err)
	}
	out := DayListResult{Days: []DaySummary{}}
	for _, m := range items {
		if (p.From != "" && m.Slug < p.From) || (p.To != "" && m.Slug > p.To) {
			continue
		}
		out.Days = append(out.Days, DaySummary{Date: m.Slug, Bytes: len(m.Body)})
	}
	return out, nil
}
