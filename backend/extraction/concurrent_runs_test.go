package extraction

import (
	"context"
	"fmt"
	"testing"
	"time"

	"engram/backend/memory"
	"engram/backend/settings"
)

// heldPlanner plans with the offline extractor, says so on planned, and hands its plan back
// only once released: two processes that both planned from the home as it was before either
// applied, in an order the test chooses (no timing involved).
type heldPlanner struct {
	planned chan struct{}
	release chan struct{}
}

func newHeldPlanner() *heldPlanner {
	return &heldPlanner{planned: make(chan struct{}, 1), release: make(chan struct{})}
}

func (h *heldPlanner) Plan(ctx context.Context, in Input) (Outcome, error) {
	out, err := NewOffline().Plan(ctx, in)
	h.planned <- struct{}{}
	select {
	case <-h.release:
	case <-ctx.Done():
		return out, ctx.Err()
	}
	return out, err
}

// secondProcess is another process on the fixture's home: its own store open and its own
// controller, sharing nothing with the fixture's but the files and the index.
func (f *fx) secondProcess(p Planner) *Service {
	f.t.Helper()
	st, err := memory.Open(f.ctx, f.home, memory.Options{Now: f.clock.Now, Location: time.UTC, Logger: quiet})
	if err != nil {
		f.t.Fatal(err)
	}
	svc := New(f.ctx, Options{Store: st, Planner: p, Now: f.clock.Now, Logger: quiet,
		Catalog: testCatalog(f.t), Settings: settings.New(st, "en")})
	f.t.Cleanup(func() {
		svc.Close()
		st.Close()
	})
	return svc
}

// TestConcurrentRunsOfOneSession: two hook runs of one session handed to two processes at
// once (the agent ran its hook twice quickly, or the detached rerun overlapped the next
// turn's hook) both planned before either applied, so both planned a write of the same slug,
// and the one that applied second was refused as already_exists: its turn was lost (a move to
// Berlin never reached user-location) and its run reported the refusal. Within one process
// the session's runs are serialised and the second sees the first's memory. Now the second
// settles as the serial order would have: the same record is already done, a newer turn's
// record stays, an older turn's record is updated.
func TestConcurrentRunsOfOneSession(t *testing.T) {
	cases := []struct {
		name                 string
		first, second        string // the person's words of the first and second turn
		secondAppliesFirst   bool
		want                 string // user-location's title at the end
		wantFirst, wantSecnd string // each run's action on user-location
	}{
		{"older turn applies first", "I live in Paris.", "Actually I moved to Berlin.", false, "Based in Berlin", ActionWrite, ActionUpdate},
		{"newer turn applies first", "I live in Paris.", "Actually I moved to Berlin.", true, "Based in Berlin", ActionWrite, ActionWrite},
		{"the same words twice", "I live in Paris.", "I live in Paris.", false, "Based in Paris", ActionWrite, ActionWrite},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pa, pb := newHeldPlanner(), newHeldPlanner()
			f := newFx(t, pa)
			other := f.secondProcess(pb)
			reqA := Request{SessionID: "s1", Agent: "claude-code", SessionTurn: 1,
				Messages: []Message{{Role: "user", Content: c.first, ID: "u1"}}}
			reqB := Request{SessionID: "s1", Agent: "claude-code", SessionTurn: 3,
				Messages: []Message{{Role: "user", Content: c.second, ID: "u3"}}}
			type ended struct {
				d   RunDetail
				err error
			}
			doneA, doneB := make(chan ended, 1), make(chan ended, 1)
			go func() {
				d, err := f.svc.Request(f.ctx, reqA, true)
				doneA <- ended{d, err}
			}()
			<-pa.planned
			// The second process passes its gates on its own (past the interval since the first
			// run started), and plans from the home as it is: user-location does not exist yet.
			f.clock.Advance(31 * time.Second)
			go func() {
				d, err := other.Request(f.ctx, reqB, true)
				doneB <- ended{d, err}
			}()
			<-pb.planned
			first, second := pa, pb
			firstDone, secondDone := doneA, doneB
			if c.secondAppliesFirst {
				first, second, firstDone, secondDone = pb, pa, doneB, doneA
			}
			close(first.release)
			e1 := <-firstDone
			close(second.release)
			e2 := <-secondDone
			runs := map[*heldPlanner]ended{first: e1, second: e2}
			for name, p := range map[string]*heldPlanner{"first turn": pa, "second turn": pb} {
				e := runs[p]
				if e.err != nil || e.d.Status != StatusDone || len(e.d.Report.Rejected) > 0 {
					t.Errorf("%s: %v %s %s, refused %+v", name, e.err, e.d.Status, e.d.Reason, e.d.Report.Rejected)
				}
			}
			for name, want := range map[string]struct {
				p      *heldPlanner
				action string
			}{"first turn": {pa, c.wantFirst}, "second turn": {pb, c.wantSecnd}} {
				d := runs[want.p].d
				if len(d.Report.Applied) != 1 || d.Report.Applied[0].Slug != "user-location" || d.Report.Applied[0].Action != want.action {
					t.Errorf("%s applied %+v, want one %s of user-location", name, d.Report.Applied, want.action)
				}
			}
			ms, _, err := f.store.List(f.ctx, memory.Filter{Scope: memory.ScopeGlobal})
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) != 1 || ms[0].Slug != "user-location" || ms[0].Title != c.want {
				for _, m := range ms {
					t.Logf("%s %q", m.Slug, m.Title)
				}
				t.Fatalf("%d memories, want user-location %q alone", len(ms), c.want)
			}
		})
	}
}

// TestThreeConcurrentRunsKeepTheNewestTurn: three runs of one session planned before any
// applied, and applied in the order turns 1, 3, 2. Turn 3 settles as an update of turn 1's
// memory; that update used to drop its source, so the memory kept turn 1 as its source, and
// turn 2, comparing against that stale turn, overwrote turn 3's newer fact with its older
// one. The serial order (1, 2, 3) ends on turn 3's fact, and so must this one, with turn 3
// recorded as the memory's source.
func TestThreeConcurrentRunsKeepTheNewestTurn(t *testing.T) {
	turns := []struct {
		turn  int
		words string
	}{{1, "I live in Paris."}, {2, "Actually I moved to Lisbon."}, {3, "Actually I moved to Berlin."}}
	planners := map[int]*heldPlanner{}
	type ended struct {
		d   RunDetail
		err error
	}
	done := map[int]chan ended{}
	var f *fx
	for i, tn := range turns {
		p := newHeldPlanner()
		planners[tn.turn], done[tn.turn] = p, make(chan ended, 1)
		var svc *Service
		if i == 0 {
			f = newFx(t, p)
			svc = f.svc
		} else {
			// Each further process passes its gates on its own (past the interval since the
			// previous run started) and plans from the home as it is: nothing applied yet.
			f.clock.Advance(31 * time.Second)
			svc = f.secondProcess(p)
		}
		req := Request{SessionID: "s1", Agent: "claude-code", SessionTurn: tn.turn,
			Messages: []Message{{Role: "user", Content: tn.words, ID: fmt.Sprintf("u%d", tn.turn)}}}
		go func(turn int) {
			d, err := svc.Request(f.ctx, req, true)
			done[turn] <- ended{d, err}
		}(tn.turn)
		<-p.planned
	}
	for _, turn := range []int{1, 3, 2} {
		close(planners[turn].release)
		if e := <-done[turn]; e.err != nil || e.d.Status != StatusDone || len(e.d.Report.Rejected) > 0 {
			t.Errorf("turn %d: %v %s %s, refused %+v", turn, e.err, e.d.Status, e.d.Reason, e.d.Report.Rejected)
		}
	}
	m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-location")
	if err != nil {
		t.Fatal(err)
	}
	if m.Title != "Based in Berlin" || m.Source.Session != "s1" || m.Source.Turn != 3 {
		t.Fatalf("user-location %q from turn %d of %q, want turn 3's \"Based in Berlin\"", m.Title, m.Source.Turn, m.Source.Session)
	}
}

// TestSlugTakenElsewhereStaysRefused: a write whose slug is taken by a memory that is not the
// same conversation's (a person's, another session's), or that the planner was shown and
// wrote over, is refused as before: settling is only for the runs of one conversation that
// one process would have taken in turn.
func TestSlugTakenElsewhereStaysRefused(t *testing.T) {
	same := &memory.Source{Kind: "extraction", Agent: "claude-code", Session: "s1", Turn: 1}
	for _, c := range []struct {
		name string
		src  *memory.Source
		msg  string
	}{
		{"a person's memory", nil, "I work on the billing service most days."},
		{"another session's memory", &memory.Source{Kind: "extraction", Agent: "claude-code", Session: "other", Turn: 1},
			"I work on the billing service most days."},
		{"another agent's session of the same id", &memory.Source{Kind: "extraction", Agent: "codex", Session: "s1", Turn: 1},
			"I work on the billing service most days."},
		{"shown to the planner", same, "Green tea in the afternoon is what I like."},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFx(t, fixedPlan(write("likes-tea", "Likes tea", "Drinks tea.")))
			title, body := "Likes green tea", "Green tea in the afternoon."
			if res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Items: []memory.Item{{Op: memory.OpWrite, Slug: "likes-tea",
				Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: &title, Body: &body, Source: c.src}}}); err != nil || !res.Results[0].OK {
				t.Fatalf("seed: %v %+v", err, res)
			}
			d := f.run(turn("s1", c.msg))
			if got := codes(d); len(got) != 1 || got[0] != memory.CodeAlreadyExists || d.Status != StatusNoop {
				t.Fatalf("%s %s codes %v (candidates %d)", d.Status, d.Reason, got, d.Report.Candidates)
			}
			if m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "likes-tea"); err != nil || m.Title != title || m.Body != body {
				t.Fatalf("the memory changed: %+v %v", m, err)
			}
		})
	}
}
