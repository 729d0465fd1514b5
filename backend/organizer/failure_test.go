package organizer

import (
	"os"
	"strings"
	"testing"

	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/text"
)

// TestApplyFailuresNameTheMemory: decisions whose memories were edited, deleted or archived
// after the run read them fail with the store's code and a message the catalog translates,
// naming the memory. Before, the result held a Go error string in English whatever the
// language: "organizer: unable to apply: … changed since the run read it", "memory: no memory
// with id 01J…".
func TestApplyFailuresNameTheMemory(t *testing.T) {
	e := newEnv(t)
	ids := dupes(e)
	det := e.run(TriggerManual)
	edited := decisionFor(det.Report, ids["dark-mode"])
	deleted := decisionFor(det.Report, ids["deploy-day"])
	archived := decisionFor(det.Report, ids["drinks"])
	if edited == nil || deleted == nil || archived == nil {
		t.Fatalf("decisions %v", det.Report.Decisions)
	}
	// Someone edits one keeper, deletes one source and archives another after the scan.
	if _, err := e.store.ApplyBatch(e.ctx, memory.Batch{Actor: memory.ActorUser, Items: []memory.Item{
		{Op: memory.OpUpdate, ID: edited.Into.ID, Body: sp("Also in the terminal.")},
		{Op: memory.OpDelete, ID: deleted.Targets[0].ID},
		{Op: memory.OpArchive, ID: archived.Targets[0].ID},
	}}); err != nil {
		t.Fatal(err)
	}
	res, err := e.svc.ApplyReport(e.ctx, det.ID, []string{edited.ID, deleted.ID, archived.ID})
	if err != nil {
		t.Fatalf("ApplyReport: %v", err)
	}
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		code, key string
		ref       EntryRef
	}{
		edited.ID:   {memory.CodeVersionConflict, KeyEntryChanged, *edited.Into},
		deleted.ID:  {memory.CodeNotFound, KeyEntryGone, deleted.Targets[0]},
		archived.ID: {memory.CodeNotFound, KeyEntryGone, archived.Targets[0]},
	}
	stored := map[string]*DecisionResult{}
	for _, d := range e.detail(det.ID).Report.Decisions {
		stored[d.ID] = d.Result
	}
	if res.Failed != 3 || len(res.Decisions) != 3 {
		t.Fatalf("ApplyReport = %+v, want 3 failed", res)
	}
	for _, o := range res.Decisions {
		w := want[o.ID]
		if o.Status != DecisionFailed || o.Code != w.code || o.I18nKey != w.key {
			t.Fatalf("%s: %s %s %s, want failed %s %s", o.ID, o.Status, o.Code, o.I18nKey, w.code, w.key)
		}
		if o.Args["Slug"] != w.ref.Slug || o.Args["Title"] != w.ref.Title || o.Args["Ref"] != w.ref.Slug {
			t.Fatalf("%s: args %v, want the memory %s (%s)", o.ID, o.Args, w.ref.Slug, w.ref.Title)
		}
		if s := stored[o.ID]; s == nil || s.Code != o.Code || s.I18nKey != o.I18nKey || s.Args["Slug"] != w.ref.Slug {
			t.Fatalf("%s: the report holds %+v, want the same failure", o.ID, s)
		}
		zh, en := cat.T("zh-CN", o.I18nKey, o.Args), cat.T("en", o.I18nKey, o.Args)
		for lang, msg := range map[string]string{"zh-CN": zh, "en": en} {
			if msg == o.I18nKey || strings.Contains(msg, "<no value>") || strings.Contains(msg, "{{") ||
				!strings.Contains(msg, w.ref.Slug) || !strings.Contains(msg, w.ref.Title) {
				t.Fatalf("%s in %s: %q, want a message naming %s (%s)", o.ID, lang, msg, w.ref.Slug, w.ref.Title)
			}
		}
		if zh == en || !text.HasCJK(zh) {
			t.Fatalf("%s: the Chinese message is %q", o.ID, zh)
		}
	}
}

// A refusal of the store inside the batch keeps its code and its own message (error.<code>)
// with the store's arguments, and names the memory it hit, by slug rather than id.
func TestEntryFailureKeys(t *testing.T) {
	ref := EntryRef{ID: "01J0000000000000000000000", Slug: "deploy-day", Title: "Deploy day"}
	for _, tc := range []struct {
		code, key string
		args      map[string]any
	}{
		{memory.CodeVersionConflict, KeyEntryChanged, map[string]any{"Expected": "a", "Actual": "b"}},
		{memory.CodeNotFound, KeyEntryGone, map[string]any{"Ref": ref.ID}},
		{memory.CodeQuotaExhausted, "error.quota_exhausted", map[string]any{"Used": 500, "Limit": 500}},
		{memory.CodeInternal, "error.internal", nil},
	} {
		f := entryFailure(tc.code, ref, tc.args, "english detail")
		if f.Code != tc.code || f.I18nKey != tc.key || f.Message != "english detail" {
			t.Errorf("%s: %+v, want key %s", tc.code, f, tc.key)
		}
		if f.Args["Slug"] != ref.Slug || f.Args["Title"] != ref.Title || f.Args["Ref"] != ref.Slug || f.Args["Detail"] != "english detail" {
			t.Errorf("%s: args %v", tc.code, f.Args)
		}
		for k, v := range tc.args {
			if k != "Ref" && f.Args[k] != v {
				t.Errorf("%s: lost the store's argument %s", tc.code, k)
			}
		}
	}
	if f := entryFailure(memory.CodeNotFound, EntryRef{Slug: "no-title"}, nil, "x"); f.Args["Title"] != "no-title" {
		t.Errorf("an untitled memory is named %v, want its slug", f.Args["Title"])
	}
}
