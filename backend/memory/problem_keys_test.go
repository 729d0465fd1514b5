package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// downTo21 takes e's index back to schema 21 as far as the problems table goes: steps 22 and
// 23 undone, so the next open applies them again.
func downTo21(t *testing.T, e *env) {
	t.Helper()
	for _, q := range []string{
		`DELETE FROM schema_migrations WHERE version >= 22`,
		`ALTER TABLE memory_problems DROP COLUMN detail_key`,
		`ALTER TABLE memory_problems DROP COLUMN detail_args`,
		`ALTER TABLE session_turns DROP COLUMN cut_bytes`, // step 25
		`DROP INDEX session_turns_scope`, `ALTER TABLE session_turns DROP COLUMN scope_key`,
		`ALTER TABLE session_turns DROP COLUMN workdir`, // step 28
	} {
		if _, err := e.s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// A problem keeps the key and arguments its reason was found with: Problems hands them out as
// they were recorded, whatever the English beside them says. Before, they were read back from
// the English (three parsers of it: the parser's reasons, a field's limit, the hand files'),
// and a wording that did not read back lost the key.
func TestProblemKeepsTheKeyItWasFoundWith(t *testing.T) {
	e := newEnv(t)
	files := map[string]struct {
		data []byte
		key  string
		args map[string]any
	}{
		"global/user/long-title.md": {handFile("01JB0000000000000000000901", strings.Repeat("T", 200), "b"), "detail.field_too_long",
			map[string]any{"Field": "title", "Len": 200, "Max": MaxTitleChars}},
		"global/user/repeated.md": {[]byte("---\nid: 01JB0000000000000000000902\ntitle: a\ntitle: b\n---\nb\n"), "detail.yaml_repeated_field",
			map[string]any{"Field": "title", "Line": 4}},
		"global/user/too-big.md": {handFile("01JB0000000000000000000903", "Big", strings.Repeat("x", MaxBodyBytes+1)), "detail.bytes_over",
			map[string]any{"Size": MaxBodyBytes + 1, "Max": MaxBodyBytes}},
		"global/user/Bad_Name.md": {handFile("01JB0000000000000000000904", "Bad", "b"), "detail.bad_slug", map[string]any{"Name": "Bad_Name"}},
		"global/user/sure.md": {[]byte("---\nid: 01JB0000000000000000000905\nconfidence: sure\n---\nb\n"), "detail.bad_confidence",
			map[string]any{"Value": "sure"}},
	}
	for rel, f := range files {
		e.put(rel, f.data)
	}
	e.reconcile()
	check := func(when string) {
		t.Helper()
		for rel, f := range files {
			p := e.problemAt(rel)
			if p == nil || p.DetailKey != f.key {
				t.Fatalf("%s: %s: problem %+v, want key %s", when, rel, p, f.key)
			}
			for k, v := range f.args {
				if p.DetailArgs[k] != v {
					t.Fatalf("%s: %s: %s = %v (%T), want %v (%+v)", when, rel, k, p.DetailArgs[k], p.DetailArgs[k], v, p.DetailArgs)
				}
			}
		}
	}
	check("recorded")
	if _, err := e.s.db.Exec(`UPDATE memory_problems SET detail = 'worded by another build'`); err != nil {
		t.Fatal(err)
	}
	check("with other words beside them")
}

// Migration 23: the problems an older build recorded (English only) are read again at the
// upgrade and keep their key from then on; a lost id's problem, which that reading needs,
// stands until it is read.
func TestProblemKeysRecordedAtUpgrade(t *testing.T) {
	e := newEnv(t)
	rel := "global/user/broken.md"
	e.put(rel, []byte("---\nid: 01JB0000000000000000000911\ntags: [a, b\n---\nb\n"))
	e.reconcile()
	downTo21(t, e)
	if n := e.count(`SELECT COUNT(*) FROM memory_problems WHERE path = ?`, rel); n != 1 {
		t.Fatalf("at schema 21: %d problems", n)
	}
	e.reopen()
	p := e.problemAt(rel)
	if p == nil || p.DetailKey != "detail.yaml_unclosed_list" || p.DetailArgs["Line"] != 2 {
		t.Fatalf("after the upgrade: %+v", p)
	}
}

// An agent's kv.json that cannot be used is listed with its fault's key and arguments from the
// one reading that found it: Problems read the file a second time to learn the key, and a file
// edited between the two readings got a key that did not match its words.
func TestKVProblemsCarryTheirKey(t *testing.T) {
	e := newEnv(t)
	e.put("agents/a/kv.json", []byte("{\n  \"a\": 1,\n  \"b\" 2\n}"))
	ps := e.s.kvProblems()
	if len(ps) != 1 || ps[0].Code != ProblemKVFile || ps[0].DetailKey != "detail.kv_not_json_line" ||
		ps[0].DetailArgs["Line"] != 3 || !strings.Contains(ps[0].Detail, "not JSON") {
		t.Fatalf("kv problems %+v", ps)
	}
}

// A linked kv.json is one problem: the walk reports the link (never followed) and the kv check
// found the same file; doctor said "Could not read 2 files" for it.
func TestLinkedKVFileIsOneProblem(t *testing.T) {
	e := newEnv(t)
	outside := filepath.Join(t.TempDir(), "kv.json")
	if err := os.WriteFile(outside, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(e.s.Root(), "agents", "d2")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "kv.json")); err != nil {
		t.Fatal(err)
	}
	e.reconcile()
	ps, err := e.s.Problems(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range ps {
		if p.Path == "agents/d2/kv.json" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("agents/d2/kv.json listed %d times: %+v", n, ps)
	}
}
