package api

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
	"engram/backend/organizer"
	"engram/backend/text"
)

// A decision that fails because its memory changed or went away since the run read it reads,
// in the caller's language, which memory it was: in applyReport's answer and in the stored
// report organizer.run returns. Before, both held the Go error string in English.
func TestOrganizerApplyFailuresAreTranslated(t *testing.T) {
	ctx := context.Background()
	a, org, _ := newAPIWithOrganizer(t)
	call := func(method, params string) any {
		t.Helper()
		out, err := a.Call(method, json.RawMessage(params))
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		return out
	}
	for _, slug := range []string{"pref-kafka", "pref-kafka-copy"} {
		call("memory.write", `{"scope":"global","type":"user","slug":"`+slug+`","title":"Prefers kafka","body":"The user prefers kafka for every new project."}`)
	}
	ref := call("organizer.runNow", `{}`).(organizer.RunRef)
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := org.WaitIdle(wctx); err != nil {
		t.Fatal(err)
	}
	det := call("organizer.run", `{"id":"`+ref.ID+`"}`).(organizer.RunDetail)
	if len(det.Report.Decisions) != 1 {
		t.Fatalf("decisions %+v", det.Report.Decisions)
	}
	d := det.Report.Decisions[0]
	call("memory.update", `{"id":"`+d.Into.ID+`","body":"The user prefers kafka, and redis for caches."}`)
	call("settings.update", `{"language":"zh-CN"}`)
	res := call("organizer.applyReport", `{"run_id":"`+ref.ID+`","decision_ids":["`+d.ID+`"]}`).(organizer.ApplyResult)
	after := call("organizer.run", `{"id":"`+ref.ID+`"}`).(organizer.RunDetail)
	for where, msg := range map[string]string{"applyReport": res.Decisions[0].Message, "organizer.run": after.Report.Decisions[0].Result.Message} {
		if !text.HasCJK(msg) || !strings.Contains(msg, d.Into.Slug) || strings.Contains(msg, "organizer:") || strings.Contains(msg, "<no value>") {
			t.Errorf("%s: message %q, want Chinese naming %s", where, msg, d.Into.Slug)
		}
	}
	if res.Decisions[0].Code != memory.CodeVersionConflict || res.Decisions[0].I18nKey != organizer.KeyEntryChanged {
		t.Errorf("outcome %+v", res.Decisions[0])
	}
}

// newAPIWithOrganizer is the person's API over a store with an organizer started on it (no
// event hub: the tests read runs back), and the deps it was built from.
func newAPIWithOrganizer(t *testing.T) (*API, *organizer.Service, *Deps) {
	t.Helper()
	var org *organizer.Service
	var deps *Deps
	a := newAPIWith(t, memory.ActorUser, func(st *memory.Store, d *Deps) {
		var err error
		if org, err = organizer.New(organizer.Options{Store: st}); err != nil {
			t.Fatal(err)
		}
		if err := org.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { org.Stop() })
		d.Organizer, d.Events, deps = org, nil, d
	})
	return a, org, deps
}
