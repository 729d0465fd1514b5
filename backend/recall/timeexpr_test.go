package recall

import (
	"fmt"
	"testing"
	"time"
)

// describeRange renders a parsed range for table comparison.
func describeRange(r *TimeRange) string {
	switch {
	case r == nil:
		return "none"
	case r.Month != 0:
		return fmt.Sprintf("month %d %q", r.Month, r.Expr)
	}
	kind := "abs"
	if r.Relative {
		kind = "rel"
	}
	return fmt.Sprintf("%s %s..%s %q", kind, r.From.Format(time.DateOnly), r.To.Format(time.DateOnly), r.Expr)
}

// TestParseTimePatterns walks the pattern table in order: each expression, the period it names
// on Wednesday 15 May 2024, and which pattern wins when an earlier one fails to validate (a
// 30 February, a zero count) or a more specific one is present.
func TestParseTimePatterns(t *testing.T) {
	now := time.Date(2024, 5, 15, 15, 0, 0, 0, time.UTC)
	cases := []struct {
		q, want string
		// code is the answer for a code query when it differs (bare years are not dates there).
		code string
	}{
		{"2023-07-04 release", "abs 2023-07-04..2023-07-05 \"2023-07-04\"", ""},
		{"2023/7/4", "abs 2023-07-04..2023-07-05 \"2023/7/4\"", ""},
		{"2023.02.30 is not a day", "none", ""},
		{"2023-02-30 then 2023年5月8日", "abs 2023-05-08..2023-05-09 \"2023年5月8日\"", ""},
		{"2023年5月8日的会议", "abs 2023-05-08..2023-05-09 \"2023年5月8日\"", ""},
		{"2023年5月8号", "abs 2023-05-08..2023-05-09 \"2023年5月8号\"", ""},
		{"2023年13月8日 and 5 May, 2022", "abs 2022-05-05..2022-05-06 \"5 May, 2022\"", ""},
		{"25 May, 2022", "abs 2022-05-25..2022-05-26 \"25 May, 2022\"", ""},
		{"the 3rd of March 2021", "abs 2021-03-03..2021-03-04 \"3rd of March 2021\"", ""},
		{"on October 13, 2023", "abs 2023-10-13..2023-10-14 \"October 13, 2023\"", ""},
		{"Sept. 3rd 2022", "abs 2022-09-03..2022-09-04 \"Sept. 3rd 2022\"", ""},
		{"Jan 5 2020", "abs 2020-01-05..2020-01-06 \"Jan 5 2020\"", ""},
		{"2023年5月", "abs 2023-05-01..2023-06-01 \"2023年5月\"", ""},
		{"in May 2022", "abs 2022-05-01..2022-06-01 \"May 2022\"", ""},
		{"May, of 2022", "abs 2022-05-01..2022-06-01 \"May, of 2022\"", ""},
		{"5月8日", "abs 2024-05-08..2024-05-09 \"5月8日\"", ""},
		{"12月25日", "abs 2023-12-25..2023-12-26 \"12月25日\"", ""},
		{"2月30日", "month 2 \"2月\"", ""},
		{"the day before yesterday", "rel 2024-05-13..2024-05-14 \"the day before yesterday\"", ""},
		{"大前天", "rel 2024-05-12..2024-05-13 \"大前天\"", ""},
		{"前天", "rel 2024-05-13..2024-05-14 \"前天\"", ""},
		{"yesterday", "rel 2024-05-14..2024-05-15 \"yesterday\"", ""},
		{"last night", "rel 2024-05-14..2024-05-15 \"last night\"", ""},
		{"昨天", "rel 2024-05-14..2024-05-15 \"昨天\"", ""},
		{"昨晚的事", "rel 2024-05-14..2024-05-15 \"昨天\"", ""},
		{"today", "rel 2024-05-15..2024-05-16 \"today\"", ""},
		{"this morning", "rel 2024-05-15..2024-05-16 \"this morning\"", ""},
		{"今天", "rel 2024-05-15..2024-05-16 \"今天\"", ""},
		{"今晚", "rel 2024-05-15..2024-05-16 \"今天\"", ""},
		{"last 3 days", "rel 2024-05-12..2024-05-16 \"last 3 days\"", ""},
		{"past few weeks", "rel 2024-04-24..2024-05-16 \"past few weeks\"", ""},
		{"previous couple of months", "rel 2024-03-15..2024-05-16 \"previous couple of months\"", ""},
		{"last two years", "rel 2022-05-15..2024-05-16 \"last two years\"", ""},
		{"last 0 days", "none", ""},
		{"最近7天", "rel 2024-05-08..2024-05-16 \"最近7天\"", ""},
		{"过去两周", "rel 2024-05-01..2024-05-16 \"过去两周\"", ""},
		{"近三个月", "rel 2024-02-15..2024-05-16 \"近三个月\"", ""},
		{"最近几年", "rel 2021-05-15..2024-05-16 \"最近几年\"", ""},
		{"3 days ago", "rel 2024-05-12..2024-05-13 \"3 days ago\"", ""},
		{"a week ago", "rel 2024-05-05..2024-05-12 \"a week ago\"", ""},
		{"two months ago", "rel 2024-03-01..2024-04-01 \"two months ago\"", ""},
		{"a couple of years ago", "rel 2022-01-01..2023-01-01 \"a couple of years ago\"", ""},
		{"0 days ago", "none", ""},
		{"三天前", "rel 2024-05-12..2024-05-13 \"三天前\"", ""},
		{"两个星期之前", "rel 2024-04-28..2024-05-05 \"两个星期之前\"", ""},
		{"五个月以前", "rel 2023-12-01..2024-01-01 \"五个月以前\"", ""},
		{"十年前", "rel 2014-01-01..2015-01-01 \"十年前\"", ""},
		{"last weekend", "rel 2024-05-11..2024-05-13 \"last weekend\"", ""},
		{"上周末", "rel 2024-05-11..2024-05-13 \"上周末\"", ""},
		{"上个周末", "rel 2024-05-11..2024-05-13 \"上个周末\"", ""},
		{"last Friday", "rel 2024-05-10..2024-05-11 \"last Friday\"", ""},
		{"last sunday", "rel 2024-05-12..2024-05-13 \"last sunday\"", ""},
		{"last week", "rel 2024-05-06..2024-05-13 \"last week\"", ""},
		{"previous month", "rel 2024-04-01..2024-05-01 \"previous month\"", ""},
		{"past year", "rel 2023-01-01..2024-01-01 \"past year\"", ""},
		{"this week", "rel 2024-05-13..2024-05-20 \"this week\"", ""},
		{"this month", "rel 2024-05-01..2024-06-01 \"this month\"", ""},
		{"this year", "rel 2024-01-01..2025-01-01 \"this year\"", ""},
		{"上周的会议", "rel 2024-05-06..2024-05-13 \"上周\"", ""},
		{"上个星期", "rel 2024-05-06..2024-05-13 \"上个星期\"", ""},
		{"这周", "rel 2024-05-13..2024-05-20 \"这周\"", ""},
		{"本星期", "rel 2024-05-13..2024-05-20 \"本星期\"", ""},
		{"上个月买了什么", "rel 2024-04-01..2024-05-01 \"上个月\"", ""},
		{"上月", "rel 2024-04-01..2024-05-01 \"上个月\"", ""},
		{"这个月", "rel 2024-05-01..2024-06-01 \"这个月\"", ""},
		{"本月", "rel 2024-05-01..2024-06-01 \"这个月\"", ""},
		{"前年", "rel 2022-01-01..2023-01-01 \"前年\"", ""},
		{"去年的计划", "rel 2023-01-01..2024-01-01 \"去年\"", ""},
		{"今年", "rel 2024-01-01..2025-01-01 \"今年\"", ""},
		{"2021年", "abs 2021-01-01..2022-01-01 \"2021年\"", ""},
		{"in 2021", "abs 2021-01-01..2022-01-01 \"in 2021\"", "none"},
		{"during 1999", "abs 1999-01-01..2000-01-01 \"during 1999\"", "none"},
		{"what happened in 2021", "abs 2021-01-01..2022-01-01 \"in 2021\"", "none"},
		{"go 2024", "abs 2024-01-01..2025-01-01 \"2024\"", "none"},
		{"upgrade to go 2024", "abs 2024-01-01..2025-01-01 \"2024\"", "none"},
		{"version 2024 notes", "none", ""},
		{"in June", "month 6 \"in June\"", ""},
		{"last december", "month 12 \"last december\"", ""},
		{"early may", "month 5 \"early may\"", ""},
		{"camping in June", "month 6 \"in June\"", ""},
		{"三月份", "month 3 \"三月份\"", ""},
		{"12月", "month 12 \"12月\"", ""},
		{"十二月", "month 12 \"十二月\"", ""},
		{"13月", "none", ""},
		{"what is my favourite tea", "none", ""},
		{"yesterday in 2021", "rel 2024-05-14..2024-05-15 \"yesterday\"", ""},
		{"last week on 2023-07-04", "abs 2023-07-04..2023-07-05 \"2023-07-04\"", ""},
	}
	for _, c := range cases {
		if got := describeRange(ParseTime(c.q, now, time.UTC, false)); got != c.want {
			t.Errorf("%q: %s, want %s", c.q, got, c.want)
		}
		want := c.want
		if c.code != "" {
			want = c.code
		}
		if got := describeRange(ParseTime(c.q, now, time.UTC, true)); got != want {
			t.Errorf("%q (code): %s, want %s", c.q, got, want)
		}
	}
}

// TestParseTimeLocation reads periods in the store's location, not the clock's: 23:30 UTC on
// 14 May is already the 15th in Shanghai.
func TestParseTimeLocation(t *testing.T) {
	sh := time.FixedZone("CST", 8*3600)
	now := time.Date(2024, 5, 14, 23, 30, 0, 0, time.UTC)
	r := ParseTime("yesterday", now, sh, false)
	if r == nil || !r.From.Equal(time.Date(2024, 5, 14, 0, 0, 0, 0, sh)) || !r.To.Equal(time.Date(2024, 5, 15, 0, 0, 0, 0, sh)) {
		t.Fatalf("yesterday in Shanghai: %+v", r)
	}
	if r := ParseTime("昨天", now, nil, false); r == nil || r.From.Location() != time.Local {
		t.Fatalf("a nil location is the local one: %+v", r)
	}
}

// TestNearLeansAfter: a note about a period is written during it or after it, so the window a
// named date boosts reaches lead before it and lag after it — a year's month and a month
// without a year alike.
func TestNearLeansAfter(t *testing.T) {
	day := 24 * time.Hour
	july := &TimeRange{From: time.Date(2022, 7, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2022, 8, 1, 0, 0, 0, 0, time.UTC)}
	anyJuly := &TimeRange{Month: 7}
	for _, c := range []struct {
		created   time.Time
		lead, lag time.Duration
		want      bool
	}{
		{time.Date(2022, 7, 15, 12, 0, 0, 0, time.UTC), 0, 8 * day, true},
		{time.Date(2022, 6, 28, 12, 0, 0, 0, time.UTC), 0, 8 * day, false}, // before it: not boosted
		{time.Date(2022, 6, 28, 12, 0, 0, 0, time.UTC), 8 * day, 8 * day, true},
		{time.Date(2022, 8, 6, 12, 0, 0, 0, time.UTC), 0, 8 * day, true}, // a few days after: told then
		{time.Date(2022, 8, 20, 12, 0, 0, 0, time.UTC), 0, 8 * day, false},
	} {
		for _, r := range []*TimeRange{july, anyJuly} {
			if got := r.Near(c.created, c.lead, c.lag, time.UTC); got != c.want {
				t.Errorf("%+v near %s (lead %s, lag %s) = %v, want %v", *r, c.created.Format(time.DateOnly), c.lead, c.lag, got, c.want)
			}
		}
	}
}
