package recall

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"engram/backend/memory"
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

// Near reports whether t falls in the range widened by slack on both sides.
func (r *TimeRange) Near(t time.Time, slack time.Duration, loc *time.Location) bool {
	if r == nil || t.IsZero() {
		return false
	}
	if r.Month != 0 {
		lt := t.In(loc)
		for _, d := range []time.Time{lt, lt.Add(slack), lt.Add(-slack)} {
			if int(d.Month()) == r.Month {
				return true
			}
		}
		return false
	}
	return !t.Before(r.From.Add(-slack)) && t.Before(r.To.Add(slack))
}

const monthAlt = `(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

var (
	reISODate   = regexp.MustCompile(`\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b`)
	reDayMonthY = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthAlt + `\.?,?\s+(\d{4})\b`)
	reMonthDayY = regexp.MustCompile(`(?i)\b` + monthAlt + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	reMonthYear = regexp.MustCompile(`(?i)\b` + monthAlt + `\.?,?\s+(?:of\s+)?(\d{4})\b`)
	reYear      = regexp.MustCompile(`(?i)\b(?:in|during|since|of|from|year|before|after)\s+((?:19|20)\d\d)\b|\b((?:19|20)\d\d)\s*$`)
	reMonthOnly = regexp.MustCompile(`(?i)\b(?:in|during|since|last|this|early|late|mid)[\s-]+(january|february|march|april|may|june|july|august|september|october|november|december)\b`)

	reToday     = regexp.MustCompile(`(?i)\b(today|tonight|this (morning|afternoon|evening))\b`)
	reYesterday = regexp.MustCompile(`(?i)\b(yesterday|last night)\b`)
	reDayBefore = regexp.MustCompile(`(?i)\bthe day before yesterday\b`)
	reThisUnit  = regexp.MustCompile(`(?i)\bthis (week|month|year)\b`)
	reLastUnit  = regexp.MustCompile(`(?i)\b(last|previous|past) (week|month|year)\b`)
	reLastWkEnd = regexp.MustCompile(`(?i)\blast weekend\b`)
	reLastN     = regexp.MustCompile(`(?i)\b(?:last|past|previous) (\d+|two|three|four|five|six|seven|eight|nine|ten|few|couple of) (days?|weeks?|months?|years?)\b`)
	reNAgo      = regexp.MustCompile(`(?i)\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of) (days?|weeks?|months?|years?) ago\b`)
	reLastWday  = regexp.MustCompile(`(?i)\blast (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)

	reZHYMD      = regexp.MustCompile(`(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]`)
	reZHYM       = regexp.MustCompile(`(\d{4})\s*年\s*(\d{1,2})\s*月`)
	reZHMD       = regexp.MustCompile(`(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]`)
	reZHY        = regexp.MustCompile(`(\d{4})\s*年`)
	reZHMonth    = regexp.MustCompile(`([一二三四五六七八九十]{1,3}|\d{1,2})\s*月份?`)
	reZHRecentN  = regexp.MustCompile(`(?:最近|过去|近)\s*([0-9一二两三四五六七八九十几]+)\s*(天|日|周|个星期|星期|个月|月|年)`)
	reZHNAgo     = regexp.MustCompile(`([0-9一二两三四五六七八九十几]+)\s*(天|日|周|个星期|星期|个月|年)(?:前|之前|以前)`)
	reZHLastWE   = regexp.MustCompile(`上(?:个)?周末`)
	reZHLastWeek = regexp.MustCompile(`上(?:个)?(?:周|星期|礼拜)`)
	reZHThisWeek = regexp.MustCompile(`(?:本|这)(?:个)?(?:周|星期|礼拜)`)
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
// it names, relative to now in loc; nil when there is none. In code queries bare years are not
// read as dates (they are more likely versions or numbers).
func ParseTime(q string, now time.Time, loc *time.Location, code bool) *TimeRange {
	if loc == nil {
		loc = time.Local
	}
	now = now.In(loc)
	today := day(now)
	rel := func(expr string, from, to time.Time) *TimeRange {
		return &TimeRange{From: from, To: to, Expr: expr, Relative: true}
	}
	abs := func(expr string, from, to time.Time) *TimeRange {
		return &TimeRange{From: from, To: to, Expr: expr}
	}
	date := func(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, loc) }

	// Absolute dates, most specific first.
	if m := reISODate.FindStringSubmatch(q); m != nil {
		y, mo, d := atoi(m[1]), atoi(m[2]), atoi(m[3])
		if validDate(y, mo, d) {
			return abs(m[0], date(y, mo, d), date(y, mo, d).AddDate(0, 0, 1))
		}
	}
	if m := reZHYMD.FindStringSubmatch(q); m != nil {
		y, mo, d := atoi(m[1]), atoi(m[2]), atoi(m[3])
		if validDate(y, mo, d) {
			return abs(m[0], date(y, mo, d), date(y, mo, d).AddDate(0, 0, 1))
		}
	}
	if m := reDayMonthY.FindStringSubmatch(q); m != nil {
		y, mo, d := atoi(m[3]), monthOf(m[2]), atoi(m[1])
		if validDate(y, mo, d) {
			return abs(m[0], date(y, mo, d), date(y, mo, d).AddDate(0, 0, 1))
		}
	}
	if m := reMonthDayY.FindStringSubmatch(q); m != nil {
		y, mo, d := atoi(m[3]), monthOf(m[1]), atoi(m[2])
		if validDate(y, mo, d) {
			return abs(m[0], date(y, mo, d), date(y, mo, d).AddDate(0, 0, 1))
		}
	}
	if m := reZHYM.FindStringSubmatch(q); m != nil {
		y, mo := atoi(m[1]), atoi(m[2])
		if validDate(y, mo, 1) {
			return abs(m[0], date(y, mo, 1), date(y, mo, 1).AddDate(0, 1, 0))
		}
	}
	if m := reMonthYear.FindStringSubmatch(q); m != nil {
		y, mo := atoi(m[2]), monthOf(m[1])
		if validDate(y, mo, 1) {
			return abs(m[0], date(y, mo, 1), date(y, mo, 1).AddDate(0, 1, 0))
		}
	}
	if m := reZHMD.FindStringSubmatch(q); m != nil {
		mo, d := atoi(m[1]), atoi(m[2])
		y := now.Year()
		if validDate(y, mo, d) && date(y, mo, d).After(now) {
			y--
		}
		if validDate(y, mo, d) {
			return abs(m[0], date(y, mo, d), date(y, mo, d).AddDate(0, 0, 1))
		}
	}
	// Relative periods.
	switch {
	case reDayBefore.MatchString(q):
		return rel(reDayBefore.FindString(q), today.AddDate(0, 0, -2), today.AddDate(0, 0, -1))
	case strings.Contains(q, "大前天"):
		return rel("大前天", today.AddDate(0, 0, -3), today.AddDate(0, 0, -2))
	case strings.Contains(q, "前天"):
		return rel("前天", today.AddDate(0, 0, -2), today.AddDate(0, 0, -1))
	case reYesterday.MatchString(q):
		return rel(reYesterday.FindString(q), today.AddDate(0, 0, -1), today)
	case strings.Contains(q, "昨天") || strings.Contains(q, "昨晚"):
		return rel("昨天", today.AddDate(0, 0, -1), today)
	case reToday.MatchString(q):
		return rel(reToday.FindString(q), today, today.AddDate(0, 0, 1))
	case strings.Contains(q, "今天") || strings.Contains(q, "今晚"):
		return rel("今天", today, today.AddDate(0, 0, 1))
	}
	if m := reLastN.FindStringSubmatch(q); m != nil {
		if n := number(m[1]); n > 0 {
			back, _, _ := unitBack(now, n, strings.ToLower(m[2]))
			return rel(m[0], back, today.AddDate(0, 0, 1))
		}
	}
	if m := reZHRecentN.FindStringSubmatch(q); m != nil {
		if n := number(m[1]); n > 0 {
			back, _, _ := unitBack(now, n, m[2])
			return rel(m[0], back, today.AddDate(0, 0, 1))
		}
	}
	if m := reNAgo.FindStringSubmatch(q); m != nil {
		if n := number(m[1]); n > 0 {
			_, from, to := unitBack(now, n, strings.ToLower(m[2]))
			return rel(m[0], from, to)
		}
	}
	if m := reZHNAgo.FindStringSubmatch(q); m != nil {
		if n := number(m[1]); n > 0 {
			_, from, to := unitBack(now, n, m[2])
			return rel(m[0], from, to)
		}
	}
	ws := weekStart(now)
	monthStart := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc)
	yearStart := time.Date(now.Year(), 1, 1, 0, 0, 0, 0, loc)
	if m := reLastWkEnd.FindString(q); m != "" {
		return rel(m, ws.AddDate(0, 0, -2), ws)
	}
	if reZHLastWE.MatchString(q) {
		return rel(reZHLastWE.FindString(q), ws.AddDate(0, 0, -2), ws)
	}
	if m := reLastWday.FindStringSubmatch(q); m != nil {
		want := map[string]time.Weekday{"sunday": 0, "monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4,
			"friday": 5, "saturday": 6}[strings.ToLower(m[1])]
		d := today.AddDate(0, 0, -1)
		for d.Weekday() != want {
			d = d.AddDate(0, 0, -1)
		}
		return rel(m[0], d, d.AddDate(0, 0, 1))
	}
	if m := reLastUnit.FindStringSubmatch(q); m != nil {
		switch strings.ToLower(m[2]) {
		case "week":
			return rel(m[0], ws.AddDate(0, 0, -7), ws)
		case "month":
			return rel(m[0], monthStart.AddDate(0, -1, 0), monthStart)
		default:
			return rel(m[0], yearStart.AddDate(-1, 0, 0), yearStart)
		}
	}
	if m := reThisUnit.FindStringSubmatch(q); m != nil {
		switch strings.ToLower(m[1]) {
		case "week":
			return rel(m[0], ws, ws.AddDate(0, 0, 7))
		case "month":
			return rel(m[0], monthStart, monthStart.AddDate(0, 1, 0))
		default:
			return rel(m[0], yearStart, yearStart.AddDate(1, 0, 0))
		}
	}
	switch {
	case reZHLastWeek.MatchString(q):
		return rel(reZHLastWeek.FindString(q), ws.AddDate(0, 0, -7), ws)
	case reZHThisWeek.MatchString(q):
		return rel(reZHThisWeek.FindString(q), ws, ws.AddDate(0, 0, 7))
	case strings.Contains(q, "上个月") || strings.Contains(q, "上月"):
		return rel("上个月", monthStart.AddDate(0, -1, 0), monthStart)
	case strings.Contains(q, "这个月") || strings.Contains(q, "本月"):
		return rel("这个月", monthStart, monthStart.AddDate(0, 1, 0))
	case strings.Contains(q, "前年"):
		return rel("前年", yearStart.AddDate(-2, 0, 0), yearStart.AddDate(-1, 0, 0))
	case strings.Contains(q, "去年"):
		return rel("去年", yearStart.AddDate(-1, 0, 0), yearStart)
	case strings.Contains(q, "今年"):
		return rel("今年", yearStart, yearStart.AddDate(1, 0, 0))
	}
	// Years and yearless months last: they are the least specific.
	if m := reZHY.FindStringSubmatch(q); m != nil {
		y := atoi(m[1])
		if validDate(y, 1, 1) {
			return abs(m[0], date(y, 1, 1), date(y+1, 1, 1))
		}
	}
	if !code {
		if m := reYear.FindStringSubmatch(q); m != nil {
			ys := m[1]
			if ys == "" {
				ys = m[2]
			}
			if y := atoi(ys); validDate(y, 1, 1) {
				return abs(m[0], date(y, 1, 1), date(y+1, 1, 1))
			}
		}
	}
	if m := reMonthOnly.FindStringSubmatch(q); m != nil {
		return &TimeRange{Month: monthOf(m[1]), Expr: m[0]}
	}
	if m := reZHMonth.FindStringSubmatch(q); m != nil {
		if mo := number(m[1]); mo >= 1 && mo <= 12 {
			return &TimeRange{Month: mo, Expr: m[0]}
		}
	}
	return nil
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
