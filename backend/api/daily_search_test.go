package api

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

// A search for "today" or "yesterday" before 04:00 counts from the journal's today (the day
// rolls over at 04:00): at 02:00 "today" found the calendar's day, which has no entries yet,
// and "yesterday" found the day still being written. A date typed in full-width digits (a
// Chinese input method) is read as a date too.
func TestDailySearchCountsFromTheJournalsToday(t *testing.T) {
	j := newJournalAPIs(t)
	for _, d := range []int{5, 6, 7} {
		j.at(time.Date(2026, 12, d, 10, 0, 0, 0, time.UTC))
		if _, err := j.user.Daily.Append(AppendParams{Text: "Entry of the day."}); err != nil {
			t.Fatal(err)
		}
	}
	j.at(time.Date(2026, 12, 8, 2, 0, 0, 0, time.UTC)) // the journal is still writing 12-07
	if r, err := j.user.Daily.Read(DayParams{}); err != nil || r.Today != "2026-12-07" {
		t.Fatalf("today = %q, %v", r.Today, err)
	}
	cases := []struct{ q, want string }{
		{"today", "2026-12-07"},
		{"今天", "2026-12-07"},
		{"yesterday", "2026-12-06"},
		{"昨天", "2026-12-06"},
		{"前天", "2026-12-05"},
		{"１２月７日", "2026-12-07"},
		{"１２／６", "2026-12-06"},
		{"２０２６－１２－０５", "2026-12-05"},
		{"12月7日", "2026-12-07"},
		{"7 Dec", "2026-12-07"},
	}
	for _, c := range cases {
		res, err := j.user.Daily.Search(DaySearchParams{Query: c.q})
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		var got []string
		for _, d := range res.Days {
			got = append(got, d.Date)
		}
		if strings.Join(got, ",") != c.want || (len(res.Days) > 0 && !res.Days[0].ByDate) {
			t.Errorf("search %q at 02:00 = %v (%+v), want %s", c.q, got, res.Days, c.want)
		}
	}
}

// A person's entry that does not fit today's journal is refused with advice they can follow in
// both languages: it said "add it to another day", and every append goes to today.
func TestDailyFullSaysWhatThePersonCanDo(t *testing.T) {
	j := newJournalAPIs(t)
	for _, tc := range []struct{ lang, want, not string }{
		{"en", "04:00", "another day"},
		{"zh-CN", "04:00", "另一天"},
	} {
		if _, err := j.user.Call("settings.update", json.RawMessage(`{"language":"`+tc.lang+`"}`)); err != nil {
			t.Fatal(err)
		}
		_, err := j.user.Daily.Append(AppendParams{Text: strings.Repeat("x", 40<<10)})
		var ae *Error
		if !errors.As(err, &ae) || ae.Code != memory.CodeDailyFull || !strings.Contains(ae.Message, tc.want) || strings.Contains(ae.Message, tc.not) {
			t.Errorf("%s: %v", tc.lang, err)
		}
	}
}
