package api

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"engram/backend/extraction"
	"engram/backend/memory"
)

type planOf extraction.Plan

func (p planOf) Plan(context.Context, extraction.Input) (extraction.Outcome, error) {
	return extraction.Outcome{Plan: extraction.Plan(p), Model: "scripted"}, nil
}

// TestExtractionThroughTable: extraction.request decodes strictly, runs (waiting when asked),
// publishes extraction.status, and its runs come back translated in the person's language;
// settings are typed and refuse bad values with a translated error.
func TestExtractionThroughTable(t *testing.T) {
	a := newAPI(t, memory.ActorBridge)
	var mu sync.Mutex
	var events []extraction.StatusEvent
	a.deps.Events.Subscribe(func(name string, data any) {
		if name == EventExtractionStatus {
			mu.Lock()
			events = append(events, data.(extraction.StatusEvent))
			mu.Unlock()
		}
	})
	x := extraction.New(context.Background(), extraction.Options{Store: a.deps.Store,
		Planner: planOf{Status: "updated", Items: []extraction.PlanItem{{Action: "write", Slug: "uses-go", Scope: "global",
			Type: "user", Description: "Uses Go", Body: "Writes Go."}, {Action: "accept", Slug: "uses-go", Scope: "global"}}},
		Publish: func(e extraction.StatusEvent) { a.deps.Events.Publish(EventExtractionStatus, e) }})
	defer x.Close()
	a.deps.Extraction = x
	if _, err := a.Call("extraction.request", json.RawMessage(`{"session_id":"s","messages":[],"reviewed":true}`)); err == nil {
		t.Fatal("unknown field accepted")
	}
	if _, err := a.Call("settings.update", json.RawMessage(`{"language":"zh-CN"}`)); err != nil {
		t.Fatal(err)
	}
	res, err := a.Call("extraction.request", json.RawMessage(`{"session_id":"s","agent":"codex","wait":true,
		"messages":[{"role":"user","content":"I write Go for a living, at work and at home."}]}`))
	if err != nil {
		t.Fatal(err)
	}
	d := res.(extraction.RunDetail)
	if d.Status != extraction.StatusPartial || d.StatusText != "部分应用" || len(d.Report.Rejected) != 1 ||
		!strings.Contains(d.Report.Rejected[0].Message, "只有你本人") {
		t.Fatalf("run %+v", d)
	}
	res, err = a.Call("extraction.runs", nil)
	if err != nil {
		t.Fatal(err)
	}
	runs := res.(extraction.RunsResult)
	if runs.Total != 1 || runs.Runs[0].ID != d.ID || runs.Runs[0].Report.Rejected[0].Message == "" {
		t.Fatalf("runs %+v", runs)
	}
	if _, err := a.Call("extraction.run", json.RawMessage(`{"id":"nope"}`)); err == nil {
		t.Fatal("a missing run was found")
	} else if ae := (*Error)(nil); !errors.As(err, &ae) || ae.Code != extraction.CodeRunNotFound || !strings.Contains(ae.Message, "nope") {
		t.Fatalf("missing run: %v", err)
	}
	res, err = a.Call("extraction.updateSettings", json.RawMessage(`{"enabled":false,"agents":["codex"," codex "]}`))
	if err != nil {
		t.Fatal(err)
	}
	if st := res.(extraction.Settings); st.Enabled || len(st.Agents) != 1 || st.MinIntervalSeconds != 30 {
		t.Fatalf("settings %+v", st)
	}
	_, err = a.Call("extraction.updateSettings", json.RawMessage(`{"min_graphemes":-1}`))
	var ae *Error
	if !errors.As(err, &ae) || ae.Code != extraction.CodeInvalidSettings || ae.Args["Field"] != "min_graphemes" || !strings.Contains(ae.Message, "最少字数") {
		t.Fatalf("bad setting: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 2 || events[0].Status != extraction.StatusRunning || events[1].Status != extraction.StatusPartial {
		t.Fatalf("events %+v", events)
	}
}

// TestExtractionNotRunning: without the service the methods answer a translated code.
func TestExtractionNotRunning(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	_, err := a.Call("extraction.runs", nil)
	var ae *Error
	if !errors.As(err, &ae) || ae.Code != extraction.CodeNotRunning || strings.Contains(ae.Message, "error.") {
		t.Fatalf("%v", err)
	}
}

// TestExtractionReadsOtherClientsRoles: a turn from a client that names roles its own way
// ("User", "human", Gemini's "model") or sends its system prompt and tool output along is
// learned from the person's words, not refused whole; a role that is no one's is still
// refused by name.
func TestExtractionReadsOtherClientsRoles(t *testing.T) {
	a := newAPI(t, memory.ActorBridge)
	x := extraction.New(context.Background(), extraction.Options{Store: a.deps.Store, Planner: extraction.NewOffline()})
	defer x.Close()
	a.deps.Extraction = x
	for i, msgs := range []string{
		`[{"role":"system","content":"You are a helpful assistant."},{"role":"User","content":"I'm allergic to peanuts."}]`,
		`[{"role":"human","content":"Hi!"},{"role":"model","content":"Hello."},{"role":"tool","content":"My name is Root."},{"role":"HUMAN","content":"I'm allergic to peanuts."}]`,
	} {
		res, err := a.Call("extraction.request", json.RawMessage(`{"session_id":"s`+string(rune('a'+i))+`","agent":"other","wait":true,"messages":`+msgs+`}`))
		if err != nil {
			t.Fatalf("%s: %v", msgs, err)
		}
		d := res.(extraction.RunDetail)
		if len(d.Report.Applied) == 0 {
			t.Fatalf("%s: run %+v %+v", msgs, d.RunSummary, d.Report)
		}
		for _, it := range d.Report.Applied {
			if strings.Contains(strings.ToLower(it.Title), "root") {
				t.Fatalf("a tool's output was learned as the person's: %+v", it)
			}
		}
	}
	_, err := a.Call("extraction.request", json.RawMessage(`{"session_id":"sz","agent":"other","messages":[{"role":"narrator","content":"I'm allergic to peanuts."}]}`))
	var ae *Error
	if !errors.As(err, &ae) || !strings.Contains(ae.Message, "narrator") {
		t.Fatalf("unknown role: %v", err)
	}
}
