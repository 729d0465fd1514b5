package api

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/width"

	"engram/backend/memory"
	"engram/backend/recall"
)

// DaySearchParams search the journal: full text over every day (live and archived), and a
// query that reads as a date ("2026-11-30", "11-30", "11月30日", "Nov 30", "yesterday",
// "昨天") finds that day.
type DaySearchParams struct {
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty"`
}

// DayHit is one day found: ByDate when the query named it, else the first entry that matched
// (its time and author) and a snippet around the match; Matches counts the query's
// occurrences in the day.
type DayHit struct {
	Date       string `json:"date"`
	Archived   bool   `json:"archived"`
	Bytes      int    `json:"bytes"`
	ByDate     bool   `json:"by_date"`
	Time       string `json:"time,omitempty"`
	Author     string `json:"author,omitempty"`
	AuthorKind string `json:"author_kind,omitempty"`
	Snippet    string `json:"snippet"`
	Matches    int    `json:"matches"`
}

// DaySearchResult lists the days found, the days a date query named first, then days whose
// text matched, newest first within each. Date is the date expression understood, if any.
type DaySearchResult struct {
	Days []DayHit `json:"days"`
	Date string   `json:"date,omitempty"`
}

// maxJournalQuery bounds a journal search query (bytes).
const maxJournalQuery = 512

// Search finds journal days by date or by text.
func (s *DailyService) Search(p DaySearchParams) (DaySearchResult, error) {
	if err := s.a.Wait(); err != nil {
		return DaySearchResult{}, err
	}
	q := strings.TrimSpace(p.Query)
	out := DaySearchResult{Days: []DayHit{}}
	if len(q) > maxJournalQuery || !utf8.ValidString(q) {
		return out, s.a.newError(CodeInvalidParams, map[string]any{"Method": "daily.search",
			"Detail": fmt.Sprintf("query must be valid text of at most %d bytes", maxJournalQuery), DetailKey: "detail.query_too_long", "Max": maxJournalQuery})
	}
	if q == "" {
		return out, nil
	}
	limit := p.Limit
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	items, err := s.days()
	if err != nil {
		return out, s.a.fail(err)
	}
	st := s.a.deps.Store
	match, expr := journalDate(dateForm(q), journalNow(st.Now(), st.Location()), st.Location())
	out.Date = expr
	terms := strings.Fields(strings.ToLower(q))
	var byText []DayHit
	for _, m := range items {
		if len(out.Days) >= limit {
			break
		}
		if match != nil && match(m.Slug) {
			hit := DayHit{Date: m.Slug, Archived: m.Archived, Bytes: dayBytes(m), ByDate: true}
			if es := memory.DailyEntries(m.Body); len(es) > 0 {
				hit.Time, hit.Author, hit.AuthorKind = es[0].Time, es[0].Author, es[0].AuthorKind
				hit.Snippet = memory.PlainSnippet(es[0].Text, "", 160)
			}
			out.Days = append(out.Days, hit)
			continue
		}
		if hit, ok := textHit(m, q, terms); ok {
			byText = append(byText, hit)
		}
	}
	for _, h := range byText {
		if len(out.Days) >= limit {
			break
		}
		out.Days = append(out.Days, h)
	}
	return out, nil
}

// textHit reports whether every term of the query occurs in the day (case-insensitively),
// with the first entry holding them all (or, failing that, any of them) for the snippet.
func textHit(m *memory.Memory, q string, terms []string) (DayHit, bool) {
	entries := memory.DailyEntries(m.Body)
	var all strings.Builder
	for _, e := range entries {
		all.WriteString(strings.ToLower(e.Text))
		all.WriteString("\n")
	}
	text := all.String()
	count := 0
	for _, t := range terms {
		n := strings.Count(text, t)
		if n == 0 {
			return DayHit{}, false
		}
		count += n
	}
	best := -1
	for i, e := range entries {
		lower := strings.ToLower(e.Text)
		every := true
		for _, t := range terms {
			if !strings.Contains(lower, t) {
				every = false
				break
			}
		}
		if every {
			best = i
			break
		}
		if best < 0 && strings.Contains(lower, terms[0]) {
			best = i
		}
	}
	hit := DayHit{Date: m.Slug, Archived: m.Archived, Bytes: dayBytes(m), Matches: count}
	if best >= 0 {
		e := entries[best]
		hit.Time, hit.Author, hit.AuthorKind = e.Time, e.Author, e.AuthorKind
		hit.Snippet = memory.PlainSnippet(e.Text, q, 160)
	}
	return hit, true
}

// journalNow is noon of the journal's today: "today", "yesterday" and "this week" count from the
// day the journal is writing, which rolls over at 04:00 — at 01:30 "today" is the evening's
// day (the calendar's today has no entries yet) and "yesterday" the day before it.
func journalNow(now time.Time, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.Local
	}
	day, err := time.ParseInLocation(time.DateOnly, memory.JournalDay(now, loc), loc)
	if err != nil {
		return now
	}
	return day.Add(12 * time.Hour)
}

// dateForm folds a query's full-width digits, slashes, dots and spaces (a Chinese input method
// types "１２月７日", "１２／７") to their ASCII forms, which the date patterns read; the text
// search keeps the query as typed.
func dateForm(q string) string { return strings.TrimSpace(width.Fold.String(q)) }

const journalMonths = `(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

var (
	// 2026-11-30, 2026/11/30, 2026.11.30, 2026年11月30日 (or 号)
	jdFull = regexp.MustCompile(`^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*[日号]?$`)
	// 11-30, 11/30, 11.30, 11月30日
	jdMonthDay = regexp.MustCompile(`^(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*[日号]?$`)
	// 2026-11, 2026年11月
	jdYearMonth = regexp.MustCompile(`^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*月?$`)
	// 11月
	jdMonth = regexp.MustCompile(`^(\d{1,2})\s*月$`)
	// Nov 30, November 30th, 2026
	jdNameDay = regexp.MustCompile(`(?i)^` + journalMonths + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?$`)
	// December, December 2026, May 2026 (a month named whole; "may" alone is a word, not May)
	jdMonthName = regexp.MustCompile(`(?i)^(?:(january|february|march|april|june|july|august|september|october|november|december)(?:,?\s+(\d{4}))?|(may),?\s+(\d{4}))$`)
	// 30 Nov, 30th of November 2026
	jdDayName = regexp.MustCompile(`(?i)^(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + journalMonths + `\.?(?:,?\s+(\d{4}))?$`)
)

func journalMonth(name string) int {
	name = strings.ToLower(name)
	for i, m := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if strings.HasPrefix(name, m) {
			return i + 1
		}
	}
	return 0
}

// dayMatcher matches journal days (YYYY-MM-DD) by year (0 = any), month and day (0 = any).
func dayMatcher(y, mo, d int) (func(string) bool, string) {
	if mo < 1 || mo > 12 || d < 0 || d > 31 || (y != 0 && (y < 1000 || y > 9999)) {
		return nil, ""
	}
	var expr string
	switch {
	case y != 0 && d != 0:
		expr = fmt.Sprintf("%04d-%02d-%02d", y, mo, d)
	case y != 0:
		expr = fmt.Sprintf("%04d-%02d", y, mo)
	case d != 0:
		expr = fmt.Sprintf("%02d-%02d", mo, d)
	default:
		expr = fmt.Sprintf("%02d", mo)
	}
	return func(day string) bool {
		dy, _ := strconv.Atoi(day[0:4])
		dm, _ := strconv.Atoi(day[5:7])
		dd, _ := strconv.Atoi(day[8:10])
		return (y == 0 || dy == y) && dm == mo && (d == 0 || dd == d)
	}, expr
}

// journalDate reads a whole query as a date or period and returns a matcher over journal
// days and the date understood, or nil when the query is not a date. Written dates come in
// ISO, month-day (any year), Chinese and English forms; relative ones ("yesterday", "last
// week", "昨天", "上周") are read by recall's time expressions.
func journalDate(q string, now time.Time, loc *time.Location) (func(string) bool, string) {
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	if m := jdFull.FindStringSubmatch(q); m != nil {
		return dayMatcher(n(m[1]), n(m[2]), n(m[3]))
	}
	if m := jdMonthDay.FindStringSubmatch(q); m != nil && n(m[2]) > 0 {
		return dayMatcher(0, n(m[1]), n(m[2]))
	}
	if m := jdYearMonth.FindStringSubmatch(q); m != nil {
		return dayMatcher(n(m[1]), n(m[2]), 0)
	}
	if m := jdMonth.FindStringSubmatch(q); m != nil {
		return dayMatcher(0, n(m[1]), 0)
	}
	if m := jdNameDay.FindStringSubmatch(q); m != nil && n(m[2]) > 0 {
		return dayMatcher(n(m[3]), journalMonth(m[1]), n(m[2]))
	}
	if m := jdDayName.FindStringSubmatch(q); m != nil && n(m[1]) > 0 {
		return dayMatcher(n(m[3]), journalMonth(m[2]), n(m[1]))
	}
	if m := jdMonthName.FindStringSubmatch(q); m != nil {
		if m[3] != "" {
			return dayMatcher(n(m[4]), 5, 0)
		}
		return dayMatcher(n(m[2]), journalMonth(m[1]), 0)
	}
	r := recall.ParseTime(q, now, loc, false)
	if r == nil || !strings.EqualFold(strings.TrimSpace(r.Expr), q) {
		return nil, ""
	}
	if r.Month != 0 {
		return dayMatcher(0, r.Month, 0)
	}
	if r.From.IsZero() || r.To.IsZero() || r.To.Sub(r.From) > 400*24*time.Hour {
		return nil, ""
	}
	from, to := r.From.In(loc).Format("2006-01-02"), r.To.Add(-time.Nanosecond).In(loc).Format("2006-01-02")
	expr := from
	if to != from {
		expr = from + " – " + to
	}
	return func(day string) bool { return day >= from && day <= to }, expr
}
