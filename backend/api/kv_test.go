package api

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"engram/backend/memory"
)

// kv.* through the method table as a transport calls it: JSON params in, typed results out,
// coded errors translated, audit rows with the api's actor, kv.changed pushed to the hub.
func TestKVMethods(t *testing.T) {
	a := newAPI(t, memory.ActorTool)
	events := make(chan map[string]any, 16)
	cancel := a.deps.Events.Subscribe(func(name string, data any) {
		if name == EventKVChanged {
			events <- data.(map[string]any)
		}
	})
	defer cancel()

	set := mustCall(t, a, "kv.set", `{"agent":"claude","key":"project:version","value":"1.4.2"}`).(KVSetResult)
	if !set.Created || !set.Changed {
		t.Fatalf("set %+v", set)
	}
	select {
	case ev := <-events:
		if ev["agent"] != "claude" || len(ev["keys"].([]string)) != 1 {
			t.Fatalf("event %v", ev)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no kv.changed event")
	}
	mustCall(t, a, "kv.set", `{"agent":"claude","key":"project:deps","value":{"go":"1.26"}}`)
	mustCall(t, a, "kv.set", `{"agent":"claude","key":"user:editor","value":"helix"}`)
	got := mustCall(t, a, "kv.get", `{"agent":"claude","key":"project:deps"}`).(KVGetResult)
	if string(got.Value) != `{"go":"1.26"}` {
		t.Fatalf("get %s", got.Value)
	}
	list := mustCall(t, a, "kv.list", `{"agent":"claude","prefix":"project:","limit":1}`).(KVListResult)
	if len(list.Entries) != 1 || list.Entries[0].Key != "project:deps" || list.Total != 2 || list.NextCursor != "project:deps" {
		t.Fatalf("list %+v", list)
	}
	list = mustCall(t, a, "kv.list", `{"agent":"claude","prefix":"project:","cursor":"project:deps"}`).(KVListResult)
	if len(list.Entries) != 1 || list.Entries[0].Key != "project:version" || list.NextCursor != "" {
		t.Fatalf("page 2 %+v", list)
	}
	b, _ := json.Marshal(list)
	if !strings.Contains(string(b), `"value":"1.4.2"`) {
		t.Fatalf("list JSON %s", b)
	}
	del := mustCall(t, a, "kv.delete", `{"agent":"claude","key":"user:editor"}`).(KVDeleteResult)
	if !del.Deleted {
		t.Fatalf("delete %+v", del)
	}
	audit, err := a.deps.Store.Audit(a.ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if audit[0].Op != memory.OpKVDelete || audit[0].Actor != memory.ActorTool || audit[0].Scope != "agent" {
		t.Fatalf("audit %+v", audit[0])
	}

	errs := []struct{ method, params, code string }{
		{"kv.get", `{"agent":"claude","key":"user:editor"}`, memory.CodeKVNotFound},
		{"kv.get", `{"agent":"","key":"k"}`, memory.CodeInvalidAgent},
		{"kv.set", `{"agent":"../etc","key":"k","value":1}`, memory.CodeInvalidAgent},
		{"kv.set", `{"agent":"claude","key":"k"}`, memory.CodeKVInvalidValue},
		{"kv.set", `{"agent":"claude","key":"k","value":null}`, memory.CodeKVInvalidValue},
		{"kv.set", `{"agent":"claude","key":"a\u0007b","value":1}`, memory.CodeKVInvalidKey},
		{"kv.set", `{"agent":"claude","key":"k","value":"` + strings.Repeat("x", memory.MaxKVValueBytes) + `"}`, memory.CodeKVValueTooLarge},
		{"kv.set", `{"agent":"claude","key":"k","value":"ghp_` + strings.Repeat("a1B2", 9) + `"}`, memory.CodeSecretDetected},
		{"kv.set", `{"agent":"claude","key":"k","value":1,"scope":"global"}`, CodeInvalidParams},
		{"kv.list", `{"agent":"Claude"}`, memory.CodeInvalidAgent},
	}
	for _, c := range errs {
		_, err := a.Call(c.method, json.RawMessage(c.params))
		var ae *Error
		if !errors.As(err, &ae) || ae.Code != c.code || ae.I18nKey != "error."+c.code || strings.HasPrefix(ae.Message, "error.") {
			t.Errorf("%s %s: %v, want %s translated", c.method, c.params, err, c.code)
		}
	}
	// Removing a key the agent does not have changes nothing: every transport gets deleted:
	// false, not an error (the CLI and the bridge failed while MCP succeeded).
	res, err := a.Call("kv.delete", json.RawMessage(`{"agent":"claude","key":"nope"}`))
	if d, ok := res.(KVDeleteResult); err != nil || !ok || d.Deleted || d.Key != "nope" || d.Agent != "claude" {
		t.Errorf("kv.delete of a missing key: %+v, %v; want deleted false and no error", res, err)
	}
	// The methods' flags: reads are read-only, writes may overwrite (MCP annotates from them).
	for name, readOnly := range map[string]bool{"kv.get": true, "kv.list": true, "kv.set": false, "kv.delete": false} {
		m, ok := a.Lookup(name)
		if !ok || m.ReadOnly != readOnly || m.Destructive == readOnly {
			t.Errorf("%s flags %+v", name, m)
		}
	}
}

// Export and import through the api carry the keys and report their counts.
func TestKVExportImportOverAPI(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	mustCall(t, a, "kv.set", `{"agent":"claude","key":"a","value":1}`)
	mustCall(t, a, "kv.set", `{"agent":"codex","key":"b","value":[1,2]}`)
	exp := mustCall(t, a, "memory.export", `{}`).(ExportResult)
	if exp.Count != 0 || exp.KV != 2 {
		t.Fatalf("export %+v", exp)
	}
	b := newAPI(t, memory.ActorBridge)
	mustCall(t, b, "kv.set", `{"agent":"codex","key":"b","value":"other"}`)
	raw, _ := json.Marshal(ImportParams{JSONL: exp.JSONL})
	imp := mustCall(t, b, "memory.import", string(raw)).(ImportResult)
	if imp.KV != 1 || imp.KVConflicts != 1 || len(imp.Errors) != 1 || imp.Errors[0].I18nKey != "error.kv_conflict" {
		t.Fatalf("import %+v", imp)
	}
}
