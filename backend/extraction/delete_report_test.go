package extraction

import (
	"testing"

	"engram/backend/llm/llmtest"
	"engram/backend/memory"
)

// An applied delete is reported with what it removed — the memory's id, type, title and
// confidence — not with empty fields (`engram extract --json` listed
// `"type":"","title":"","confidence":""`, which read as broken).
func TestAppliedDeleteSaysWhatWent(t *testing.T) {
	f := newFx(t, modelPlanner(t, llmtest.Call("SubmitMemoryPlan",
		`{"status":"updated","items":[{"action":"delete","slug":"likes-coffee","scope":"global"}]}`)))
	title, body, no := "Likes coffee", "Drinks coffee every morning.", false
	res, err := f.store.ApplyBatch(f.ctx, memory.Batch{Actor: memory.ActorExtractor, Items: []memory.Item{{Op: memory.OpWrite,
		Slug: "likes-coffee", Scope: memory.ScopeGlobal, Type: memory.TypeUser, Title: &title, Body: &body, Reviewed: &no,
		Confidence: memory.ConfidenceLow}}})
	if err != nil || !res.Results[0].OK {
		t.Fatalf("seed: %+v %v", res, err)
	}
	d := f.run(turn("s1", "Forget that I like coffee, I quit caffeine."))
	if d.Status != StatusDone || len(d.Report.Applied) != 1 {
		t.Fatalf("run %+v %+v", d.RunSummary, d.Report)
	}
	a := d.Report.Applied[0]
	if a.Action != ActionDelete || a.Slug != "likes-coffee" || a.ID != res.Results[0].ID || a.Type != memory.TypeUser ||
		a.Title != title || a.Confidence != memory.ConfidenceLow || a.Scope != memory.ScopeGlobal {
		t.Fatalf("applied delete %+v, want what it removed", a)
	}
	if _, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "likes-coffee"); err == nil {
		t.Fatal("the memory is still there")
	}
}
