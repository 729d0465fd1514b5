package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A journal entry holding a control character is refused as a memory body is (control_character):
// daily_append stored escape codes, bells and NULs verbatim in the day's Markdown file, for any
// actor, a model's included. Tabs, line feeds and carriage returns still pass.
func TestAppendDailyRefusesControlCharacters(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name, text string
		refused    bool
	}{
		{"escape code", "deploy \x1b[31mdone\x1b[0m", true},
		{"bell", "ring\x07", true},
		{"nul", "a\x00b", true},
		{"DEL", "x\x7fy", true},
		{"C1", "x\u0085y", true},
		{"bidi override", "abc\u202edef", true},
		{"tab, line feed, carriage return", "a\tb\nc\r\nd", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, actor := range []string{ActorUser, ActorTool} {
				r := e.batch(actor, Item{Op: OpAppendDaily, Text: tc.text}).Results[0]
				if got := !r.OK && r.Code == CodeControlChar; got != tc.refused || (!tc.refused && !r.OK) {
					t.Fatalf("%s: %q: ok=%v code=%s %s, want refused %v", actor, tc.text, r.OK, r.Code, r.Message, tc.refused)
				}
			}
		})
	}
	files, _ := filepath.Glob(filepath.Join(e.home, "memory", "daily", "*.md"))
	if len(files) == 0 {
		t.Fatal("no journal day was written")
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if hasControl(strings.ReplaceAll(string(data), "\r", "")) {
			t.Fatalf("%s holds a control character:\n%q", f, data)
		}
	}
}

// An imported journal line is judged as append_daily judges it: one holding a control character
// is refused with its line, and a clean one beside it is imported.
func TestImportRefusesJournalControlCharacters(t *testing.T) {
	e := newEnv(t)
	in := `{"slug":"2023-07-01","title":"x","scope":"global","type":"daily","body":"bell\u0007 and \u001b[2Jclear"}` + "\n" +
		`{"slug":"2023-07-02","title":"x","scope":"global","type":"daily","body":"a clean day"}`
	rep, err := e.s.Import(e.ctx, strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) != 1 || rep.Errors[0].Line != 1 || rep.Errors[0].Code != CodeControlChar || rep.Daily != 1 {
		t.Fatalf("report %+v", rep)
	}
}
