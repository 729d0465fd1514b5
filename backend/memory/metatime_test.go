package memory

import (
	"strings"
	"testing"
	"time"
)

// olderRow rewrites a memory's index times as the index-form text an older build writes.
func (e *env) olderRow(id, at string) {
	e.t.Helper()
	if _, err := e.s.db.ExecContext(e.ctx, `UPDATE memory_meta SET created = ?, updated = ? WHERE id = ?`, at, at, id); err != nil {
		e.t.Fatal(err)
	}
}

// newestFirst lists the index's ids newest first, as the Memory Index and the list order them.
func (e *env) newestFirst() []string {
	e.t.Helper()
	return columnOf(e.t, e.s.db, `SELECT id FROM memory_meta ORDER BY updated DESC`)
}

// Text times an older build left in memory_meta sort above every integer time: such a row is
// listed as the newest whatever its time. The next open (for rows whose updated is text) and a
// full reconcile (either column) turn them into metaTime, and the order is the times' again.
func TestOlderTimesAreNormalised(t *testing.T) {
	for _, via := range []string{"open", "reconcile"} {
		t.Run(via, func(t *testing.T) {
			e := newEnv(t)
			old := e.ok(wr("older", "Older", "written by an older build")).ID
			e.clock.Advance(48 * time.Hour)
			newer := e.ok(wr("newer", "Newer", "written by this build")).ID
			const at = "2024-05-14T10:30:00.123456789Z" // the older row's own time, before newer's
			e.olderRow(old, at)
			if via == "reconcile" {
				// Only created is text: the open's index range does not see it, the reconcile does.
				if _, err := e.s.db.ExecContext(e.ctx, `UPDATE memory_meta SET updated = ? WHERE id = ?`, time.Date(2024, 5, 14, 10, 30, 0, 123e6, time.UTC).UnixMilli(), old); err != nil {
					t.Fatal(err)
				}
				e.reconcile()
			} else {
				if got := e.newestFirst(); got[0] != old {
					t.Fatalf("the text row should sort first before the open normalises it: %v", got)
				}
				e.reopen()
			}
			if n := e.count(`SELECT count(*) FROM memory_meta WHERE typeof(created) != 'integer' OR typeof(updated) != 'integer'`); n != 0 {
				t.Fatalf("%d rows still hold text times", n)
			}
			if got := e.newestFirst(); got[0] != newer || got[1] != old {
				t.Fatalf("newest first = %v, want [%s %s]", got, newer, old)
			}
			want := time.Date(2024, 5, 14, 10, 30, 0, 123e6, time.UTC)
			if m := e.get(old); !m.Created.Equal(want) && !m.Created.Equal(want.Truncate(time.Second)) {
				t.Fatalf("created %v, want %v", m.Created, want)
			}
		})
	}
}

// The open's look for text times is an index range, not a scan of every row (bodies included).
func TestOlderTimesLookIsAnIndexRange(t *testing.T) {
	e := newEnv(t)
	plan := e.plan(`SELECT rid FROM memory_meta WHERE updated >= ''`)
	if !strings.Contains(plan, "memory_meta_updated") {
		t.Fatalf("the open's look does not use the updated index:\n%s", plan)
	}
}

// A text that is no time at all is reported, not read as the zero time.
func TestUnreadableIndexTimeIsAnError(t *testing.T) {
	var s metaStamp
	if err := s.Scan("not a time"); err == nil {
		t.Fatal("no error for an unreadable time")
	}
	if err := s.Scan("2024-05-14T10:30:00.000000000Z"); err != nil || !s.t.Equal(time.Date(2024, 5, 14, 10, 30, 0, 0, time.UTC)) {
		t.Fatalf("%v %v", s.t, err)
	}
}
