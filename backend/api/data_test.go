package api

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"engram/backend/memory"
)

// Reindex and doctor publish index.progress while they run and end with a "done" event, so
// Settings → Data can draw a bar; the preview and the history answer over the same table.
func TestIndexProgressPreviewAndHistory(t *testing.T) {
	a := newAPI(t, memory.ActorBridge)
	for _, slug := range []string{"alpha-one", "beta-two", "gamma-three"} {
		if _, err := a.Call("memory.write", json.RawMessage(`{"slug":"`+slug+`","title":"T","scope":"global","type":"user","body":"text of `+slug+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var got []IndexProgress
	cancel := a.deps.Events.Subscribe(func(name string, data any) {
		if name == EventIndexProgress {
			mu.Lock()
			got = append(got, data.(IndexProgress))
			mu.Unlock()
		}
	})
	defer cancel()
	if _, err := a.Call("index.reindex", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Call("index.doctor", nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	phases := map[string]bool{}
	for _, p := range got {
		phases[p.Op+"/"+p.Phase] = true
		if p.Done > p.Total && p.Total > 0 {
			t.Fatalf("progress past its total: %+v", p)
		}
	}
	for _, want := range []string{"reindex/walk", "reindex/index", "reindex/done", "doctor/integrity", "doctor/checksum", "doctor/done"} {
		if !phases[want] {
			t.Fatalf("no %s event in %+v", want, got)
		}
	}
	if last := got[len(got)-1]; last.Op != "doctor" || last.Phase != "done" || last.Done != 3 || last.Total != 3 {
		t.Fatalf("last event %+v", last)
	}

	res, err := a.Call("memory.importPreview", json.RawMessage(`{"jsonl":"{\"slug\":\"alpha-one\",\"title\":\"T\",\"scope\":\"global\",\"type\":\"user\",\"body\":\"other text\"}\n{\"slug\":\"new-one\",\"title\":\"N\",\"scope\":\"global\",\"type\":\"user\",\"body\":\"n\"}\n{bad\n"}`))
	if err != nil {
		t.Fatal(err)
	}
	pv := res.(ImportPreviewResult)
	if pv.New != 1 || pv.Conflicts != 1 || pv.Invalid != 1 || len(pv.Errors) != 1 || pv.Errors[0].Line != 3 || pv.Errors[0].Message == "" {
		t.Fatalf("preview %+v", pv)
	}
	raw, _ := json.Marshal(pv)
	var back map[string]any
	_ = json.Unmarshal(raw, &back)
	if errs, ok := back["errors"].([]any); !ok || len(errs) != 1 {
		t.Fatalf("preview JSON errors: %s", raw)
	}
	if q, _ := a.deps.Store.Quota(a.ctx); q.Scopes[0].Used != 3 {
		t.Fatalf("the preview wrote: %+v", q.Scopes)
	}

	h, err := a.Call("quota.history", json.RawMessage(`{"days":7}`))
	if err != nil {
		t.Fatal(err)
	}
	if s := h.(StorageHistoryResult).Samples; len(s) != 1 || s[0].Memories < 0 {
		t.Fatalf("history %+v", s)
	}
	if _, err := a.Call("quota.history", json.RawMessage(`{"days":5000}`)); err == nil {
		t.Fatal("a 5000-day history was accepted")
	}
}

// Only the person at this computer opens the folder; over the bridge it is refused (the UI
// shows the path instead), and a failing opener is a translated error.
func TestOpenFolderIsDesktopOnly(t *testing.T) {
	remote := newAPI(t, memory.ActorBridge)
	var e *Error
	if _, err := remote.Call("app.openFolder", nil); !errors.As(err, &e) || e.Code != CodeOpenFolderDesktopOnly || e.Message == "" {
		t.Fatalf("bridge: %v", err)
	}
	local := newAPI(t, memory.ActorUser)
	var opened []string
	local.deps.OpenPath = func(p string) error { opened = append(opened, p); return nil }
	res, err := local.Call("app.openFolder", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(opened) != 1 || opened[0] != local.deps.Store.Home() || res.(OpenFolderResult).Path != opened[0] {
		t.Fatalf("opened %v, answered %+v", opened, res)
	}
	local.deps.OpenPath = func(string) error { return errors.New("no file manager") }
	if _, err := local.Call("app.openFolder", nil); !errors.As(err, &e) || e.Code != CodeOpenFolderFailed {
		t.Fatalf("failing opener: %v", err)
	}
}
