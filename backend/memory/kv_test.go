package memory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func (e *env) kvSet(agent, key, value string) (KVSetResult, error) {
	return e.s.KVSet(e.ctx, KVChange{Agent: agent, Key: key, Value: json.RawMessage(value), Actor: ActorUser})
}

func (e *env) kvMust(agent, key, value string) {
	e.t.Helper()
	if _, err := e.kvSet(agent, key, value); err != nil {
		e.t.Fatalf("kv set %s %s: %v", agent, key, err)
	}
}

func wantKVCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := CodeOf(err); err == nil || got != code {
		t.Fatalf("%s: got %v (code %s), want %s", what, err, got, code)
	}
}

func pageKeys(p KVPage) []string {
	out := []string{}
	for _, e := range p.Entries {
		out = append(out, e.Key)
	}
	return out
}

func TestKVSetGetDeleteList(t *testing.T) {
	e := newEnv(t)
	for _, kv := range [][2]string{
		{"project:version", `"1.4.2"`}, {"project:name", `"engram"`}, {"project:deps", `{"go": "1.26", "vue": 3}`},
		{"user:editor", `"helix"`}, {"count", `42`}, {"flags", `[true, false]`}, {"名字", `"小明"`},
	} {
		res, err := e.kvSet("claude", kv[0], kv[1])
		if err != nil || !res.Created || !res.Changed {
			t.Fatalf("set %s: %+v %v", kv[0], res, err)
		}
	}
	// Setting the same value again writes nothing; another value changes it.
	if res, err := e.kvSet("claude", "count", ` 42 `); err != nil || res.Changed || res.Created {
		t.Fatalf("same value: %+v %v", res, err)
	}
	if res, err := e.kvSet("claude", "count", `43`); err != nil || !res.Changed || res.Created {
		t.Fatalf("new value: %+v %v", res, err)
	}
	gets := []struct{ key, want string }{
		{"project:version", `"1.4.2"`}, {"project:deps", `{"go":"1.26","vue":3}`}, {"count", `43`}, {"名字", `"小明"`},
	}
	for _, g := range gets {
		v, err := e.s.KVGet(e.ctx, "claude", g.key)
		if err != nil || string(v) != g.want {
			t.Errorf("get %s: %s %v, want %s", g.key, v, err, g.want)
		}
	}
	// Namespaces are per agent.
	_, err := e.s.KVGet(e.ctx, "codex", "project:version")
	wantKVCode(t, "other agent", err, CodeKVNotFound)

	lists := []struct {
		prefix, cursor string
		limit          int
		want           []string
		total          int
		next           string
	}{
		{"", "", 0, []string{"count", "flags", "project:deps", "project:name", "project:version", "user:editor", "名字"}, 7, ""},
		{"project:", "", 0, []string{"project:deps", "project:name", "project:version"}, 3, ""},
		{"project:", "", 2, []string{"project:deps", "project:name"}, 3, "project:name"},
		{"project:", "project:name", 2, []string{"project:version"}, 3, ""},
		{"", "flags", 1, []string{"project:deps"}, 7, "project:deps"},
		{"user:", "", 5, []string{"user:editor"}, 1, ""},
		{"nothing:", "", 5, []string{}, 0, ""},
	}
	for _, l := range lists {
		p, err := e.s.KVList(e.ctx, "claude", l.prefix, l.cursor, l.limit)
		if err != nil {
			t.Fatal(err)
		}
		if got := pageKeys(p); fmt.Sprint(got) != fmt.Sprint(l.want) || p.Total != l.total || p.NextCursor != l.next {
			t.Errorf("list %q after %q limit %d: %v total %d next %q; want %v %d %q", l.prefix, l.cursor, l.limit, got, p.Total, p.NextCursor, l.want, l.total, l.next)
		}
	}
	// Paging by the cursor visits every key once.
	var all []string
	cursor := ""
	for {
		p, err := e.s.KVList(e.ctx, "claude", "", cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, pageKeys(p)...)
		if p.NextCursor == "" {
			break
		}
		cursor = p.NextCursor
	}
	if len(all) != 7 {
		t.Fatalf("paged %v", all)
	}

	if err := e.s.KVDelete(e.ctx, KVChange{Agent: "claude", Key: "count", Actor: ActorUser}); err != nil {
		t.Fatal(err)
	}
	_, err = e.s.KVGet(e.ctx, "claude", "count")
	wantKVCode(t, "deleted", err, CodeKVNotFound)
	wantKVCode(t, "delete twice", e.s.KVDelete(e.ctx, KVChange{Agent: "claude", Key: "count", Actor: ActorUser}), CodeKVNotFound)

	// The file is canonical: an indented object with keys in byte order, read back as written.
	data := e.file("agents/claude/kv.json")
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil || len(obj) != 6 {
		t.Fatalf("kv.json: %v %s", err, data)
	}
	if !bytes.HasPrefix(data, []byte("{\n  \"flags\": [")) || !bytes.Contains(data, []byte(`"名字": "小明"`)) {
		t.Fatalf("kv.json is not canonical:\n%s", data)
	}

	// Every change left an audit row naming the agent and key, never the value.
	rows, err := e.s.db.Query(`SELECT op, actor, scope, scope_key, slug, memory_id, detail FROM memory_audit_log WHERE op LIKE 'kv_%' ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ops []string
	for rows.Next() {
		var op, actor, scope, agent, slug, id, detail string
		if err := rows.Scan(&op, &actor, &scope, &agent, &slug, &id, &detail); err != nil {
			t.Fatal(err)
		}
		if actor != ActorUser || scope != "agent" || agent != "claude" || id != "" || slug == "" ||
			!strings.Contains(detail, `"key":`+strconvQuote(slug)) ||
			strings.Contains(detail, "1.4.2") || strings.Contains(detail, "小明") {
			t.Errorf("audit row %s %s %s %s %s %s", op, actor, scope, agent, slug, detail)
		}
		ops = append(ops, op)
	}
	if len(ops) != 9 || ops[0] != OpKVSet || ops[8] != OpKVDelete {
		t.Fatalf("audit ops %v", ops)
	}
}

func TestKVLimitsAndRefusals(t *testing.T) {
	e := newEnv(t)
	big := `"` + strings.Repeat("x", MaxKVValueBytes-2) + `"`
	cases := []struct {
		name, agent, key, value, code string
	}{
		{"key 256 bytes", "claude", strings.Repeat("k", 256), `"v"`, ""},
		{"key 257 bytes", "claude", strings.Repeat("k", 257), `"v"`, CodeKVInvalidKey},
		{"CJK key over 256 bytes", "claude", strings.Repeat("键", 86), `"v"`, CodeKVInvalidKey},
		{"empty key", "claude", "", `"v"`, CodeKVInvalidKey},
		{"newline in key", "claude", "a\nb", `"v"`, CodeKVInvalidKey},
		{"tab in key", "claude", "a\tb", `"v"`, CodeKVInvalidKey},
		{"NUL in key", "claude", "a\x00b", `"v"`, CodeKVInvalidKey},
		{"bidi override in key", "claude", "a\u202eb", `"v"`, CodeKVInvalidKey},
		{"leading space", "claude", " a", `"v"`, CodeKVInvalidKey},
		{"invalid UTF-8", "claude", "a\xffb", `"v"`, CodeKVInvalidKey},
		{"value 64 KiB", "claude", "big", big, ""},
		{"value 64 KiB + 1", "claude", "big2", `"` + strings.Repeat("x", MaxKVValueBytes-1) + `"`, CodeKVValueTooLarge},
		{"not JSON", "claude", "k", `1.4.2`, CodeKVInvalidValue},
		{"null", "claude", "k", `null`, CodeKVInvalidValue},
		{"missing", "claude", "k", ``, CodeKVInvalidValue},
		{"two values", "claude", "k", `1 2`, CodeKVInvalidValue},
		{"bad agent", "Claude!", "k", `"v"`, CodeInvalidAgent},
		{"path agent", "../global", "k", `"v"`, CodeInvalidAgent},
		{"empty agent", "", "k", `"v"`, CodeInvalidAgent},
		{"secret in value", "claude", "token", `"ghp_` + strings.Repeat("a1B2", 9) + `"`, CodeSecretDetected},
		{"secret in key", "claude", "AKIAZ7QXW3RT5YUI9OP2", `"v"`, CodeSecretDetected},
		{"secret nested", "claude", "cfg", `{"db": {"url": "postgres://app:S3cr3t-pass-9@db.internal/app"}}`, CodeSecretDetected},
		{"secret behind escapes", "claude", "k", `"ghp\u005f` + strings.Repeat("a1B2", 9) + `"`, CodeSecretDetected},
		{"secret as member name", "claude", "k", `{"sk-ant-api03-` + strings.Repeat("Ab9_", 6) + `": 1}`, CodeSecretDetected},
		{"key holding an assignment", "claude", "OPENAI_API_KEY=sk-proj-" + strings.Repeat("Zq8x", 8), `"v"`, CodeSecretDetected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.kvSet(c.agent, c.key, c.value)
			if c.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			wantKVCode(t, c.name, err, c.code)
			if strings.Contains(err.Error(), "a1B2a1B2") || strings.Contains(err.Error(), "S3cr3t") {
				t.Fatalf("the error echoes the secret: %v", err)
			}
		})
	}
	// Reads check agent and key like writes.
	_, err := e.s.KVGet(e.ctx, "../x", "k")
	wantKVCode(t, "get bad agent", err, CodeInvalidAgent)
	_, err = e.s.KVList(e.ctx, "A B", "", "", 0)
	wantKVCode(t, "list bad agent", err, CodeInvalidAgent)
	wantKVCode(t, "delete bad key", e.s.KVDelete(e.ctx, KVChange{Agent: "claude", Key: "a\x01"}), CodeKVInvalidKey)
	if e.exists("agents/global/kv.json") || e.exists("kv.json") {
		t.Fatal("a refused agent name wrote a file")
	}

	// At 10,000 keys a new key is refused; existing keys still change and delete.
	full := map[string]json.RawMessage{}
	for i := 0; i < MaxKVKeys; i++ {
		full[fmt.Sprintf("k%05d", i)] = json.RawMessage(`1`)
	}
	data, err := renderKV(full)
	if err != nil {
		t.Fatal(err)
	}
	e.put("agents/full/kv.json", data)
	_, err = e.kvSet("full", "one-more", `1`)
	wantKVCode(t, "10,001st key", err, CodeKVTooManyKeys)
	if _, err := e.kvSet("full", "k00001", `2`); err != nil {
		t.Fatalf("change at the limit: %v", err)
	}
	if err := e.s.KVDelete(e.ctx, KVChange{Agent: "full", Key: "k00002"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.kvSet("full", "one-more", `1`); err != nil {
		t.Fatalf("after a delete: %v", err)
	}
}

// Two stores on one home (as the app, engram mcp and the CLI are) write at once: no key is lost.
func TestKVConcurrentStoresLoseNothing(t *testing.T) {
	e := newEnv(t)
	other := e.open()
	defer other.Close()
	const perWriter = 40
	stores := []*Store{e.s, other, e.s, other}
	errs := make(chan error, len(stores)*perWriter)
	done := make(chan struct{})
	for w, s := range stores {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < perWriter; i++ {
				_, err := s.KVSet(e.ctx, KVChange{Agent: "shared", Key: fmt.Sprintf("w%d:%03d", w, i), Value: json.RawMessage(fmt.Sprint(i)), Actor: ActorTool})
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	for range stores {
		<-done
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	p, err := other.KVList(e.ctx, "shared", "", "", MaxKVListLimit)
	if err != nil {
		t.Fatal(err)
	}
	if p.Total != len(stores)*perWriter {
		t.Fatalf("%d keys, want %d", p.Total, len(stores)*perWriter)
	}
}

// The kv file is not a memory: the walk, reconcile, doctor and quota never see it.
func TestKVFileIsNotAMemory(t *testing.T) {
	e := newEnv(t)
	e.ok(Item{Op: OpWrite, Scope: ScopeAgent, Agent: "claude", Type: TypeUser, Slug: "likes-tea", Title: sp("Tea"), Body: sp("Likes tea.")})
	before, err := e.s.Quota(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		e.kvMust("claude", fmt.Sprintf("fact:%02d", i), `"x"`)
	}
	e.kvMust("fresh-agent", "only", `"kv"`)
	rep := e.reconcile()
	if rep.Problems != 0 || rep.Added != 0 || rep.Removed != 0 {
		t.Fatalf("reconcile saw the kv files: %+v", rep)
	}
	full, err := e.s.Reindex(e.ctx)
	if err != nil || full.Problems != 0 || full.Scanned != 1 {
		t.Fatalf("reindex: %+v %v", full, err)
	}
	after, err := e.s.Quota(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(before.Scopes) != fmt.Sprint(after.Scopes) {
		t.Fatalf("quota moved: %+v → %+v", before.Scopes, after.Scopes)
	}
	doc, err := e.s.Doctor(e.ctx)
	if err != nil || !doc.OK || len(doc.Problems) != 0 || doc.Memories != 1 {
		t.Fatalf("doctor: %+v %v", doc, err)
	}
}

// A kv.json broken by hand is reported and left as it is; writes are refused, never clobber it.
func TestKVHandBrokenFileReportedAndUntouched(t *testing.T) {
	cases := []struct{ name, content, detail string }{
		{"not JSON", `{"a": 1,`, "not JSON"},
		{"array", `["a"]`, "not a JSON object"},
		{"repeated key", `{"a": 1, "a": 2}`, "repeats a key"},
		{"null value", `{"a": null}`, "entry 1"},
		{"control char in key", "{\"a\\u0001\": 1}", "unprintable"},
		{"long key", `{"` + strings.Repeat("k", 300) + `": 1}`, "key 300 bytes"},
		{"secret", `{"gh": "ghp_` + strings.Repeat("a1B2", 9) + `"}`, "secret (github_token)"},
		{"trailing text", `{"a": 1} {"b": 2}`, "text after"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.kvMust("claude", "keep", `"me"`)
			e.put("agents/claude/kv.json", []byte(c.content))
			rel := "agents/claude/kv.json"
			ps, err := e.s.Problems(e.ctx)
			if err != nil || len(ps) != 1 || ps[0].Path != rel || ps[0].Code != ProblemKVFile || !strings.Contains(ps[0].Detail, c.detail) {
				t.Fatalf("problems %+v %v", ps, err)
			}
			if strings.Contains(ps[0].Detail, "a1B2a1B2") {
				t.Fatalf("the problem echoes the secret: %s", ps[0].Detail)
			}
			_, err = e.kvSet("claude", "new", `1`)
			wantKVCode(t, "set", err, CodeKVFileInvalid)
			wantKVCode(t, "delete", e.s.KVDelete(e.ctx, KVChange{Agent: "claude", Key: "keep"}), CodeKVFileInvalid)
			_, err = e.s.KVGet(e.ctx, "claude", "keep")
			wantKVCode(t, "get", err, CodeKVFileInvalid)
			_, err = e.s.KVList(e.ctx, "claude", "", "", 0)
			wantKVCode(t, "list", err, CodeKVFileInvalid)
			var buf bytes.Buffer
			_, err = e.s.Export(e.ctx, &buf, Filter{})
			wantKVCode(t, "export", err, CodeKVFileInvalid)
			rep, err := e.s.Import(e.ctx, strings.NewReader(`{"kind":"kv","agent":"claude","key":"x","value":1}`+"\n"))
			if err != nil || rep.KV != 0 || len(rep.Errors) != 1 || rep.Errors[0].Code != CodeKVFileInvalid {
				t.Fatalf("import: %+v %v", rep, err)
			}
			doc, err := e.s.Doctor(e.ctx)
			if err != nil || doc.OK || len(doc.Problems) != 1 {
				t.Fatalf("doctor: %+v %v", doc, err)
			}
			if got := string(e.file(rel)); got != c.content {
				t.Fatalf("the file was rewritten: %q", got)
			}
			// Reconcile never files it as a memory problem; the memory walk does not read it.
			var n int
			if err := e.s.db.QueryRow(`SELECT COUNT(*) FROM memory_problems`).Scan(&n); err != nil || n != 0 {
				t.Fatalf("memory_problems %d %v", n, err)
			}
			// Fixed by hand, it works again and the problem goes.
			e.put(rel, []byte(`{"keep": "me"}`))
			if _, err := e.kvSet("claude", "new", `1`); err != nil {
				t.Fatal(err)
			}
			if ps, _ := e.s.Problems(e.ctx); len(ps) != 0 {
				t.Fatalf("problems after the fix: %+v", ps)
			}
		})
	}
}

// A kv.json that is a symbolic link is never followed: reported, reads and writes refused.
func TestKVLinkNeverFollowed(t *testing.T) {
	e := newEnv(t)
	outside := filepath.Join(t.TempDir(), "elsewhere.json")
	if err := os.WriteFile(outside, []byte(`{"a": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(e.s.Root(), "agents", "claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(e.s.Root(), "agents", "claude", KVFileName)); err != nil {
		t.Fatal(err)
	}
	_, err := e.kvSet("claude", "b", `2`)
	wantKVCode(t, "set through a link", err, CodeKVFileInvalid)
	if _, err := e.s.KVGet(e.ctx, "claude", "a"); err == nil {
		t.Fatal("read through a link")
	}
	if ps, _ := e.s.Problems(e.ctx); len(ps) != 1 || ps[0].Code != ProblemSymlink {
		t.Fatalf("problems %+v", ps)
	}
	if data, _ := os.ReadFile(outside); string(data) != `{"a": 1}` {
		t.Fatalf("the link's target changed: %s", data)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
