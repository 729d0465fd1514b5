package api

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/settings"
)

// Issue 8 item 14: people never read "<no value>": an uncoded item failure shows its detail,
// a slug held by a broken file names the file.
func TestItemFailuresReadWell(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	root := a.deps.Store.Root()
	if err := os.MkdirAll(filepath.Join(root, "global", "user"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "global", "user", "held-slug.md"), []byte("---\nid: [\n---\nbroken\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := a.Call("memory.applyBatch", json.RawMessage(`{"items":[
		{"op":"write","scope":"global","type":"user","slug":"held-slug","title":"t","body":"b"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	br := out.(BatchResult)
	held := br.Results[0]
	// A failure below the coded checks (a disk error, say) reaches people with its detail.
	internal := a.itemResult(memory.ItemResult{Op: memory.OpWrite, Code: memory.CodeInternal,
		Args: map[string]any{"Detail": "memory: unable to write global/feedback/blocked-one.md: no space left on device"}})
	if internal.Code != memory.CodeInternal || strings.Contains(internal.Message, "<no value>") || !strings.Contains(internal.Message, "global") {
		t.Fatalf("internal item: %+v", internal)
	}
	if held.Code != memory.CodeSlugHeldByUnparsable || !strings.Contains(held.Message, "global/user/held-slug.md") ||
		strings.Contains(held.Message, "update it instead") || strings.Contains(held.Message, "<no value>") {
		t.Fatalf("held item: %+v", held)
	}
	// An error built with no args at all still reads.
	if e := a.newError("something_unknown", nil); strings.Contains(e.Message, "<no value>") {
		t.Fatalf("unknown code: %q", e.Message)
	}
}

// Issue 8 items 11 and 18: the new codes and the repair notice are translated in both languages.
func TestFaultMessagesTranslated(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	for _, lang := range []string{"en", "zh-CN"} {
		if _, err := a.Call("settings.update", json.RawMessage(`{"language":"`+lang+`"}`)); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			err  error
			code string
			want string
		}{
			{&memory.Error{Code: memory.CodeHomeReadOnly, Args: map[string]any{"Home": "/srv/ro-home"}}, memory.CodeHomeReadOnly, "/srv/ro-home"},
			{errors.New("memory: unable to list index: database disk image is malformed (11)"), memory.CodeIndexCorrupt, "malformed"},
		} {
			var ae *Error
			if !errors.As(a.fail(tc.err), &ae) || ae.Code != tc.code || ae.I18nKey != "error."+tc.code ||
				!strings.Contains(ae.Message, tc.want) || strings.Contains(ae.Message, "<no value>") {
				t.Fatalf("%s: %+v", lang, ae)
			}
		}
		// What a running process answers while it rebuilds a damaged index (RepairSoon).
		if e := a.newError(memory.CodeIndexRepairing, map[string]any{"Detail": "malformed"}); e.I18nKey != "error.index_repairing" ||
			!strings.Contains(e.Message, "malformed") || strings.Contains(e.Message, "<no value>") {
			t.Fatalf("%s: %+v", lang, e)
		}
	}
}

// Issue 8 item 11 through the api: doctor on a home whose index was damaged carries the
// translated notice and one line per salvaged table.
func TestDoctorReportsRepair(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	st, err := memory.Open(ctx, home, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.ApplyBatch(ctx, memory.Batch{Items: []memory.Item{{Op: memory.OpWrite, Scope: memory.ScopeGlobal,
		Type: memory.TypeUser, Slug: "survives", Title: ptr("Survives"), Body: ptr("from its file")}}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	idx := filepath.Join(home, "memory", "index.sqlite3")
	f, err := os.OpenFile(idx, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte("this is no longer a database header!"), 0)
	f.Close()
	st, err = memory.Open(ctx, home, memory.Options{})
	if err != nil {
		t.Fatalf("open on a damaged index: %v", err)
	}
	defer st.Close()
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	set := settings.New(st, "en")
	a := New(ctx, Deps{Store: st, Catalog: cat, Settings: set, Events: NewHub(st, set), Recall: recall.New(st, recall.Options{}), Version: "test"}, memory.ActorUser)
	rep, err := a.Index.Doctor(Empty{})
	if err != nil || !rep.OK || rep.Recovery == nil {
		t.Fatalf("doctor: %v %+v", err, rep)
	}
	if !strings.Contains(rep.Recovery.Message, rep.Recovery.MovedTo) || strings.Contains(rep.Recovery.Message, "<no value>") {
		t.Fatalf("notice %q", rep.Recovery.Message)
	}
	for _, st := range rep.Recovery.Tables {
		if st.Message == "" || strings.Contains(st.Message, "<no value>") || !strings.Contains(st.Message, st.Table) {
			t.Fatalf("table line %+v", st)
		}
	}
}

func ptr(s string) *string { return &s }
