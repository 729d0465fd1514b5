package api

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"

	"engram/backend/history"
	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/settings"
)

// historyAPIs opens one real store with git history attached, as the wiring does, and
// returns the person's api and a model-facing one (MCP's "tool") over it.
func historyAPIs(t *testing.T) (user, tool *API) {
	t.Helper()
	user, tool, _ = historyAPIsAll(t)
	return user, tool
}

// historyAPIsAll is historyAPIs with a browser's over the bridge as well.
func historyAPIsAll(t *testing.T) (user, tool, bridge *API) {
	t.Helper()
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
	repo := history.New(st.Root(), nil)
	history.Attach(st, repo)
	set := settings.New(st, "en")
	deps := Deps{Store: st, Catalog: cat, Settings: set, Events: NewHub(st, set), Recall: recall.New(st, recall.Options{}), Version: "test", History: repo}
	return New(ctx, deps, memory.ActorUser), New(ctx, deps, memory.ActorTool), New(ctx, deps, memory.ActorBridge)
}

func wantHistoryCode(t *testing.T, err error, code string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("error = %v, want code %s", err, code)
	}
	if e.Message == "" || strings.Contains(e.Message, "<no value>") || e.I18nKey != "error."+code {
		t.Fatalf("untranslated error: %+v", e)
	}
	return e
}

func TestHistoryVersionsRestoreAndPersonOnly(t *testing.T) {
	user, tool := historyAPIs(t)
	_, err := tool.Call("history.enable", json.RawMessage(`{}`))
	wantHistoryCode(t, err, CodeHistoryPersonOnly)
	st := mustCall(t, user, "history.status", `{}`).(HistoryStatus)
	if st.Enabled || st.Exists {
		t.Fatalf("history on by default: %+v", st)
	}
	w := mustCall(t, user, "memory.write", `{"scope":"global","type":"user","slug":"likes-tea","title":"Likes tea","body":"Drinks green tea.","confidence":"medium","source_quote":"green tea"}`).(ItemResult)
	// Off: versions answer empty, enabled false; the CLI then shows the audit log.
	vs := mustCall(t, user, "history.versions", `{"id":"`+w.ID+`"}`).(VersionsResult)
	if vs.Enabled || len(vs.Versions) != 0 {
		t.Fatalf("versions while off: %+v", vs)
	}
	st = mustCall(t, user, "history.enable", `{}`).(HistoryStatus)
	if !st.Enabled || st.Commits != 1 {
		t.Fatalf("after enable: %+v", st)
	}
	mustCall(t, tool, "memory.update", `{"id":"`+w.ID+`","mode":"replace","body":"Drinks black tea."}`)
	vs = mustCall(t, user, "history.versions", `{"id":"`+w.ID+`"}`).(VersionsResult)
	if !vs.Enabled || len(vs.Versions) != 2 || vs.Versions[0].Actor != "tool" || vs.Versions[1].Actor != "user" {
		t.Fatalf("versions: %+v", vs)
	}
	if !strings.Contains(vs.Versions[0].Diff, "+Drinks black tea.") {
		t.Fatalf("diff: %s", vs.Versions[0].Diff)
	}
	// A model may read versions but never restore one.
	_, err = tool.Call("history.restore", json.RawMessage(`{"id":"`+w.ID+`","commit":"`+vs.Versions[1].Commit+`"}`))
	wantHistoryCode(t, err, CodeHistoryPersonOnly)
	_, err = user.Call("history.restore", json.RawMessage(`{"id":"`+w.ID+`","commit":"deadbeef"}`))
	wantHistoryCode(t, err, history.CodeNoVersion)
	r := mustCall(t, user, "history.restore", `{"id":"`+w.ID+`","commit":"`+vs.Versions[1].Commit+`"}`).(ItemResult)
	if !r.OK {
		t.Fatalf("restore: %+v", r)
	}
	m := mustCall(t, user, "memory.read", `{"id":"`+w.ID+`"}`).(ReadResult)
	if m.Memory.Body != "Drinks green tea." {
		t.Fatalf("restored body = %q", m.Memory.Body)
	}
	// The restore went through the store: audited as the person's update, searchable again.
	h := mustCall(t, user, "memory.history", `{"id":"`+w.ID+`"}`).(HistoryResult)
	if h.Entries[0].Op != "update" || h.Entries[0].Actor != "user" {
		t.Fatalf("audit after restore: %+v", h.Entries[0])
	}
	hits := mustCall(t, user, "memory.search", `{"query":"green tea"}`).(SearchResult)
	if len(hits.Hits) != 1 {
		t.Fatalf("search after restore: %+v", hits)
	}
}

func TestHistorySyncOverTheAPI(t *testing.T) {
	user, tool := historyAPIs(t)
	_, err := user.Call("history.sync", json.RawMessage(`{}`))
	wantHistoryCode(t, err, history.CodeOff)
	mustCall(t, user, "history.enable", `{}`)
	_, err = user.Call("history.sync", json.RawMessage(`{}`))
	wantHistoryCode(t, err, history.CodeNoRemote)
	_, err = tool.Call("history.sync", json.RawMessage(`{}`))
	wantHistoryCode(t, err, CodeHistoryPersonOnly)
	bare := filepath.Join(t.TempDir(), "r.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	res := mustCall(t, user, "history.sync", `{"remote":`+quoteJSON(bare)+`}`).(history.SyncResult)
	if !res.Pushed || res.Remote != bare {
		t.Fatalf("sync: %+v", res)
	}
	st := mustCall(t, user, "history.status", `{}`).(HistoryStatus)
	if st.Remote != bare || st.SyncMinutes != 15 {
		t.Fatalf("status after sync: %+v", st)
	}
	// A remote that is not there is a translated error naming it.
	e := func() *Error {
		_, err := user.Call("history.sync", json.RawMessage(`{"remote":"/nonexistent/engram-remote"}`))
		return wantHistoryCode(t, err, history.CodeRemoteNotRepo)
	}()
	if !strings.Contains(e.Message, "/nonexistent/engram-remote") {
		t.Fatalf("message = %q", e.Message)
	}
}

// Remote failures reach every UI as translated errors naming the remote, in both languages:
// an unreachable HTTPS remote and a password in the URL where no credentials file keeps it.
func TestHistoryRemoteErrorsAreTranslated(t *testing.T) {
	user, _ := historyAPIs(t)
	mustCall(t, user, "history.enable", `{}`)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "https://" + ln.Addr().String() + "/memories.git"
	ln.Close()
	seen := map[string]bool{}
	for _, lang := range []string{"en", "zh-CN"} {
		mustCall(t, user, "settings.update", `{"language":"`+lang+`"}`)
		_, err := user.Call("history.sync", json.RawMessage(`{"remote":`+quoteJSON(closed)+`}`))
		e := wantHistoryCode(t, err, history.CodeUnreachable)
		if !strings.Contains(e.Message, closed) || seen[e.Message] {
			t.Fatalf("%s: message = %q", lang, e.Message)
		}
		seen[e.Message] = true
		_, err = user.Call("history.sync", json.RawMessage(`{"remote":"https://me:hunter2@127.0.0.1:1/x.git"}`))
		e = wantHistoryCode(t, err, history.CodeCredentialsInURL)
		if strings.Contains(e.Message, "hunter2") || seen[e.Message] {
			t.Fatalf("%s: message = %q", lang, e.Message)
		}
		seen[e.Message] = true
	}
}

// A browser over the bridge may sync, and set an SSH or HTTPS remote, but not make a folder of
// this machine the remote (the sync would read and move the branches of whatever repository
// it names: backup_path_remote refuses paths the same way). A remote that is no remote is
// refused to everyone with its own translated error, and nothing is written to the config.
func TestHistoryRemoteOverTheBridge(t *testing.T) {
	user, _, bridge := historyAPIsAll(t)
	mustCall(t, user, "history.enable", `{}`)
	bare := filepath.Join(t.TempDir(), "r.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	for _, remote := range []string{bare, "file://" + bare} {
		_, err := bridge.Call("history.sync", json.RawMessage(`{"remote":`+quoteJSON(remote)+`}`))
		e := wantHistoryCode(t, err, CodeHistoryRemotePathRemote)
		if !strings.Contains(e.Message, bare) {
			t.Fatalf("message = %q", e.Message)
		}
	}
	if st := mustCall(t, user, "history.status", `{}`).(HistoryStatus); st.Remote != "" {
		t.Fatalf("a refused remote was kept: %+v", st)
	}
	// Refused as what it is, not as a folder: the browser's caller gets the same error.
	for _, caller := range []*API{user, bridge} {
		for _, bad := range []string{`"a\u0000b"`, `"relative/dir"`, `"-oProxyCommand=x"`} {
			_, err := caller.Call("history.sync", json.RawMessage(`{"remote":`+bad+`}`))
			wantHistoryCode(t, err, history.CodeRemoteInvalid)
		}
	}
	// Set in the window, the folder remote then syncs from the browser too.
	mustCall(t, user, "history.sync", `{"remote":`+quoteJSON(bare)+`}`)
	if res := mustCall(t, bridge, "history.sync", `{}`).(history.SyncResult); res.Remote != bare {
		t.Fatalf("bridge sync with the remote set: %+v", res)
	}
}

// A memory deleted and purged from the trash could not be reached through history: its id
// resolved to nothing, so neither versions nor restore named it. history.deleted lists it and
// history.restore by path brings it back as itself — for a person only.
func TestHistoryRestoresAPurgedMemory(t *testing.T) {
	user, tool := historyAPIs(t)
	mustCall(t, user, "history.enable", `{}`)
	w := mustCall(t, user, "memory.write", `{"scope":"global","type":"user","slug":"likes-tea","title":"Likes tea","body":"Drinks green tea.","confidence":"medium","source_quote":"green tea"}`).(ItemResult)
	mustCall(t, user, "memory.delete", `{"id":"`+w.ID+`"}`)
	if _, err := user.deps.Store.Cleanup(context.Background(), -time.Hour, false); err != nil { // the trash purged
		t.Fatal(err)
	}
	if _, err := user.Call("history.versions", json.RawMessage(`{"id":"`+w.ID+`"}`)); err == nil {
		t.Fatal("the purged memory still resolves by id")
	}
	ds := mustCall(t, tool, "history.deleted", `{}`).(DeletedResult)
	if !ds.Enabled || len(ds.Memories) != 1 || ds.Memories[0].ID != w.ID || ds.Memories[0].Slug != "likes-tea" {
		t.Fatalf("deleted: %+v", ds)
	}
	d := ds.Memories[0]
	_, err := tool.Call("history.restore", json.RawMessage(`{"path":"`+d.Path+`","commit":"`+d.Commit+`"}`))
	wantHistoryCode(t, err, CodeHistoryPersonOnly)
	if r := mustCall(t, user, "history.restore", `{"path":"`+d.Path+`","commit":"`+d.Short+`"}`).(ItemResult); !r.OK || r.ID != w.ID {
		t.Fatalf("restore: %+v", r)
	}
	if m := mustCall(t, user, "memory.read", `{"id":"`+w.ID+`"}`).(ReadResult); m.Memory.Body != "Drinks green tea." {
		t.Fatalf("restored: %+v", m.Memory)
	}
	if ds = mustCall(t, user, "history.deleted", `{}`).(DeletedResult); len(ds.Memories) != 0 {
		t.Fatalf("still listed after the restore: %+v", ds)
	}
}
