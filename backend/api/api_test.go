package api

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/settings"
)

func newAPI(t *testing.T, actor string) *API {
	t.Helper()
	return newAPIWith(t, actor, nil)
}

// newAPIWith is newAPI with deps changed by with (a history, an organizer) before the API is
// made over them.
func newAPIWith(t *testing.T, actor string, with func(st *memory.Store, d *Deps)) *API {
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
	set := settings.New(st, "en")
	d := Deps{Store: st, Catalog: cat, Settings: set, Events: NewHub(st, set), Recall: recall.New(st, recall.Options{}), Version: "test"}
	if with != nil {
		with(st, &d)
	}
	return New(ctx, d, actor)
}

// The route table is the only list of methods: each "noun.verb" must be the bound Wails
// method <Noun>Service.<Verb>, and every exported method of a bound service must be in it.
func TestTableMatchesBindings(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	inTable := map[string]bool{}
	for _, m := range a.Methods() {
		inTable[m.Name] = true
		noun, verb, ok := strings.Cut(m.Name, ".")
		if !ok {
			t.Fatalf("method %q is not noun.verb", m.Name)
		}
		found := false
		for _, b := range a.Bindings() {
			typ := reflect.TypeOf(b)
			if typ.Elem().Name() != strings.ToUpper(noun[:1])+noun[1:]+"Service" {
				continue
			}
			if _, ok := typ.MethodByName(strings.ToUpper(verb[:1]) + verb[1:]); ok {
				found = true
			}
		}
		if !found {
			t.Errorf("%s has no bound method", m.Name)
		}
	}
	for _, b := range a.Bindings() {
		typ := reflect.TypeOf(b)
		noun := strings.TrimSuffix(typ.Elem().Name(), "Service")
		for i := 0; i < typ.NumMethod(); i++ {
			verb := typ.Method(i).Name
			name := strings.ToLower(noun[:1]) + noun[1:] + "." + strings.ToLower(verb[:1]) + verb[1:]
			if !inTable[name] {
				t.Errorf("bound method %s.%s is missing from the table (%s)", typ.Elem().Name(), verb, name)
			}
			if typ.Method(i).Type.NumIn() != 2 || typ.Method(i).Type.NumOut() != 2 {
				t.Errorf("%s must take one params value and return (result, error)", name)
			}
		}
	}
}

func TestCallErrors(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	cases := []struct {
		name, method, params, code string
	}{
		{"unknown method", "memory.nope", `{}`, CodeUnknownMethod},
		{"unknown field", "memory.list", `{"bogus":1}`, CodeInvalidParams},
		{"wrong type", "memory.list", `{"limit":"x"}`, CodeInvalidParams},
		{"malformed", "memory.search", `{"query":`, CodeInvalidParams},
		{"project without workdir", "memory.search", `{"query":"x","scope":"project"}`, CodeWorkdirMissing},
		{"write project without workdir", "memory.write", `{"scope":"project","type":"user","slug":"abc","title":"t","body":"b"}`, CodeWorkdirMissing},
		{"not found", "memory.read", `{"id":"01ARZ3NDEKTSV4RRFFQ69G5FAV"}`, memory.CodeNotFound},
		{"bad slug", "memory.write", `{"scope":"global","type":"user","slug":"Bad Slug","title":"t","body":"b"}`, memory.CodeInvalidSlug},
		{"bad setting", "settings.update", `{"language":"fr"}`, CodeInvalidSetting},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := a.Call(tc.method, json.RawMessage(tc.params))
			var ae *Error
			if !errors.As(err, &ae) {
				t.Fatalf("want *Error, got %v", err)
			}
			if ae.Code != tc.code {
				t.Fatalf("code %q, want %q (%s)", ae.Code, tc.code, ae.Message)
			}
			if ae.I18nKey == "" || ae.Message == "" || strings.Contains(ae.Message, "{{") {
				t.Fatalf("untranslated error: %+v", ae)
			}
			// The Wails transport hands Error() to the UI: it must be the JSON form.
			var back Error
			if err := json.Unmarshal([]byte(ae.Error()), &back); err != nil || back.Code != tc.code {
				t.Fatalf("Error() is not JSON: %q", ae.Error())
			}
		})
	}
}

func TestErrorsFollowLanguage(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	if _, err := a.Call("settings.update", json.RawMessage(`{"language":"zh-CN"}`)); err != nil {
		t.Fatal(err)
	}
	_, err := a.Call("memory.read", json.RawMessage(`{"id":"01ARZ3NDEKTSV4RRFFQ69G5FAV"}`))
	var ae *Error
	if !errors.As(err, &ae) || !strings.Contains(ae.Message, "未找到") {
		t.Fatalf("want a Chinese message, got %v", err)
	}
}

// A reason a package names by key (DetailKey) reads in the caller's language: a Chinese
// message no longer carries an English "days must be between 1 and 366".
func TestErrorDetailFollowsLanguage(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	calls := []struct {
		method, params string
		en, zh         string
	}{
		{"usage.summary", `{"days":-3}`, "give 1 to 366 days", "请给出 1 到 366 天"},
		{"quota.history", `{"days":9999}`, "give 1 to 400 days", "请给出 1 到 400 天"},
		{"daily.search", `{"query":"` + strings.Repeat("x", 600) + `"}`, "at most 512 bytes", "不超过 512 字节"},
		{"kv.set", `{"agent":"claude","key":"k"}`, "no value was given", "没有给出值"},
		{"backup.preview", `{"path":"` + filepath.Join(t.TempDir(), "gone.tar.gz") + `"}`, "there is no such file or folder", "没有这个文件或文件夹"},
	}
	for _, lang := range []string{"en", "zh-CN"} {
		if _, err := a.Call("settings.update", json.RawMessage(`{"language":"`+lang+`"}`)); err != nil {
			t.Fatal(err)
		}
		for _, c := range calls {
			_, err := a.Call(c.method, json.RawMessage(c.params))
			var ae *Error
			if !errors.As(err, &ae) {
				t.Fatalf("%s %s: %v", lang, c.method, err)
			}
			want := c.en
			if lang == "zh-CN" {
				want = c.zh
				for _, english := range []string{"days must", "query must", "missing or null", "no such file or directory"} {
					if strings.Contains(ae.Message, english) {
						t.Errorf("%s: English reason in a Chinese message: %q", c.method, ae.Message)
					}
				}
			}
			if !strings.Contains(ae.Message, want) || ae.Args[DetailKey] == nil {
				t.Errorf("%s %s: %q (args %v), want it to say %q", lang, c.method, ae.Message, ae.Args, want)
			}
		}
	}
}

func TestWriteReadSearchThroughTable(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	// Events arrive on the hub's goroutines too (graph.changed comes from a timer).
	var mu sync.Mutex
	var events []string
	a.deps.Events.Subscribe(func(name string, _ any) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, name)
	})
	res, err := a.Call("memory.write", json.RawMessage(`{"scope":"global","type":"user","slug":"likes-tea",
		"title":"Likes tea","body":"Drinks **green tea** <script>alert(1)</script>","confidence":"high","source_quote":"I drink green tea"}`))
	if err != nil {
		t.Fatal(err)
	}
	ir := res.(ItemResult)
	if !ir.OK || ir.AppliedConfidence != memory.ConfidenceHigh || ir.ID == "" {
		t.Fatalf("write result %+v", ir)
	}
	out, err := a.Call("memory.read", json.RawMessage(`{"id":"`+ir.ID+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	rd := out.(ReadResult)
	if !strings.Contains(rd.HTML, "<strong>green tea</strong>") || strings.Contains(rd.HTML, "<script>") {
		t.Fatalf("html not rendered safely: %s", rd.HTML)
	}
	sr, err := a.Call("memory.search", json.RawMessage(`{"query":"green tea"}`))
	if err != nil {
		t.Fatal(err)
	}
	if hits := sr.(SearchResult).Hits; len(hits) != 1 || hits[0].Memory.ID != ir.ID {
		t.Fatalf("search hits %+v", hits)
	}
	// A stale expected_version is refused with a translated conflict.
	_, err = a.Call("memory.update", json.RawMessage(`{"id":"`+ir.ID+`","expected_version":"0000","body":"more"}`))
	var ae *Error
	if !errors.As(err, &ae) || ae.Code != memory.CodeVersionConflict {
		t.Fatalf("want version_conflict, got %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) == 0 || events[0] != EventMemoryChanged {
		t.Fatalf("no memory.changed event: %v", events)
	}
}

func TestBatchPartialFailureTranslated(t *testing.T) {
	a := newAPI(t, "bridge")
	out, err := a.Call("memory.applyBatch", json.RawMessage(`{"items":[
		{"op":"write","scope":"global","type":"user","slug":"ok-one","title":"t","body":"b"},
		{"op":"write","scope":"global","type":"nope","slug":"bad-one","title":"t","body":"b"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	br := out.(BatchResult)
	if br.Applied != 1 || br.Failed != 1 || !br.Results[0].OK || br.Results[1].Code != memory.CodeInvalidType || br.Results[1].Message == "" {
		t.Fatalf("batch %+v", br)
	}
	h, err := a.Call("memory.history", json.RawMessage(`{"id":"`+br.Results[0].ID+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	if e := h.(HistoryResult).Entries; len(e) != 1 || e[0].Actor != "bridge" {
		t.Fatalf("audit %+v", e)
	}
}

// A file the parser refuses is listed, and named by doctor, with the parser's reason in the
// caller's language (it read "memory: invalid frontmatter: yaml: …" inside Chinese).
func TestProblemDetailFollowsLanguage(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	st := a.deps.Store
	if err := os.MkdirAll(filepath.Join(st.Root(), "global", "user"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(st.Root(), "global", "user", "broken.md"), []byte("---\nid: [unclosed\n---\nbody\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ lang, want string }{{"en", "the header is not valid YAML at line 2 ("}, {"zh-CN", "文件头第 2 行不是有效的 YAML（"}} {
		if _, err := a.Call("settings.update", json.RawMessage(`{"language":"`+tc.lang+`"}`)); err != nil {
			t.Fatal(err)
		}
		res, err := a.Call("memory.problems", json.RawMessage(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		ps := res.(ProblemsResult).Problems
		if len(ps) != 1 || ps[0].DetailKey != "detail.yaml_unclosed_list" || !strings.Contains(ps[0].Detail, tc.want) {
			t.Fatalf("%s problems: %+v", tc.lang, ps)
		}
		doc, err := a.Call("index.doctor", json.RawMessage(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range doc.(memory.DoctorReport).Findings {
			if f.Code == "unparsable_file" && strings.Contains(f.Message, tc.want) && !strings.Contains(f.Message, "invalid frontmatter") {
				found = true
			}
		}
		if !found {
			t.Fatalf("%s doctor findings: %+v", tc.lang, doc.(memory.DoctorReport).Findings)
		}
	}
}
