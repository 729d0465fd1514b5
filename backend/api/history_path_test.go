package api

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A memory file edited by hand into bytes that are not UTF-8 cannot be read as a memory, so
// it is in no index: history.versions by id or slug answered not_found and the good version
// git keeps was out of reach (history deleted does not list a file still at its path). The
// person can now ask by the file's path (what doctor names); a model-facing caller cannot,
// as a path reaches any scope's file.
func TestHistoryVersionsOfAnUnreadableFileByPath(t *testing.T) {
	user, tool := historyAPIs(t)
	mustCall(t, user, "history.enable", `{}`)
	w := mustCall(t, user, "memory.write", `{"scope":"global","type":"user","slug":"likes-cafe","title":"Likes cafe","body":"Drinks cafe au lait.","confidence":"medium","source_quote":"cafe"}`).(ItemResult)
	p := filepath.Join(user.deps.Store.Root(), filepath.FromSlash(w.Path))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	bad := []byte(strings.Replace(string(data), "cafe au lait", "caf\xe9 au lait", 1))
	if err := os.WriteFile(p, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	// What a start (or the watcher) does: read the file again and commit it.
	if _, err := user.deps.Store.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	mustCall(t, user, "history.enable", `{}`)
	_, err = user.Call("history.versions", json.RawMessage(`{"id":"likes-cafe"}`))
	if err == nil {
		t.Fatal("the unreadable memory is still found by its slug")
	}

	vs := mustCall(t, user, "history.versions", `{"path":"`+w.Path+`"}`).(VersionsResult)
	if !vs.Enabled || vs.Path != w.Path || len(vs.Versions) != 2 || !strings.Contains(vs.Versions[0].Diff, "-Drinks cafe au lait.") {
		t.Fatalf("versions by path: %+v", vs)
	}
	_, err = tool.Call("history.versions", json.RawMessage(`{"path":"`+w.Path+`"}`))
	wantHistoryCode(t, err, CodeHistoryPersonOnly)

	// The good version comes back once the bad file is moved aside, as the refusal says.
	if err := os.Rename(p, filepath.Join(t.TempDir(), "bad.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := user.deps.Store.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := mustCall(t, user, "history.restore", `{"path":"`+w.Path+`","commit":"`+vs.Versions[1].Commit+`"}`).(ItemResult)
	if !r.OK {
		t.Fatalf("restore: %+v", r)
	}
	m := mustCall(t, user, "memory.read", `{"id":"`+w.ID+`"}`).(ReadResult)
	if m.Memory.Body != "Drinks cafe au lait." {
		t.Fatalf("restored body = %q", m.Memory.Body)
	}
}
