package recall

import (
	"strconv"
	"strings"
	"time"

	"engram/backend/memory"
	"engram/backend/text"
)

// TimeRange is the period a time expression in a query names.
type TimeRange struct {
	// From and To bound the period, To exclusive; zero when only Month is known.
	From time.Time `json:"from,omitempty"`
	To   time.Time `json:"to,omitempty"`
	// Month is set (1–12) for a month named without a year ("in June"): that month of any
	// year matches.
	Month int `json:"month,omitempty"`
	// Expr is the expression as found in the query.
	Expr string `json:"expr"`
	// Relative is true for periods counted back from now ("last week", "上个月"): those filter
	// the search. An absolute date ("8 May 2023") only favours memories from around then,
	// because people mention dates of events that were recorded on other days.
	Relative bool `json:"relative"`
}

// Window is the range as a store filter (empty for a yearless month).
func (r *TimeRange) Window() memory.TimeWindow {
	if r == nil || r.Month != 0 {
		return memory.TimeWindow{}
	}
	return memory.TimeWindow{Since: r.From, Until: r.To}
}

// Near reports whether t falls in the range widened by lead before it and lag after it: a
// note about what happened in a period is written during it or after, seldom long before.
func (r *TimeRange) Near(t time.Time, lead, lag time.Duration, loc *time.Location) bool {
	if r == nil || t.IsZero() {
		return false
	}
	if r.Month != 0 {
		lt := t.In(loc)
		for _, d := range []time.Time{lt, lt.Add(lead), lt.Add(-lag)} {
			if int(d.Month()) == r.Month {
				return true
			}
		}
		return false
	}
	return !t.Before(r.From.Add(-lead)) && t.Before(r.To.Add(lag))
}

const monthAlt = `(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

var (
	reISODate   = text.Lazy(`\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b`)
	reDayMonthY = text.Lazy(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthAlt + `\.?,?\s+(\d{4})\b`)
	reMonthDayY = text.Lazy(`(?i)\b` + monthAlt + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	reMonthYear = text.Lazy(`(?i)\b` + monthAlt + `\.?,?\s+(?:of\s+)?(\d{4})\b`)
	reYear      = text.Lazy(`(?i)\b(?:in|during|since|of|from|year|before|after)\s+((?:19|20)\d\d)\b|\b((?:19|20)\d\d)\s*$`)
	reMonthOnly = text.Lazy(`(?i)\b(?:in|during|since|last|this|early|late|mid)[\s-]+(january|february|march|april|may|june|july|august|september|october|november|december)\b`)

	reToday     = text.Lazy(`(?i)\b(today|tonight|this (morning|afternoon|evening))\b`)
	reYesterday = text.Lazy(`(?i)\b(yesterday|last night)\b`)
	reDayBefore = text.Lazy(`(?i)\bthe day before yesterday\b`)
	reThisUnit  = text.Lazy(`(?i)\bthis (week|month|year)\b`)
	reLastUnit  = text.Lazy(`(?i)\b(last|previous|past) (week|month|year)\b`)
	reLastWkEnd = text.Lazy(`(?i)\blast weekend\b`)
	reLastN     = text.Lazy(`(?i)\b(?:last|past|previous) (\d+|two|three|four|five|six|seven|eight|nine|ten|few|couple of) (days?|weeks?|months?|years?)\b`)
	reNAgo      = text.Lazy(`(?i)\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of) (days?|weeks?|months?|years?) ago\b`)
	reLastWday  = text.Lazy(`(?i)\blast (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)

	reZHYMD      = text.Lazy(`(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]`)
	reZHYM       = text.Lazy(`(\d{4})\s*年\s*(\d{1,2})\s*月`)
	reZHMD       = text.Lazy(`(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]`)
	reZHY        = text.Lazy(`(\d{4})\s*年`)
	reZHMonth    = text.Lazy(`([一二三四五六七八九十]{1,3}|\d{1,2})\s*月份?`)
	reZHRecentN  = text.Lazy(`(?:最近|过去|近)\s*([0-9一二两三四五六七八九十几]+)\s*(天|日|周|个星期|星期|个月|月|年)`)
	reZHNAgo     = text.Lazy(`([0-9一二两三四五六七八九十几]+)\s*(天|日|周|个星期|星期|个月|年)(?:前|之前|以前)`)
	reZHLastWE   = text.Lazy(`上(?:个)?周末`)
	reZHLastWeek = text.Lazy(`上(?:个)?(?:周|星期|礼拜)`)
	reZHThisWeek = text.Lazy(`(?:本|这)(?:个)?(?:周|星期|礼拜)`)
)

var monthNames = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
	"sep": 9, "oct": 10, "nov": 11, "dec": 12}

func monthOf(s string) int {
	s = strings.ToLower(s)
	if len(s) < 3 {
		return 0
	}
	return monthNames[s[:3]]
}

var wordNumbers = map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "few": 3, "a few": 3, "couple of": 2, "a couple of": 2}

func number(s string) int {
	s = strings.ToLower(strings.TrimSpace(s))
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	if n, ok := wordNumbers[s]; ok {
		return n
	}
	return chineseNumber(s)
}

// chineseNumber reads 一 … 九十九 (and 两, 几 as "a few").
func chineseNumber(s string) int {
	if s == "几" {
		return 3
	}
	digits := map[rune]int{'一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	rs := []rune(s)
	switch {
	case len(rs) == 1 && rs[0] == '十':
		return 10
	case len(rs) == 1:
		return digits[rs[0]]
	case len(rs) == 2 && rs[0] == '十':
		return 10 + digits[rs[1]]
	case len(rs) == 2 && rs[1] == '十':
		return digits[rs[0]] * 10
	case len(rs) == 3 && rs[1] == '十':
		return digits[rs[0]]*10 + digits[rs[2]]
	}
	return 0
}

func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

func weekStart(t time.Time) time.Time {
	d := day(t)
	off := (int(d.Weekday()) + 6) % 7 // Monday = 0
	return d.AddDate(0, 0, -off)
}

func validDate(y, m, d int) bool {
	if m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2200 {
		return false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return t.Day() == d
}

// unitSpan returns the span of n units back from now (for "last 3 days") and the span of the
// one unit n units ago (for "3 days ago").
func unitBack(now time.Time, n int, unit string) (back time.Time, agoFrom, agoTo time.Time) {
	d := day(now)
	switch {
	case strings.HasPrefix(unit, "day"), unit == "天", unit == "日":
		back = d.AddDate(0, 0, -n)
		agoFrom = d.AddDate(0, 0, -n)
		agoTo = agoFrom.AddDate(0, 0, 1)
	case strings.HasPrefix(unit, "week"), unit == "周", unit == "星期", unit == "个星期":
		back = d.AddDate(0, 0, -7*n)
		agoFrom = d.AddDate(0, 0, -7*n-3)
		agoTo = d.AddDate(0, 0, -7*n+4)
	case strings.HasPrefix(unit, "month"), unit == "个月", unit == "月":
		back = d.AddDate(0, -n, 0)
		m := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, now.Location()).AddDate(0, -n, 0)
		agoFrom, agoTo = m, m.AddDate(0, 1, 0)
	default: // years
		back = d.AddDate(-n, 0, 0)
		y := time.Date(now.Year()-n, 1, 1, 0, 0, 0, 0, now.Location())
		agoFrom, agoTo = y, y.AddDate(1, 0, 0)
	}
	return back, agoFrom, agoTo
}

// ParseTime finds the first time expression in q (English or Chinese) and returns the period
// it names, relative to now in loc; nil when there is none. The patterns of timePatterns are
// tried in order, most specific first; one that matches but reads no valid period (30 February,
// "last 0 days") lets the next one try. In code queries bare years are not read as dates (they
// are more likely versions or numbers).
func ParseTime(q string, now time.Time, loc *time.Location, code bool) *TimeRange {
	if loc == nil {
		loc = time.Local
	}
	c := newTimeClock(now.In(loc), loc)
	for _, p := range timePatterns {
		if p.prose && code {
			continue
		}
		if m := p.match(q); m != nil {
			if r := p.read(c, m); r != nil {
				return r
			}
		}
	}
	return nil
}

// timePattern is one kind of time expression: a regular expression (or literal words) and how
// its match reads as a period.
type timePattern struct {
	re *text.Regexp
	// words match literally when re is nil; the expression reported is the first of them.
	words []string
	// prose patterns are skipped in code queries.
	prose bool
	// read turns the submatches (m[0] the whole expression) into a period; nil to let the next
	// pattern try.
	read func(c timeClock, m []string) *TimeRange
}

func (p timePattern) match(q string) []string {
	if p.re != nil {
		return p.re.FindStringSubmatch(q)
	}
	for _, w := range p.words {
		if strings.Contains(q, w) {
			return []string{p.words[0]}
		}
	}
	return nil
}

// literal is a pattern of literal alternatives, reported as the first.
func literal(read func(c timeClock, m []string) *TimeRange, ws ...string) timePattern {
	return timePattern{words: ws, read: read}
}

// timeClock is "now" and the starts of its day, week, month and year in the query's location.
type timeClock struct {
	now, today, week, month, year time.Time
	loc                           *time.Location
}

func newTimeClock(now time.Time, loc *time.Location) timeClock {
	return timeClock{now: now, today: day(now), week: weekStart(now), loc: loc,
		month: time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc),
		year:  time.Date(now.Year(), 1, 1, 0, 0, 0, 0, loc)}
}

func (c timeClock) date(y, m, d int) time.Time {
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, c.loc)
}

// rel is a period counted back from now: it filters the search.
func rel(expr string, from, to time.Time) *TimeRange {
	return &TimeRange{From: from, To: to, Expr: expr, Relative: true}
}

// onDay is the absolute day y-m-d, nil when there is no such day.
func (c timeClock) onDay(expr string, y, m, d int) *TimeRange {
	if !validDate(y, m, d) {
		return nil
	}
	return &TimeRange{From: c.date(y, m, d), To: c.date(y, m, d).AddDate(0, 0, 1), Expr: expr}
}

// inMonth is the absolute month y-m, nil when there is no such month.
func (c timeClock) inMonth(expr string, y, m int) *TimeRange {
	if !validDate(y, m, 1) {
		return nil
	}
	return &TimeRange{From: c.date(y, m, 1), To: c.date(y, m, 1).AddDate(0, 1, 0), Expr: expr}
}

// inYear is the absolute year y, nil when it is out of range.
func (c timeClock) inYear(expr string, y int) *TimeRange {
	if !validDate(y, 1, 1) {
		return nil
	}
	return &TimeRange{From: c.date(y, 1, 1), To: c.date(y+1, 1, 1), Expr: expr}
}

// daysBack is the whole day n days before today.
func (c timeClock) daysBack(expr string, n int) *TimeRange {
	return rel(expr, c.today.AddDate(0, 0, -n), c.today.AddDate(0, 0, 1-n))
}

// lastN is "the last n units" up to the end of today; nil for a count of zero.
func (c timeClock) lastN(expr string, n int, unit string) *TimeRange {
	if n <= 0 {
		return nil
	}
	back, _, _ := unitBack(c.now, n, unit)
	return rel(expr, back, c.today.AddDate(0, 0, 1))
}

// nAgo is the one unit n units ago; nil for a count of zero.
func (c timeClock) nAgo(expr string, n int, unit string) *TimeRange {
	if n <= 0 {
		return nil
	}
	_, from, to := unitBack(c.now, n, unit)
	return rel(expr, from, to)
}

// lastUnit is the calendar week, month or year before this one; thisUnit is this one.
func (c timeClock) lastUnit(expr, unit string) *TimeRange {
	switch unit {
	case "week":
		return rel(expr, c.week.AddDate(0, 0, -7), c.week)
	case "month":
		return rel(expr, c.month.AddDate(0, -1, 0), c.month)
	}
	return rel(expr, c.year.AddDate(-1, 0, 0), c.year)
}

func (c timeClock) thisUnit(expr, unit string) *TimeRange {
	switch unit {
	case "week":
		return rel(expr, c.week, c.week.AddDate(0, 0, 7))
	case "month":
		return rel(expr, c.month, c.month.AddDate(0, 1, 0))
	}
	return rel(expr, c.year, c.year.AddDate(1, 0, 0))
}

var weekdays = map[string]time.Weekday{"sunday": 0, "monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4,
	"friday": 5, "saturday": 6}

// timePatterns, in the order they are tried: absolute dates (most specific first), relative
// days, counted periods, weekends and weekdays, calendar units, and last the least specific:
// years and yearless months.
var timePatterns = []timePattern{
	{re: reISODate, read: func(c timeClock, m []string) *TimeRange { return c.onDay(m[0], atoi(m[1]), atoi(m[2]), atoi(m[3])) }},
	{re: reZHYMD, read: func(c timeClock, m []string) *TimeRange { return c.onDay(m[0], atoi(m[1]), atoi(m[2]), atoi(m[3])) }},
	{re: reDayMonthY, read: func(c timeClock, m []string) *TimeRange { return c.onDay(m[0], atoi(m[3]), monthOf(m[2]), atoi(m[1])) }},
	{re: reMonthDayY, read: func(c timeClock, m []string) *TimeRange { return c.onDay(m[0], atoi(m[3]), monthOf(m[1]), atoi(m[2])) }},
	{re: reZHYM, read: func(c timeClock, m []string) *TimeRange { return c.inMonth(m[0], atoi(m[1]), atoi(m[2])) }},
	{re: reMonthYear, read: func(c timeClock, m []string) *TimeRange { return c.inMonth(m[0], atoi(m[2]), monthOf(m[1])) }},
	// A Chinese month and day without a year: the latest one that is not in the future.
	{re: reZHMD, read: func(c timeClock, m []string) *TimeRange {
		mo, d := atoi(m[1]), atoi(m[2])
		y := c.now.Year()
		if validDate(y, mo, d) && c.date(y, mo, d).After(c.now) {
			y--
		}
		return c.onDay(m[0], y, mo, d)
	}},

	{re: reDayBefore, read: func(c timeClock, m []string) *TimeRange { return c.daysBack(m[0], 2) }},
	literal(func(c timeClock, m []string) *TimeRange { return c.daysBack(m[0], 3) }, "大前天"),
	literal(func(c timeClock, m []string) *TimeRange { return c.daysBack(m[0], 2) }, "前天"),
	{re: reYesterday, read: func(c timeClock, m []string) *TimeRange { return c.daysBack(m[0], 1) }},
	literal(func(c timeClock, m []string) *TimeRange { return c.daysBack(m[0], 1) }, "昨天", "昨晚"),
	{re: reToday, read: func(c timeClock, m []string) *TimeRange { return c.daysBack(m[0], 0) }},
	literal(func(c timeClock, m []string) *TimeRange { return c.daysBack(m[0], 0) }, "今天", "今晚"),

	{re: reLastN, read: func(c timeClock, m []string) *TimeRange { return c.lastN(m[0], number(m[1]), strings.ToLower(m[2])) }},
	{re: reZHRecentN, read: func(c timeClock, m []string) *TimeRange { return c.lastN(m[0], number(m[1]), m[2]) }},
	{re: reNAgo, read: func(c timeClock, m []string) *TimeRange { return c.nAgo(m[0], number(m[1]), strings.ToLower(m[2])) }},
	{re: reZHNAgo, read: func(c timeClock, m []string) *TimeRange { return c.nAgo(m[0], number(m[1]), m[2]) }},

	{re: reLastWkEnd, read: func(c timeClock, m []string) *TimeRange { return rel(m[0], c.week.AddDate(0, 0, -2), c.week) }},
	{re: reZHLastWE, read: func(c timeClock, m []string) *TimeRange { return rel(m[0], c.week.AddDate(0, 0, -2), c.week) }},
	// The latest such weekday before today.
	{re: reLastWday, read: func(c timeClock, m []string) *TimeRange {
		want := weekdays[strings.ToLower(m[1])]
		d := c.today.AddDate(0, 0, -1)
		for d.Weekday() != want {
			d = d.AddDate(0, 0, -1)
		}
		return rel(m[0], d, d.AddDate(0, 0, 1))
	}},
	{re: reLastUnit, read: func(c timeClock, m []string) *TimeRange { return c.lastUnit(m[0], strings.ToLower(m[2])) }},
	{re: reThisUnit, read: func(c timeClock, m []string) *TimeRange { return c.thisUnit(m[0], strings.ToLower(m[1])) }},
	{re: reZHLastWeek, read: func(c timeClock, m []string) *TimeRange { return c.lastUnit(m[0], "week") }},
	{re: reZHThisWeek, read: func(c timeClock, m []string) *TimeRange { return c.thisUnit(m[0], "week") }},
	literal(func(c timeClock, m []string) *TimeRange { return c.lastUnit(m[0], "month") }, "上个月", "上月"),
	literal(func(c timeClock, m []string) *TimeRange { return c.thisUnit(m[0], "month") }, "这个月", "本月"),
	literal(func(c timeClock, m []string) *TimeRange {
		return rel(m[0], c.year.AddDate(-2, 0, 0), c.year.AddDate(-1, 0, 0))
	}, "前年"),
	literal(func(c timeClock, m []string) *TimeRange { return c.lastUnit(m[0], "year") }, "去年"),
	literal(func(c timeClock, m []string) *TimeRange { return c.thisUnit(m[0], "year") }, "今年"),

	{re: reZHY, read: func(c timeClock, m []string) *TimeRange { return c.inYear(m[0], atoi(m[1])) }},
	{re: reYear, prose: true, read: func(c timeClock, m []string) *TimeRange {
		ys := m[1]
		if ys == "" {
			ys = m[2]
		}
		return c.inYear(m[0], atoi(ys))
	}},
	{re: reMonthOnly, read: func(c timeClock, m []string) *TimeRange { return &TimeRange{Month: monthOf(m[1]), Expr: m[0]} }},
	{re: reZHMonth, read: func(c timeClock, m []string) *TimeRange {
		if mo := number(m[1]); mo >= 1 && mo <= 12 {
			return &TimeRange{Month: mo, Expr: m[0]}
		}
		return nil
	}},
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
