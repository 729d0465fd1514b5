package memory

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oklog/ulid/v2"
)

// distinct returns n different values of exactly size characters.
func distinct(n, size int) []string {
	out := make([]string, n)
	for i := range out {
		p := fmt.Sprintf("v%d-", i)
		out[i] = p + strings.Repeat("a", size-len(p))
	}
	return out
}

// limitSetters put values into the field a FieldLimits row names, on a write or an update.
var limitSetters = map[string]func(it *Item, vs []string){
	"source_quote":   func(it *Item, vs []string) { it.SourceQuote = sp(vs[0]) },
	"reasoning":      func(it *Item, vs []string) { it.Reasoning = sp(vs[0]) },
	"subject":        func(it *Item, vs []string) { it.Subject = sp(vs[0]) },
	"workdir":        func(it *Item, vs []string) { it.Scope, it.Type, it.Workdir = ScopeProject, TypeProject, "/"+vs[0][1:] },
	"aliases":        func(it *Item, vs []string) { it.Aliases = vs },
	"tags":           func(it *Item, vs []string) { it.Tags = vs },
	"supersedes":     func(it *Item, vs []string) { it.Supersedes = vs },
	"conflicts_with": func(it *Item, vs []string) { it.ConflictsWith = vs },
	"source.kind":    func(it *Item, vs []string) { it.Source = &Source{Kind: vs[0]} },
	"source.agent":   func(it *Item, vs []string) { it.Source = &Source{Kind: "tool", Agent: vs[0]} },
	"source.session": func(it *Item, vs []string) { it.Source = &Source{Kind: "tool", Session: vs[0]} },
	"source.model":   func(it *Item, vs []string) { it.Source = &Source{Kind: "tool", Model: vs[0]} },
}

// Every field of the table is enforced on write: the limit itself is fine, one more character
// or one more value is refused with a coded error naming the field and the limit.
func TestFieldLimitsOnWrite(t *testing.T) {
	e := newEnv(t)
	n := 0
	for _, l := range FieldLimits {
		set, ok := limitSetters[l.Field]
		if !ok {
			// title has its own code (title_too_long) on write, agent its name rule; both are
			// still checked on hand-placed files below.
			if l.Field != "title" && l.Field != "agent" {
				t.Errorf("no test setter for limited field %s", l.Field)
			}
			continue
		}
		t.Run(l.Field, func(t *testing.T) {
			e.t = t
			count := max(l.MaxValues, 1)
			write := func(vs []string) ItemResult {
				n++
				it := wr(fmt.Sprintf("limit-%03d", n), "t", "b")
				set(&it, vs)
				return e.do(it)
			}
			if r := write(distinct(count, l.MaxChars)); !r.OK {
				t.Fatalf("at the limit: %s %s", r.Code, r.Message)
			}
			r := write(append(distinct(count-1, l.MaxChars), strings.Repeat("b", l.MaxChars+1)))
			if r.OK || r.Code != CodeFieldTooLong || r.Args["Field"] != l.Field || r.Args["Max"] != l.MaxChars || r.Message == "" {
				t.Fatalf("one character over: ok=%v %s %v", r.OK, r.Code, r.Args)
			}
			if l.MaxValues > 0 {
				r := write(distinct(l.MaxValues+1, 8))
				if r.OK || r.Code != CodeTooManyValues || r.Args["Field"] != l.Field || r.Args["Max"] != l.MaxValues {
					t.Fatalf("one value over: ok=%v %s %v", r.OK, r.Code, r.Args)
				}
			}
		})
	}
}

// An update is checked on what it would store: merged lists count the old values too.
func TestFieldLimitsOnUpdate(t *testing.T) {
	e := newEnv(t)
	it := wr("tagged", "Tagged", "body")
	it.Tags = distinct(30, 10)
	base := e.ok(it)
	r := e.wantCode(Item{Op: OpUpdate, ID: base.ID, Tags: distinct(33, 12)[30:]}, CodeTooManyValues)
	if r.Args["Field"] != "tags" || r.Args["Max"] != 32 {
		t.Fatalf("args %v", r.Args)
	}
	e.wantCode(Item{Op: OpUpdate, ID: base.ID, Reasoning: sp(strings.Repeat("r", 2001))}, CodeFieldTooLong)
	// replacing the list with a shorter one is fine.
	e.ok(Item{Op: OpUpdate, ID: base.ID, Mode: "replace", Body: sp("body"), Tags: distinct(33, 12)[30:]})
	if m := e.get(base.ID); len(m.Tags) != 3 {
		t.Fatalf("tags %v", m.Tags)
	}
}

// An import line over a limit is reported with its line number; the other lines are kept.
func TestFieldLimitsOnImport(t *testing.T) {
	e := newEnv(t)
	tags := `"` + strings.Join(distinct(40, 6), `","`) + `"`
	lines := `{"slug":"fine-one","title":"t","scope":"global","type":"user","body":"b"}` + "\n" +
		`{"slug":"many-tags","title":"t","scope":"global","type":"user","body":"b","tags":[` + tags + `]}` + "\n" +
		`{"slug":"long-quote","title":"t","scope":"global","type":"user","body":"b","source_quote":"` + strings.Repeat("q", 401) + `"}` + "\n"
	rep, err := e.s.Import(e.ctx, strings.NewReader(lines))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Imported != 1 || len(rep.Errors) != 2 {
		t.Fatalf("report %+v", rep)
	}
	want := map[int]string{2: CodeTooManyValues, 3: CodeFieldTooLong}
	for _, le := range rep.Errors {
		if want[le.Line] != le.Code || le.Args["Field"] == nil || le.Args["Max"] == nil {
			t.Errorf("line %d: %s %v", le.Line, le.Code, le.Args)
		}
	}
}

// A hand-placed file over a limit is reported as a problem and left byte for byte as it was;
// once fixed by hand it is indexed.
func TestFieldLimitsOnHandPlacedFile(t *testing.T) {
	cases := map[string]string{
		"title":   "title: " + strings.Repeat("t", 121) + "\n",
		"tags":    "tags: [" + strings.Join(distinct(33, 4), ", ") + "]\n",
		"aliases": "aliases:\n  - " + strings.Repeat("a", 121) + "\n",
		"quote":   "source_quote: " + strings.Repeat("q", 401) + "\n",
		"session": "source:\n  kind: hand\n  session: " + strings.Repeat("s", 129) + "\n",
	}
	for name, field := range cases {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			id := ulid.Make().String()
			rel := "global/user/hand-" + name + ".md"
			data := []byte("---\nid: " + id + "\n" + field + "---\n\nwritten by hand\n")
			e.put(rel, data)
			rep := e.reconcile()
			if rep.Problems != 1 {
				t.Fatalf("problems %d, want 1", rep.Problems)
			}
			ps, err := e.s.Problems(e.ctx)
			if err != nil || len(ps) != 1 || ps[0].Path != rel || ps[0].Code != CodeFieldOverLimit || ps[0].Detail == "" {
				t.Fatalf("problems %+v %v", ps, err)
			}
			if _, err := e.s.Get(e.ctx, id); err == nil {
				t.Fatal("a file over a limit was indexed")
			}
			if got := e.file(rel); string(got) != string(data) {
				t.Fatal("the file was rewritten")
			}
			fixed := []byte("---\nid: " + id + "\ntitle: fixed\n---\n\nwritten by hand\n")
			e.put(rel, fixed)
			if _, err := e.s.ReconcilePaths(e.ctx, []string{rel}); err != nil {
				t.Fatal(err)
			}
			if m := e.get(id); m.Title != "fixed" {
				t.Fatalf("fixed file: %+v", m)
			}
			if ps, _ := e.s.Problems(e.ctx); len(ps) != 0 {
				t.Fatalf("problem kept after the fix: %+v", ps)
			}
		})
	}
}
