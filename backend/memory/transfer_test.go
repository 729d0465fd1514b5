package memory

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
)

func TestImportReportsBadLines(t *testing.T) {
	e := newEnv(t)
	goodID := ulid.Make().String()
	created := time.Date(2023, 7, 1, 9, 0, 0, 0, time.UTC)
	lines := []string{
		`{"id":"` + goodID + `","slug":"good-one","title":"Good","scope":"global","type":"user","body":"first good","created":"2023-07-01T09:00:00Z","updated":"2023-07-02T09:00:00Z","reviewed":true}`, // 1
		`{"slug":"broken-json","title":`, // 2: invalid JSON
		`{"slug":"unknown-field","title":"t","scope":"global","type":"user","body":"b","colour":"red"}`, // 3: unknown field
		`{"slug":"Bad Slug","title":"t","scope":"global","type":"user","body":"b"}`,                     // 4: invalid slug
		``, // 5: blank, skipped
		`{"slug":"good-two","title":"Good two","scope":"agent","agent":"claude","type":"feedback","body":"second good","tags":["x"]}`, // 6
		`// a comment line`, // 7
		`{"slug":"2023-07-01","title":"2023-07-01","scope":"global","type":"daily","body":"## 09:00 · user\n\nold journal"}`, // 8
		`{"slug":"leaky","title":"t","scope":"global","type":"user","body":"` + fakeAWSKeyID + `"}`,                          // 9: secret
		`{"slug":"no-body","title":"t","scope":"global","type":"user","body":""}`,                                            // 10: missing body
		`{"id":"not-a-ulid","slug":"bad-id","title":"t","scope":"global","type":"user","body":"b"}`,                          // 11: bad id
		`[1,2,3]`, // 12: not an object
		`{"slug":"good-three","title":"Good three","scope":"global","type":"project","body":"third good"}`, // 13
	}
	rep, err := e.s.Import(e.ctx, strings.NewReader(strings.Join(lines, "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Lines != 11 || rep.Imported != 3 || rep.Daily != 1 {
		t.Fatalf("report lines=%d imported=%d daily=%d errors=%+v", rep.Lines, rep.Imported, rep.Daily, rep.Errors)
	}
	want := map[int]string{2: CodeLineNotJSON, 3: CodeLineUnknownField, 4: CodeInvalidSlug, 9: CodeSecretDetected, 10: CodeMissingBody, 11: CodeImportBadID, 12: CodeLineNotObject}
	got := map[int]string{}
	for _, le := range rep.Errors {
		got[le.Line] = le.Code
		if le.Message == "" {
			t.Errorf("line %d: no message", le.Line)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("line errors %v, want %v", got, want)
	}
	m := e.get(goodID)
	// The line says reviewed: an import may not vouch for itself.
	if m.Slug != "good-one" || !m.Created.Equal(created) || !m.Updated.Equal(created.Add(24*time.Hour)) || m.Reviewed || m.Source.Kind != ActorImport {
		t.Fatalf("imported row %+v", m)
	}
	if fm := e.parsed(m.Path); fm.ID != goodID || !fm.Created.Equal(created) {
		t.Fatalf("imported file %+v", fm)
	}
	if m, err := e.s.GetBySlug(e.ctx, ScopeAgent, "", "claude", "good-two"); err != nil || m.Reviewed {
		t.Fatalf("good-two: %+v %v (an import without reviewed is unreviewed)", m, err)
	}
	d, err := e.s.GetBySlug(e.ctx, ScopeGlobal, "", "", "2023-07-01")
	if err != nil || d.Type != TypeDaily || d.Body != "## 09:00 · user\n\nold journal" || d.Path != "daily/2023-07-01.md" {
		t.Fatalf("imported journal day %+v %v", d, err)
	}
	audit, _ := e.s.Audit(e.ctx, goodID, 5)
	if len(audit) != 1 || audit[0].Actor != ActorImport {
		t.Fatalf("import audit %+v", audit)
	}
}

func TestImportOverlongLineSkipsOnlyThatLine(t *testing.T) {
	cases := []struct {
		name string
		long string
	}{
		{"1.5 MiB", strings.Repeat("x", MaxImportLine+MaxImportLine/2)},
		{"just over", strings.Repeat("x", MaxImportLine)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			in := `{"slug":"before-long","title":"t","scope":"global","type":"user","body":"b"}` + "\n" +
				`{"slug":"long","title":"t","scope":"global","type":"user","body":"` + tc.long + `"}` + "\n" +
				`{"slug":"after-long","title":"t","scope":"global","type":"user","body":"c"}` + "\r\n" +
				`{"slug":"last-line","title":"t","scope":"global","type":"user","body":"d"}` // no final newline
			rep, err := e.s.Import(e.ctx, strings.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			if rep.Imported != 3 || rep.Lines != 4 || len(rep.Errors) != 1 || rep.Errors[0].Line != 2 || rep.Errors[0].Code != CodeLineTooLong {
				t.Fatalf("report %+v", rep)
			}
			for _, slug := range []string{"before-long", "after-long", "last-line"} {
				if _, err := e.s.GetBySlug(e.ctx, ScopeGlobal, "", "", slug); err != nil {
					t.Fatalf("%s: %v", slug, err)
				}
			}
		})
	}
	// A line of exactly the limit is still read (and refused only for what it says).
	e := newEnv(t)
	pad := `{"slug":"at-limit","title":"t","scope":"global","type":"user","body":""}`
	line := `{"slug":"at-limit","title":"t","scope":"global","type":"user","body":"` + strings.Repeat("y", MaxImportLine-len(pad)) + `"}`
	rep, err := e.s.Import(e.ctx, strings.NewReader(line+"\n"))
	if err != nil || len(line) != MaxImportLine || len(rep.Errors) != 1 || rep.Errors[0].Code != CodeBodyTooLarge {
		t.Fatalf("line of %d bytes: %+v %v", len(line), rep, err)
	}
}

func TestImportResetsReviewUnlessKept(t *testing.T) {
	line := `{"slug":"vouched","title":"t","scope":"global","type":"user","body":"trust me","reviewed":true,"source":{"kind":"user","agent":"claude"}}` + "\n" +
		`{"slug":"2023-07-01","title":"2023-07-01","scope":"global","type":"daily","body":"old day","reviewed":true}` + "\n"
	cases := []struct {
		name     string
		opts     ImportOptions
		reviewed bool
		kind     string
	}{
		{"default", ImportOptions{}, false, ActorImport},
		{"keep review", ImportOptions{KeepReview: true}, true, "user"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			rep, err := e.s.ImportWith(e.ctx, strings.NewReader(line), tc.opts)
			if err != nil || rep.Imported != 1 || rep.Daily != 1 || len(rep.Errors) != 0 {
				t.Fatalf("import: %+v %v", rep, err)
			}
			m, err := e.s.GetBySlug(e.ctx, ScopeGlobal, "", "", "vouched")
			if err != nil {
				t.Fatal(err)
			}
			if m.Reviewed != tc.reviewed || m.Source.Kind != tc.kind || m.Source.Agent != "claude" {
				t.Fatalf("reviewed=%v source=%+v, want reviewed=%v kind=%s", m.Reviewed, m.Source, tc.reviewed, tc.kind)
			}
			if fm := e.parsed(m.Path); fm.Reviewed != tc.reviewed || fm.Source.Kind != tc.kind {
				t.Fatalf("file: reviewed=%v source=%+v", fm.Reviewed, fm.Source)
			}
		})
	}
}

func TestImportRefusesFutureDaysAndPathSlugs(t *testing.T) {
	e := newEnv(t)
	now := e.clock.Now()
	today := JournalDay(now, time.UTC)
	future := JournalDay(now.Add(72*time.Hour), time.UTC)
	later := now.Add(72 * time.Hour).Format(time.RFC3339)
	lines := []struct {
		rec  string
		code string // "" = imported
	}{
		{`{"slug":"` + future + `","title":"x","scope":"global","type":"daily","body":"from the future"}`, CodeImportFuture},
		{`{"slug":"` + today + `","title":"x","scope":"global","type":"daily","body":"today","updated":"` + later + `"}`, CodeImportFuture},
		{`{"slug":"2023-13-45","title":"x","scope":"global","type":"daily","body":"no such day"}`, CodeImportDailyDate},
		{`{"slug":"","title":"x","scope":"global","type":"daily","body":"no day at all"}`, CodeImportDailyDate},
		{`{"slug":"../2023-01-01","title":"x","scope":"global","type":"daily","body":"escape"}`, CodeImportSlugPath},
		{`{"slug":"../x","title":"t","scope":"global","type":"user","body":"escape"}`, CodeImportSlugPath},
		{`{"slug":"a/b","title":"t","scope":"global","type":"user","body":"nested"}`, CodeImportSlugPath},
		{`{"slug":"a\\b","title":"t","scope":"global","type":"user","body":"nested"}`, CodeImportSlugPath},
		{`{"slug":"` + today + `","title":"x","scope":"global","type":"daily","body":"today is fine"}`, ""},
		{`{"slug":"2023-07-01","title":"x","scope":"global","type":"daily","body":"the past is fine"}`, ""},
		{`{"slug":"plain-one","title":"t","scope":"global","type":"user","body":"fine"}`, ""},
	}
	var in []string
	want := map[int]string{}
	for i, l := range lines {
		in = append(in, l.rec)
		if l.code != "" {
			want[i+1] = l.code
		}
	}
	rep, err := e.s.Import(e.ctx, strings.NewReader(strings.Join(in, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, le := range rep.Errors {
		got[le.Line] = le.Code
		if le.Message == "" {
			t.Errorf("line %d: no message", le.Line)
		}
	}
	if !reflect.DeepEqual(got, want) || rep.Imported != 1 || rep.Daily != 2 {
		t.Fatalf("codes %v, want %v (report %+v)", got, want, rep)
	}
	if e.exists("daily/" + future + ".md") {
		t.Fatal("a future journal day was written")
	}
	d, err := e.s.GetBySlug(e.ctx, ScopeGlobal, "", "", today)
	if err != nil || strings.Contains(d.Body, "escape") || strings.Contains(d.Body, "no day") {
		t.Fatalf("today's journal %+v %v", d, err)
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	a := newEnv(t)
	wd := t.TempDir()
	a.ok(wr("pref-one", "Preference", "Likes concise answers."))
	a.clock.Advance(time.Hour + 123456789*time.Nanosecond)
	x := a.batch(ActorExtractor, Item{Op: OpWrite, Scope: ScopeProject, Workdir: wd, Type: TypeProject, Slug: "proj-fact",
		Title: sp("Build"), Body: sp("Run make test before pushing.\n\n- uses [[Make]]"), Confidence: ConfidenceMedium,
		SourceQuote: sp("always run make test"), Reasoning: sp("stated"), Tags: []string{"build", "ci"}, Aliases: []string{"ci"},
		Supersedes: []string{"old-build"}, Source: &Source{Kind: "extractor", Agent: "claude", Session: "s9", Turn: 4, Model: "m"}}).Results[0]
	if !x.OK {
		t.Fatal(x.Message)
	}
	a.clock.Advance(25 * time.Hour)
	a.ok(Item{Op: OpWrite, Scope: ScopeAgent, Agent: "codex", Type: TypeExperience, Slug: "flaky-test", Title: sp("Flaky"),
		Body: sp("pain: flaky test → solution: fix the clock → outcome: green"), Confidence: ConfidenceLow})
	a.ok(Item{Op: OpAppendDaily, Text: "day one entry"})
	a.clock.Advance(24 * time.Hour)
	a.ok(Item{Op: OpAppendDaily, Text: "day two entry"})
	a.ok(Item{Op: OpAppendDaily, Text: "day two, later"})
	a.ok(Item{Op: OpUpdate, Slug: "pref-one", Scope: ScopeGlobal, Body: sp("And bullet points.")})

	var exp bytes.Buffer
	n, err := a.s.Export(a.ctx, &exp, Filter{})
	if err != nil || n != 5 {
		t.Fatalf("export: %d %v", n, err)
	}
	for i, line := range strings.Split(strings.TrimSpace(exp.String()), "\n") {
		if !json.Valid([]byte(line)) {
			t.Fatalf("export line %d is not JSON: %s", i+1, line)
		}
	}

	b := newEnv(t)
	b.clock.Set(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)) // a different "now": nothing may take it
	// A person restoring their own export keeps the review state and sources.
	rep, err := b.s.ImportWith(b.ctx, bytes.NewReader(exp.Bytes()), ImportOptions{KeepReview: true})
	if err != nil || len(rep.Errors) != 0 || rep.Imported != 3 || rep.Daily != 2 {
		t.Fatalf("import: %+v %v", rep, err)
	}
	var exp2 bytes.Buffer
	if _, err := b.s.Export(b.ctx, &exp2, Filter{}); err != nil {
		t.Fatal(err)
	}
	ra, rb := records(t, exp.Bytes()), records(t, exp2.Bytes())
	if len(ra) != len(rb) {
		t.Fatalf("%d records exported, %d after the round trip", len(ra), len(rb))
	}
	for key, r1 := range ra {
		r2, ok := rb[key]
		if !ok {
			t.Errorf("%s missing after round trip", key)
			continue
		}
		if r1.Type == TypeDaily {
			if r2.Body != r1.Body || r2.Slug != r1.Slug || r2.ID != r1.ID || !r2.Created.Equal(*r1.Created) || !r2.Updated.Equal(*r1.Updated) {
				t.Errorf("journal %s changed in the round trip:\n%+v\n%+v", key, r1, r2)
			}
			continue
		}
		if r1.ID != r2.ID || !r1.Created.Equal(*r2.Created) || !r1.Updated.Equal(*r2.Updated) || r1.Body != r2.Body ||
			r1.Title != r2.Title || r1.Scope != r2.Scope || r1.Workdir != r2.Workdir || r1.Agent != r2.Agent ||
			r1.Confidence != r2.Confidence || *r1.Reviewed != *r2.Reviewed || r1.SourceQuote != r2.SourceQuote ||
			!reflect.DeepEqual(r1.Tags, r2.Tags) || !reflect.DeepEqual(r1.Aliases, r2.Aliases) ||
			!reflect.DeepEqual(r1.Supersedes, r2.Supersedes) || !reflect.DeepEqual(r1.Source, r2.Source) {
			t.Errorf("%s changed in the round trip:\n%+v\n%+v", key, r1, r2)
		}
	}
	// the files in the new home carry the original timestamps too.
	m := b.get(ra["proj-fact"].ID)
	if fm := b.parsed(m.Path); !fm.Created.Equal(ra["proj-fact"].Created.Truncate(time.Second)) {
		t.Fatalf("file created %v, want %v", fm.Created, ra["proj-fact"].Created)
	}
	// re-importing the same export changes nothing and fails nothing: every memory and journal
	// day is already there (it used to fail each memory as already_exists).
	rep, err = b.s.ImportWith(b.ctx, bytes.NewReader(exp.Bytes()), ImportOptions{KeepReview: true})
	if err != nil || rep.Imported != 0 || rep.Daily != 0 || rep.Duplicates != 5 || len(rep.Errors) != 0 {
		t.Fatalf("re-import: %+v %v", rep, err)
	}
	var exp3 bytes.Buffer
	b.s.Export(b.ctx, &exp3, Filter{})
	if rc := records(t, exp3.Bytes()); !reflect.DeepEqual(rc, rb) {
		t.Fatal("re-import changed the store")
	}
	// export honours filters.
	var only bytes.Buffer
	if n, err := b.s.Export(b.ctx, &only, Filter{Scope: ScopeAgent}); err != nil || n != 1 {
		t.Fatalf("filtered export: %d %v", n, err)
	}
}

// records keys exported records by slug.
func records(t *testing.T, data []byte) map[string]Record {
	t.Helper()
	out := map[string]Record{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		out[r.Slug] = r
	}
	return out
}
