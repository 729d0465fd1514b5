package memory

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/oklog/ulid/v2"
)

// previewThenImport previews jsonl, imports it, and fails unless the import did exactly what
// the preview announced, count for count.
func (e *env) previewThenImport(jsonl string, opts ImportOptions) (ImportPreview, ImportReport) {
	e.t.Helper()
	p, err := e.s.PreviewImport(e.ctx, strings.NewReader(jsonl), ImportOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	rep, err := e.s.ImportWith(e.ctx, strings.NewReader(jsonl), opts)
	if err != nil {
		e.t.Fatal(err)
	}
	if rep.Lines != p.Lines || rep.Imported != p.New || rep.Daily != p.Daily || rep.Duplicates != p.Duplicates ||
		rep.Conflicts != p.Conflicts || rep.Repeated != p.Repeated || rep.KV != p.KV || rep.KVUnchanged != p.KVUnchanged ||
		rep.KVConflicts != p.KVConflicts || len(rep.Errors) != len(p.Errors) {
		e.t.Fatalf("the import did not do what its preview said:\npreview %+v\nimport  %+v", p, rep)
	}
	for i := range rep.Errors {
		if rep.Errors[i].Line != p.Errors[i].Line || rep.Errors[i].Code != p.Errors[i].Code || rep.Errors[i].Message != p.Errors[i].Message {
			e.t.Fatalf("error %d: import %+v, preview %+v", i, rep.Errors[i], p.Errors[i])
		}
	}
	return p, rep
}

func jsonlOf(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// D3: a line already in the store, one whose text differs there, a line repeating an earlier
// one and two lines sharing a slug or an id are no failures: the import skips, keeps and
// counts them as its preview says. The import used to fail each as already_exists while the
// preview called them "already present", and called a repeat a conflict with the store.
func TestImportDoesWhatItsPreviewSays(t *testing.T) {
	id := ulid.Make().String()
	held := `{"id":"` + ulid.Make().String() + `","slug":"held-one","title":"Held","scope":"global","type":"user","body":"held"}`
	noID := `{"slug":"noid-a","title":"No id A","scope":"global","type":"user","body":"body a"}`
	cases := []struct {
		name                              string
		before                            string // imported first, if any
		jsonl                             string
		new, present, conflicts, repeated int
		first                             []int // ConflictLines then RepeatLines: First of each
	}{
		{"second import of the same file", jsonlOf(noID), jsonlOf(noID), 0, 1, 0, 0, nil},
		{"text changed in the store", jsonlOf(noID), jsonlOf(strings.Replace(noID, "body a", "body b", 1)), 0, 0, 1, 0, []int{0}},
		{"a line said twice", "", jsonlOf(noID, noID), 1, 0, 0, 1, []int{1}},
		{"one slug, two texts", "", jsonlOf(noID, strings.Replace(noID, "body a", "body b", 1)), 1, 0, 1, 0, []int{1}},
		{"one id, two slugs", "", jsonlOf(`{"id":"`+id+`","slug":"dup-id-one","title":"One","scope":"global","type":"user","body":"first"}`,
			`{"id":"`+id+`","slug":"dup-id-two","title":"Two","scope":"global","type":"user","body":"second"}`), 1, 0, 1, 0, []int{1}},
		// The first line names the store's memory with other text (kept out); the second is the
		// store's memory as it is: already present, not "a conflict with line 1, the first is
		// kept" — line 1 was not kept.
		{"a conflict, then the store's own version", jsonlOf(held),
			jsonlOf(strings.Replace(strings.Replace(held, "held-one", "other-one", 1), `"body":"held"`, `"body":"other"`, 1), held), 0, 1, 1, 0, []int{0}},
		{"a journal entry twice", "", jsonlOf(`{"slug":"2024-05-01","title":"2024-05-01","scope":"global","type":"daily","body":"walked"}`,
			`{"slug":"2024-05-01","title":"2024-05-01","scope":"global","type":"daily","body":"walked"}`), 0, 0, 0, 1, []int{1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			if tc.before != "" {
				if _, err := e.s.Import(e.ctx, strings.NewReader(tc.before)); err != nil {
					t.Fatal(err)
				}
			}
			p, rep := e.previewThenImport(tc.jsonl, ImportOptions{})
			if p.New != tc.new || p.Duplicates != tc.present || p.Conflicts != tc.conflicts || p.Repeated != tc.repeated || len(rep.Errors) != 0 {
				t.Fatalf("preview %+v\nimport %+v", p, rep)
			}
			var firsts []int
			for _, c := range append(append([]ImportConflict{}, rep.ConflictLines...), rep.RepeatLines...) {
				firsts = append(firsts, c.First)
			}
			if fmt.Sprint(firsts) != fmt.Sprint(tc.first) {
				t.Fatalf("first lines %v, want %v (%+v %+v)", firsts, tc.first, rep.ConflictLines, rep.RepeatLines)
			}
			for _, c := range rep.ConflictLines {
				if c.Title == "" {
					t.Fatalf("a conflict names no title: %+v", c)
				}
			}
		})
	}
}

// D3: restoring your own export twice with --keep-review writes nothing the second time and
// fails nothing: memories and journal days are all already present.
func TestKeepReviewReimportIsAllPresent(t *testing.T) {
	a, b := newEnv(t), newEnv(t)
	a.ok(wr("tea-pref", "Tea", "Drinks green tea."))
	a.ok(Item{Op: OpWrite, Scope: ScopeAgent, Agent: "claude", Type: TypeFeedback, Slug: "short-answers", Title: sp("Short"), Body: sp("Keep answers short.")})
	a.ok(Item{Op: OpAppendDaily, Text: "Shipped the importer."})
	var exp bytes.Buffer
	if _, err := a.s.Export(a.ctx, &exp, Filter{}); err != nil {
		t.Fatal(err)
	}
	if _, rep := b.previewThenImport(exp.String(), ImportOptions{KeepReview: true}); rep.Imported != 2 || rep.Daily != 1 {
		t.Fatalf("first restore %+v", rep)
	}
	p, rep := b.previewThenImport(exp.String(), ImportOptions{KeepReview: true})
	if p.Duplicates != 3 || rep.Imported != 0 || rep.Daily != 0 || len(rep.Errors) != 0 {
		t.Fatalf("second restore: preview %+v import %+v", p, rep)
	}
}

// D4: the preview refuses what the import refuses — key-value lines with a secret or an agent
// name Engram cannot hold, a key set to another value (kept, listed), and a slug whose file
// on disk does not parse — and lists every refused line, not the first 50.
func TestPreviewFindsWhatTheImportRefuses(t *testing.T) {
	e := newEnv(t)
	e.kvMust("bot", "k1", `"local"`)
	e.put("global/user/held-slug.md", []byte("---\nid: [broken\n---\nbody\n"))
	lines := []string{
		`{"kind":"kv","agent":"bot","key":"k1","value":"remote"}`,
		`{"kind":"kv","agent":"bot","key":"k2","value":"ghp_` + strings.Repeat("a1B2", 9) + `"}`,
		`{"kind":"kv","agent":"../evil","key":"k","value":"v"}`,
		`{"kind":"kv","agent":"bot","key":"k3","value":{"nested":[1,2]}}`,
		`{"slug":"held-slug","title":"Held","scope":"global","type":"user","body":"x"}`,
	}
	for i := range 100 {
		lines = append(lines, fmt.Sprintf(`{"slug":"Bad Slug %d","title":"t","scope":"global","type":"user","body":"b"}`, i))
	}
	p, rep := e.previewThenImport(jsonlOf(lines...), ImportOptions{})
	if p.KV != 1 || p.KVConflicts != 1 || p.Invalid != 103 || len(p.Errors) != 104 || rep.KV != 1 {
		t.Fatalf("preview %+v", p)
	}
	want := map[int]string{1: CodeKVConflict, 2: CodeSecretDetected, 3: CodeInvalidAgent, 5: CodeSlugHeldByUnparsable, 6: CodeInvalidSlug}
	for _, le := range p.Errors[:5] {
		if want[le.Line] != le.Code {
			t.Fatalf("line %d: %s, want %s", le.Line, le.Code, want[le.Line])
		}
	}
}

// D6, D7, D9: a line with bytes that are not UTF-8 is refused with its own code (it imported
// as U+FFFD without a word); a BOM before the first line is not part of it (the first line
// was lost as "not valid JSON near character 1"); an id that is no ULID says so.
func TestImportLineEncodingAndIDs(t *testing.T) {
	good := `{"slug":"fine-one","title":"Fine","scope":"global","type":"user","body":"fine"}`
	cases := []struct {
		name  string
		jsonl string
		codes map[int]string
	}{
		{"bytes that are not UTF-8", jsonlOf(good, `{"slug":"bad-utf","title":"Bad","scope":"global","type":"user","body":"x`+"\xff\xfe"+`y"}`),
			map[int]string{2: CodeLineNotUTF8}},
		{"a byte order mark", "\ufeff" + jsonlOf(good), map[int]string{}},
		{"an id that is no ULID", jsonlOf(good, `{"id":"not-a-ulid","slug":"odd-id","title":"Odd","scope":"global","type":"user","body":"b"}`),
			map[int]string{2: CodeImportBadID}},
		{"a time that is no RFC 3339 time", jsonlOf(good, `{"slug":"odd-time","title":"Odd","scope":"global","type":"user","body":"b","created":"2024-07-20T10:00:00Z","updated":"2024-07-21"}`),
			map[int]string{2: CodeLineBadTime}},
		{"a project line with no folder", jsonlOf(good, `{"slug":"no-folder","title":"Odd","scope":"project","type":"project","body":"b"}`),
			map[int]string{2: CodeImportNoProject}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			_, rep := e.previewThenImport(tc.jsonl, ImportOptions{})
			got := map[int]string{}
			for _, le := range rep.Errors {
				got[le.Line] = le.Code
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.codes) || rep.Imported != 1 {
				t.Fatalf("errors %v, want %v (%+v)", got, tc.codes, rep)
			}
			if e.count(`SELECT COUNT(*) FROM memory_meta WHERE body LIKE '%'||char(65533)||'%'`) != 0 {
				t.Fatal("a replacement character was imported")
			}
		})
	}
	e := newEnv(t)
	rep, _ := e.s.Import(e.ctx, strings.NewReader(jsonlOf(`{"slug":"x-y-z","title":"t","scope":"global","type":"user","body":"b","updated":"2024-07-21"}`)))
	if len(rep.Errors) != 1 || rep.Errors[0].Args["Field"] != "updated" || rep.Errors[0].Args["Value"] != "2024-07-21" {
		t.Fatalf("the time that did not parse: %+v", rep.Errors)
	}
	head := `{"slug":"x-y-z","title":"t","scope":"global","type":"user","body":"`
	rep, _ = e.s.Import(e.ctx, strings.NewReader(jsonlOf(head+"\xc3"+`"}`)))
	if len(rep.Errors) != 1 || rep.Errors[0].Args["Offset"] != len(head)+1 {
		t.Fatalf("offset of the bad byte: %+v", rep.Errors)
	}
}

// D8: a line of a converted source is named by where it came from (OriginComment), in the
// error's arguments and message and in the conflict notes; an Engram file's lines keep their
// numbers.
func TestImportNamesTheOriginOfConvertedLines(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("tea-pref", "Tea", "Drinks green tea."))
	jsonl := jsonlOf(
		`{"slug":"tea-pref","title":"Tea","scope":"global","type":"user","body":"Drinks black tea."}`,
		`{"slug":"too-big","title":"Big","scope":"global","type":"user","body":"`+strings.Repeat("x", MaxBodyBytes+1)+`"}`,
		OriginComment(1, ImportOrigin{Path: "/src/mem0.json", Entry: 3}),
		OriginComment(2, ImportOrigin{Path: "/src/mem0.json", Entry: 5}),
	)
	p, rep := e.previewThenImport(jsonl, ImportOptions{})
	for _, le := range [][]LineError{p.Errors, rep.Errors} {
		if len(le) != 1 || le[0].Line != 2 || le[0].Args["FromPath"] != "/src/mem0.json" || le[0].Args["FromEntry"] != 5 ||
			!strings.HasPrefix(le[0].Message, "/src/mem0.json, entry 5: ") {
			t.Fatalf("errors %+v", le)
		}
	}
	if c := rep.ConflictLines; len(c) != 1 || c[0].From == nil || c[0].From.Entry != 3 || p.ConflictLines[0].From.Entry != 3 {
		t.Fatalf("conflicts %+v", c)
	}
	if rep.Lines != 2 {
		t.Fatalf("origin comments counted as lines: %+v", rep)
	}
}

// D11: one agent's key file that cannot be read no longer empties the export: the memories and
// the other agents' keys are written, and the bad file is named with its reason.
func TestExportLeavesOutAnUnreadableKeyFile(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("tea-pref", "Tea", "Drinks green tea."))
	e.kvMust("ok", "a", `1`)
	e.kvMust("bot", "b", `2`)
	e.put("agents/bot/kv.json", []byte(`{"a":"1","a":"dup"}`))
	var buf bytes.Buffer
	c, err := e.s.ExportCounted(e.ctx, &buf, Filter{})
	if CodeOf(err) != CodeKVFileInvalid || c.Memories != 1 || c.KV != 1 || len(c.Problems) != 1 ||
		c.Problems[0].Args["Path"] != "agents/bot/kv.json" || !strings.Contains(c.Problems[0].Message, "agents/bot/kv.json") {
		t.Fatalf("export %+v %v", c, err)
	}
	if out := buf.String(); !strings.Contains(out, `"slug":"tea-pref"`) || !strings.Contains(out, `"agent":"ok"`) || strings.Contains(out, `"agent":"bot"`) {
		t.Fatalf("exported:\n%s", out)
	}
}

// An id in lower case is the same ULID as Engram's upper-case one: a line giving a memory's id
// in lower case with other text is a conflict with that memory (it was imported beside it, two
// memories under one ULID), two lines giving one id in either case are one id, and an id
// imported in lower case is stored as Engram writes ids. The journal's day keeps it too.
func TestImportReadsAnIDInEitherCase(t *testing.T) {
	e := newEnv(t)
	const id = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
	low := strings.ToLower(id)
	p, rep := e.previewThenImport(jsonlOf(`{"id":"`+id+`","slug":"first-one","title":"First","scope":"global","type":"user","body":"a"}`), ImportOptions{})
	if p.New != 1 || rep.Imported != 1 {
		t.Fatalf("preview %+v, import %+v", p, rep)
	}
	p, rep = e.previewThenImport(jsonlOf(
		`{"id":"`+low+`","slug":"second-one","title":"Second","scope":"global","type":"user","body":"b"}`,
		`{"id":"01bx5zzkbkactav9wevgemmvrz","slug":"third-one","title":"Third","scope":"global","type":"user","body":"c"}`,
		`{"id":"01BX5ZZKBKACTAV9WEVGEMMVRZ","slug":"fourth-one","title":"Fourth","scope":"global","type":"user","body":"d"}`,
		`{"id":"01bx5zzkbkactav9wevgemmvs0","slug":"2024-01-20","title":"2024-01-20","scope":"global","type":"daily","body":"a day"}`,
	), ImportOptions{})
	if p.New != 1 || p.Conflicts != 2 || rep.Imported != 1 || rep.Conflicts != 2 || rep.Daily != 1 {
		t.Fatalf("preview %+v, import %+v", p, rep)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_meta WHERE upper(id) = ?`, id); n != 1 {
		t.Fatalf("%d memories hold the id %s", n, id)
	}
	if m := e.get("01BX5ZZKBKACTAV9WEVGEMMVRZ"); m.Slug != "third-one" || e.parsed(m.Path).ID != "01BX5ZZKBKACTAV9WEVGEMMVRZ" {
		t.Fatalf("the lower-case id was not stored as Engram writes it: %+v", m)
	}
	if n := e.count(`SELECT COUNT(*) FROM memory_meta WHERE id = '01BX5ZZKBKACTAV9WEVGEMMVS0' AND type = 'daily'`); n != 1 {
		t.Fatal("the journal day's lower-case id was not kept in Engram's spelling")
	}
}
