package extraction

import (
	"fmt"
	"testing"

	"engram/backend/memory"
	"engram/backend/recall"
)

// TestIdentityCandidates: the identity memories that exist are added to the candidates
// whatever the turn's words (once, within the candidate limit); absent or unseen ones are not.
func TestIdentityCandidates(t *testing.T) {
	f := newFx(t, fixedPlan())
	title, body := "Based in Paris", "Based in Paris."
	if _, err := f.store.ApplyBatch(f.ctx, memory.Batch{Items: []memory.Item{{Op: memory.OpWrite, Slug: "user-location",
		Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: &title, Body: &body}}}); err != nil {
		t.Fatal(err)
	}
	vis, err := recall.NewVisibility(recall.Caller{}, f.store.Projects())
	if err != nil {
		t.Fatal(err)
	}
	got := f.svc.identityCandidates(f.ctx, vis, nil)
	if len(got) != 1 || got[0] != (Candidate{Slug: "user-location", Scope: "global", Type: "user", Title: "Based in Paris", Reviewed: true}) {
		t.Fatalf("got %+v", got)
	}
	if got := f.svc.identityCandidates(f.ctx, vis, got); len(got) != 1 {
		t.Fatalf("listed twice: %+v", got)
	}
	var full []Candidate
	for i := 0; i < ContextCandidates; i++ {
		full = append(full, Candidate{Slug: fmt.Sprintf("note-%d", i), Scope: "global", Type: "reference", Title: "n"})
	}
	got = f.svc.identityCandidates(f.ctx, vis, full)
	if len(got) != ContextCandidates || got[len(got)-1].Slug != "user-location" || got[0].Slug != "note-0" {
		t.Fatalf("full list: %d, last %+v", len(got), got[len(got)-1])
	}
}

// TestCorrectionReplacesIdentity: QA's turns — "I live in Paris." then, in another
// conversation, "Actually I moved to Berlin." — leave one user-location memory that says
// Berlin; the same in Chinese. Before, the second turn's write was refused (already_exists)
// and the old fact stayed.
func TestCorrectionReplacesIdentity(t *testing.T) {
	for _, c := range []struct{ first, second, want string }{
		{"I live in Paris.", "Actually I moved to Berlin.", "Based in Berlin"},
		{"我住在北京。", "其实我已经搬到上海了", "所在地：上海"},
	} {
		t.Run(c.second, func(t *testing.T) {
			f := newFx(t, NewOffline())
			if d := f.run(turn("a", c.first)); d.Status != StatusDone {
				t.Fatalf("first turn: %s %s %v", d.Status, d.Reason, codes(d))
			}
			if d := f.run(turn("b", c.second)); d.Status != StatusDone {
				t.Fatalf("correction: %s %s %v", d.Status, d.Reason, codes(d))
			}
			m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-location")
			if err != nil || m.Title != c.want {
				t.Fatalf("user-location %+v %v, want %q", m, err, c.want)
			}
		})
	}
}
