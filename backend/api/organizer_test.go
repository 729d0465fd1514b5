package api

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/organizer"
	"engram/backend/recall"
	"engram/backend/settings"
)

func TestOrganizerThroughTable(t *testing.T) {
	ctx := context.Background()
	st, err := memory.Open(ctx, t.TempDir(), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	set := settings.New(st, "en")
	hub := NewHub(st, set)
	var events []organizer.Progress
	org, err := organizer.New(organizer.Options{Store: st, Progress: func(p organizer.Progress) {
		hub.Publish(EventOrganizerProgress, p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	hub.Subscribe(func(name string, data any) {
		if name == EventOrganizerProgress {
			events = append(events, data.(organizer.Progress))
		}
	})
	if err := org.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { org.Stop() })
	a := New(ctx, Deps{Store: st, Catalog: cat, Settings: set, Events: hub, Recall: recall.New(st, recall.Options{}), Version: "test", Organizer: org}, memory.ActorUser)
	for _, body := range []string{`{"slug":"dark-mode"}`, `{"slug":"dark-theme"}`} {
		var p map[string]any
		json.Unmarshal([]byte(body), &p)
		if _, err := a.Call("memory.write", json.RawMessage(`{"scope":"global","type":"user","slug":"`+p["slug"].(string)+
			`","title":"t `+p["slug"].(string)+`","body":"User prefers dark mode in every editor."}`)); err != nil {
			t.Fatal(err)
		}
	}
	res, err := a.Call("organizer.runNow", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	ref := res.(organizer.RunRef)
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := org.WaitIdle(wctx); err != nil {
		t.Fatal(err)
	}
	out, err := a.Call("organizer.run", json.RawMessage(`{"id":"`+ref.ID+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	det := out.(organizer.RunDetail)
	if det.Status != organizer.StatusDone || len(det.Report.Decisions) != 1 {
		t.Fatalf("run %+v", det.RunSummary)
	}
	raw, _ := json.Marshal(det)
	if !strings.Contains(string(raw), `"version":1`) {
		t.Fatal("report has no version")
	}
	if _, err := a.Call("organizer.applyReport", json.RawMessage(`{"run_id":"`+ref.ID+`","decision_ids":["`+det.Report.Decisions[0].ID+`"]}`)); err != nil {
		t.Fatal(err)
	}
	_, err = a.Call("organizer.applyReport", json.RawMessage(`{"run_id":"`+ref.ID+`","decision_ids":["`+det.Report.Decisions[0].ID+`"]}`))
	var ae *Error
	if !errors.As(err, &ae) || ae.Code != organizer.CodeDecisionNotPending || strings.Contains(ae.Message, "{{") || ae.I18nKey != "error.organizer_decision_not_pending" {
		t.Fatalf("want a translated organizer error, got %v", err)
	}
	t.Log(ae.Message)
	_, err = a.Call("organizer.updateSettings", json.RawMessage(`{"mode":"reckless"}`))
	if !errors.As(err, &ae) || ae.Code != organizer.CodeInvalidSetting {
		t.Fatalf("bad setting: %v", err)
	}
	t.Log(ae.Message)
	for _, m := range []string{"organizer.status", "organizer.runs", "organizer.settings"} {
		if _, err := a.Call(m, nil); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	if _, err := a.Call("settings.update", json.RawMessage(`{"language":"zh-CN"}`)); err != nil {
		t.Fatal(err)
	}
	_, err = a.Call("organizer.abort", json.RawMessage(`{}`))
	if !errors.As(err, &ae) || ae.Code != organizer.CodeNothingToAbort {
		t.Fatalf("abort: %v", err)
	}
	t.Log(ae.Message)
	if len(events) == 0 {
		t.Fatal("no organizer.progress events")
	}
	// Without an organizer the methods answer organizer_not_running.
	b := New(ctx, Deps{Store: st, Catalog: cat, Settings: set, Events: hub, Recall: recall.New(st, recall.Options{})}, memory.ActorUser)
	if _, err := b.Call("organizer.status", nil); !errors.As(err, &ae) || ae.Code != organizer.CodeNotRunning {
		t.Fatalf("nil organizer: %v", err)
	}
}
