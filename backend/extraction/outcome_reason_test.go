package extraction

import (
	"strings"
	"testing"

	turnpkg "engram/backend/extraction/turn"
	"engram/backend/memory"
)

// rejectMemory writes a global memory as the person and rejects it, as Review does.
func (f *fx) rejectMemory(slug, title, body string) {
	f.t.Helper()
	if _, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpWrite,
		Slug: slug, Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: &title, Body: &body}}}); err != nil {
		f.t.Fatal(err)
	}
	if res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{{Op: memory.OpReject,
		Slug: slug, Scope: memory.ScopeGlobal}}}); err != nil || !res.Results[0].OK {
		f.t.Fatalf("reject: %+v %v", res, err)
	}
}

// TestRejectedProposalIsSaidAsSuch: a turn whose only proposal is a memory the person
// rejected in the last 7 days was reported as "Nothing in the turn was worth remembering"
// when the offline extractor planned it (it dropped the slug without a word). Whichever
// planner proposes it, the run now says the proposal was refused because the person rejected
// it, names the slug, and says how to keep it after all, in both languages.
func TestRejectedProposalIsSaidAsSuch(t *testing.T) {
	for _, tc := range []struct {
		name    string
		planner Planner
	}{
		{"offline", Offline{}},
		{"model", fixedPlan(PlanItem{Action: ActionWrite, Slug: "user-location", Scope: "global", Type: "user",
			Description: "Based in Oslo", Body: "Lives in Oslo.", SourceQuote: "I live in Oslo"})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFx(t, tc.planner)
			f.rejectMemory("user-location", "Based in Oslo", "Lives in Oslo.")
			d := f.run(turn("s1", "I live in Oslo, please remember that."))
			if d.Status != StatusNoop || d.Reason != NoopRejectedByYou {
				t.Fatalf("status %s reason %s, want noop %s (rejected %+v)", d.Status, d.Reason, NoopRejectedByYou, d.Report.Rejected)
			}
			if got := codes(d); len(got) != 1 || got[0] != CodeRejectedNoOverride || d.Report.Rejected[0].Slug != "user-location" {
				t.Fatalf("refused %+v", d.Report.Rejected)
			}
			if _, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "user-location"); err == nil {
				t.Fatal("the rejected memory was written again")
			}
		})
	}
	cat := testCatalog(t)
	for lang, want := range map[string]string{"en": "rejected in the last 7 days", "zh-CN": "7 天内拒绝"} {
		msg := cat.Messages(lang)["extraction.reason."+NoopRejectedByYou]
		if msg == "" || !strings.Contains(msg, want) || !strings.Contains(msg, "engram restore") {
			t.Errorf("%s: reason reads %q", lang, msg)
		}
	}
}

// TestOnlySystemAndToolMessagesHaveTheirOwnReason: a request holding no message of the
// person's — a client that sent only its system prompt and tool output, which are left out as
// no one's words — was skipped as "The last message is empty.", which it is not. It is
// skipped as no-person-message; a person's empty message is still "empty".
func TestOnlySystemAndToolMessagesHaveTheirOwnReason(t *testing.T) {
	for _, tc := range []struct {
		name string
		msgs []Message
		want string
	}{
		{"system and tool only", turnpkg.NormalizeRoles([]Message{{Role: "system", Content: "You are helpful."},
			{Role: "tool", Content: "total 0"}}), SkipNoPersonMessage},
		{"assistant only", []Message{{Role: "assistant", Content: "Shall I remember that you live in Oslo?"}}, SkipNoPersonMessage},
		{"no messages", nil, SkipNoPersonMessage},
		{"person's empty message", []Message{{Role: "user", Content: "  "}}, SkipEmpty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFx(t, Offline{})
			d := f.run(Request{SessionID: "s1", Agent: "cli", Messages: tc.msgs})
			if d.Status != StatusSkipped || d.Reason != tc.want {
				t.Fatalf("status %s reason %s, want skipped %s", d.Status, d.Reason, tc.want)
			}
		})
	}
	cat := testCatalog(t)
	for _, lang := range []string{"en", "zh-CN"} {
		msgs := cat.Messages(lang)
		if got := msgs["extraction.reason."+SkipNoPersonMessage]; got == "" || got == msgs["extraction.reason."+SkipEmpty] {
			t.Errorf("%s: no-person-message reads %q", lang, got)
		}
	}
}
