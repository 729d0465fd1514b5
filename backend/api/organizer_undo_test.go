package api

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
	"engram/backend/organizer"
	"engram/backend/text"
)

// organizer.undo is the person's: an agent (MCP acts as "tool") is refused in words, whatever
// the run, and nothing changes; the person (the window, a browser through the bridge) gets a
// preview, then the undo, and a change left because its keeper was edited after the run says
// so in the caller's language, naming the memory.
func TestOrganizerUndoIsThePersons(t *testing.T) {
	ctx := context.Background()
	a, org, deps := newAPIWithOrganizer(t)
	call := func(a *API, method, params string) any {
		t.Helper()
		out, err := a.Call(method, json.RawMessage(params))
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		return out
	}
	for _, slug := range []string{"pref-kafka", "pref-kafka-copy", "tea", "tea-again"} {
		body := "The user prefers kafka for every new project."
		if strings.HasPrefix(slug, "tea") {
			body = "The user drinks green tea every morning."
		}
		call(a, "memory.write", `{"scope":"global","type":"user","slug":"`+slug+`","title":"`+slug+`","body":"`+body+`"}`)
	}
	ref := call(a, "organizer.runNow", `{}`).(organizer.RunRef)
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := org.WaitIdle(wctx); err != nil {
		t.Fatal(err)
	}
	det := call(a, "organizer.run", `{"id":"`+ref.ID+`"}`).(organizer.RunDetail)
	var ids []string
	for _, d := range det.Report.Decisions {
		ids = append(ids, `"`+d.ID+`"`)
	}
	call(a, "organizer.applyReport", `{"run_id":"`+ref.ID+`","decision_ids":[`+strings.Join(ids, ",")+`]}`)
	det = call(a, "organizer.run", `{"id":"`+ref.ID+`"}`).(organizer.RunDetail)
	if det.Report.Counts.Applied != 2 {
		t.Fatalf("run applied %d, want the two merges", det.Report.Counts.Applied)
	}
	tool := New(ctx, *deps, memory.ActorTool)
	for _, lang := range []string{"en", "zh-CN"} {
		call(a, "settings.update", `{"language":"`+lang+`"}`)
		for _, dry := range []string{"true", "false"} {
			_, err := tool.Call("organizer.undo", json.RawMessage(`{"run_id":"`+ref.ID+`","dry_run":`+dry+`}`))
			var e *Error
			if !errors.As(err, &e) || e.Code != organizer.CodeUndoPersonOnly || e.Message == "" ||
				strings.Contains(e.Message, "<no value>") || (lang == "zh-CN") != text.HasCJK(e.Message) {
				t.Fatalf("agent's undo (%s, dry_run %s): %v, want %s in words", lang, dry, err, organizer.CodeUndoPersonOnly)
			}
		}
	}
	if got := call(a, "organizer.run", `{"id":"`+ref.ID+`"}`).(organizer.RunDetail); got.Report.Undo != nil {
		t.Fatal("an agent's undo was recorded")
	}
	var kept organizer.Decision
	for _, d := range det.Report.Decisions {
		if d.Status == organizer.DecisionApplied && strings.HasPrefix(d.Into.Slug, "tea") {
			kept = d
		}
	}
	call(a, "memory.update", `{"id":"`+kept.Into.ID+`","body":"The user drinks green tea, and oolong after lunch."}`)
	pre := call(a, "organizer.undo", `{"run_id":"`+ref.ID+`","dry_run":true}`).(organizer.UndoResult)
	if pre.Undone != 1 || pre.Conflicts != 1 || pre.Restored != 1 {
		t.Fatalf("preview = %+v", pre)
	}
	res := call(a, "organizer.undo", `{"run_id":"`+ref.ID+`"}`).(organizer.UndoResult)
	if res.Undone != 1 || res.Conflicts != 1 {
		t.Fatalf("undo = %+v", res)
	}
	for _, it := range res.Items {
		if it.Decision != kept.ID {
			continue
		}
		msg := it.Problems[0].Message
		if !text.HasCJK(msg) || !strings.Contains(msg, kept.Into.Slug) || strings.Contains(msg, "organizer:") {
			t.Fatalf("conflict message %q, want Chinese naming %s", msg, kept.Into.Slug)
		}
	}
	_, err := a.Call("organizer.undo", json.RawMessage(`{"run_id":"`+ref.ID+`"}`))
	var e *Error
	if !errors.As(err, &e) || e.Code != organizer.CodeUndoDone || !text.HasCJK(e.Message) || strings.Contains(e.Message, "<no value>") {
		t.Fatalf("second undo: %v, want %s in Chinese", err, organizer.CodeUndoDone)
	}
}
