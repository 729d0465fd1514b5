package memory

import (
	"fmt"
	"testing"
	"time"
)

func TestLadderLevel(t *testing.T) {
	cases := []struct {
		headroom int
		want     string
	}{
		{500, LevelNormal}, {101, LevelNormal},
		{100, LevelNotice}, {51, LevelNotice},
		{50, LevelDegraded}, {21, LevelDegraded},
		{20, LevelCritical}, {6, LevelCritical},
		{5, LevelExhausted}, {1, LevelExhausted}, {0, LevelExhausted}, {-3, LevelExhausted},
	}
	for _, tc := range cases {
		if got := LadderLevel(tc.headroom); got != tc.want {
			t.Errorf("LadderLevel(%d) = %s, want %s", tc.headroom, got, tc.want)
		}
	}
}

// TestLadderThroughStore opens the same home (one memory) under different limits, so the
// headroom walks across every threshold.
func TestLadderThroughStore(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("only-one", "t", "b"))
	e.s.Close()
	for _, tc := range []struct {
		limit int
		want  string
	}{
		{DefaultQuotaLimit, LevelNormal}, {102, LevelNormal}, {101, LevelNotice}, {52, LevelNotice}, {51, LevelDegraded},
		{22, LevelDegraded}, {21, LevelCritical}, {7, LevelCritical}, {6, LevelExhausted},
	} {
		opts := e.opts
		opts.QuotaLimit = tc.limit
		s, err := Open(e.ctx, e.home, opts)
		if err != nil {
			t.Fatal(err)
		}
		q, err := s.Quota(e.ctx)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if q.Level != tc.want || q.Scopes[0].Headroom != tc.limit-1 || q.Scopes[0].Level != tc.want {
			t.Errorf("limit %d: level %s (scope %+v), want %s", tc.limit, q.Level, q.Scopes[0], tc.want)
		}
	}
	e.s = e.open()
}

func TestQuotaExhaustion(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.QuotaLimit = 20 })
	var events []Event
	cancel := e.s.Subscribe(func(ev Event) { events = append(events, ev) })
	defer cancel()

	var ids []string
	for i := 0; ; i++ {
		actor := ActorUser
		if i%3 == 0 {
			actor = ActorExtractor // unreviewed
		}
		r := e.batch(actor, wr(fmt.Sprintf("fill-%02d", i), "t", "body")).Results[0]
		if !r.OK {
			if r.Code != CodeQuotaExhausted {
				t.Fatalf("write %d: %s", i, r.Code)
			}
			// headroom before this write was 5: 15 entries made it.
			if i != 15 || r.Args["Used"] != 15 || r.Args["Limit"] != 20 {
				t.Fatalf("exhausted at write %d with args %v", i, r.Args)
			}
			break
		}
		// The warning counts the new memories that still fit: "Only 5 entries left" was
		// followed by the next write refused as the scope being full.
		switch w := quotaWarning(r); {
		case i < 14 && (w.Code != WarnQuotaLow || w.Args["Left"] != 14-i):
			t.Fatalf("write %d: warning %+v, want quota_low with %d left", i, w, 14-i)
		case i == 14 && (w.Code != WarnQuotaFull || w.Args["Left"] != 0):
			t.Fatalf("write %d (the last that fits): warning %+v, want quota_full", i, w)
		}
		ids = append(ids, r.ID)
		if i > 30 {
			t.Fatal("quota never ran out")
		}
		e.clock.Advance(time.Hour)
	}
	// updates still allowed; so is the journal (daily is excluded from quota) and another scope.
	e.ok(Item{Op: OpUpdate, ID: ids[0], Body: sp("still editable")})
	e.ok(Item{Op: OpAppendDaily, Text: "journal still works"})
	e.ok(Item{Op: OpWrite, Scope: ScopeAgent, Agent: "claude", Type: TypeUser, Slug: "agent-note", Title: sp("t"), Body: sp("b")})
	// a whole batch of new writes fails item by item, nothing evicted.
	res := e.batch(ActorUser, wr("more-one", "t", "b"), wr("more-two", "t", "b"))
	if res.Applied != 0 || res.Results[1].Code != CodeQuotaExhausted {
		t.Fatalf("batch at exhaustion: %+v", res)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_meta WHERE scope = 'global' AND type <> 'daily' AND archived = 0`); n != 15 {
		t.Fatalf("%d live global entries, want 15 (nothing evicted)", n)
	}

	e.clock.Advance(26 * time.Hour) // oldest unreviewed (fill-00) is now 15h+26h = 41h old
	q, err := e.s.Quota(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if q.Level != LevelExhausted {
		t.Fatalf("summary level %s", q.Level)
	}
	var g, a *ScopeQuota
	for i := range q.Scopes {
		switch q.Scopes[i].Scope {
		case ScopeGlobal:
			g = &q.Scopes[i]
		case ScopeAgent:
			a = &q.Scopes[i]
		}
	}
	if g == nil || a == nil {
		t.Fatalf("scopes %+v", q.Scopes)
	}
	// fill-00,03,06,09,12 were written by the extractor.
	if g.Used != 15 || g.Limit != 20 || g.Headroom != 5 || g.Level != LevelExhausted || g.Unreviewed != 5 || g.OldestUnreviewedDays != 1 {
		t.Fatalf("global quota %+v", *g)
	}
	if a.Used != 1 || a.Agent != "claude" || a.Level != LevelCritical || a.Unreviewed != 0 || a.OldestUnreviewedDays != 0 {
		t.Fatalf("agent quota %+v", *a)
	}
	// accepting the oldest unreviewed moves oldest_unreviewed_days to the next one.
	e.ok(Item{Op: OpAccept, ID: ids[0]})
	e.clock.Advance(5 * 24 * time.Hour)
	if g := globalQuota(t, e); g.Unreviewed != 4 || g.OldestUnreviewedDays != 6 {
		t.Fatalf("after accept: %+v", g)
	}

	// archiving one frees room: headroom 6 → critical → writes allowed again.
	e.ok(Item{Op: OpArchive, ID: ids[1]})
	if g := globalQuota(t, e); g.Used != 14 || g.Archived != 1 || g.Headroom != 6 || g.Level != LevelCritical {
		t.Fatalf("after archive: %+v", g)
	}
	e.ok(wr("after-archive", "t", "b"))
	e.wantCode(wr("one-too-many", "t", "b"), CodeQuotaExhausted)
	// deleting frees room too.
	e.ok(Item{Op: OpDelete, ID: ids[2]})
	e.ok(wr("after-delete", "t", "b"))

	var levels []string
	for _, ev := range events {
		if ev.Kind == "quota.changed" {
			levels = append(levels, ev.Level)
		}
	}
	if len(levels) < 3 || levels[len(levels)-1] != LevelExhausted {
		t.Fatalf("quota.changed events %v", levels)
	}
}

func TestQuotaEmptyHomeListsGlobal(t *testing.T) {
	e := newEnv(t)
	q, err := e.s.Quota(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if q.Level != LevelNormal || len(q.Scopes) != 1 || q.Scopes[0].Scope != ScopeGlobal || q.Scopes[0].Headroom != DefaultQuotaLimit {
		t.Fatalf("empty home quota %+v", q)
	}
	e.ok(Item{Op: OpAppendDaily, Text: "daily entries do not count"})
	if g := globalQuota(t, e); g.Used != 0 {
		t.Fatalf("daily counted: %+v", g)
	}
}

func globalQuota(t *testing.T, e *env) ScopeQuota {
	t.Helper()
	q, err := e.s.Quota(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, sq := range q.Scopes {
		if sq.Scope == ScopeGlobal {
			return sq
		}
	}
	t.Fatalf("no global scope in %+v", q)
	return ScopeQuota{}
}

// quotaWarning is r's quota warning (zero when it has none).
func quotaWarning(r ItemResult) Warning {
	for _, w := range r.Warnings {
		if w.Code == WarnQuotaLow || w.Code == WarnQuotaFull {
			return w
		}
	}
	return Warning{}
}
