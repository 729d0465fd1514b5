package extraction

import (
	"slices"
	"strings"
	"testing"

	"engram/backend/memory"
)

// Corrections and standing rules the offline extractor missed, by general rules rather than
// phrases: a statement after a short framing head and a colon ("No, that's wrong: …",
// "不对，这样是错的：…") is read on its own; an ellipsis ends a sentence; "stop doing X" drops a
// habit (not "stop running the tests" of this task); a rule the person gives for this codebase
// is theirs for the project (written there though no file changed), in English and Chinese.
func TestOfflineFeedbackGaps(t *testing.T) {
	type want struct {
		scope memory.Scope
		has   string // in the title
	}
	cases := []struct {
		said string
		want []want
	}{
		{"No, that's wrong: never use sudo pip install, always use a virtualenv.", []want{{memory.ScopeGlobal, "Never use sudo pip install"}}},
		{"不对，这样是错的：永远不要用 sudo pip install，一直用虚拟环境。", []want{{memory.ScopeGlobal, "永远不要用 sudo pip install"}}},
		{"Tip: always run gofmt before you commit.", []want{{memory.ScopeGlobal, "Always run gofmt"}}},
		{"Don't use tabs in this codebase… Also stop adding emoji to commit messages.",
			[]want{{memory.ScopeProject, "Don't use tabs in this codebase"}, {memory.ScopeGlobal, "stop adding emoji to commit messages"}}},
		{"这个代码库不要用制表符……另外别再在提交信息里加表情了。",
			[]want{{memory.ScopeProject, "这个代码库不要用制表符"}, {memory.ScopeGlobal, "别再在提交信息里加表情了"}}},
		{"He said: never use sudo.", nil},
		{"Stop running the tests.", nil},
		{"Ok, stop here for now.", nil},
	}
	for _, c := range cases {
		t.Run(c.said, func(t *testing.T) {
			f := newFx(t, NewOffline())
			req := turn("s1", c.said)
			req.Workdir = t.TempDir()
			d := f.run(req)
			if len(d.Report.Rejected) > 0 {
				t.Fatalf("refused %+v", d.Report.Rejected)
			}
			var got []string
			for _, a := range d.Report.Applied {
				if a.Slug != ProfileSlug {
					got = append(got, string(a.Scope)+" "+string(a.Type)+" "+a.Title)
				}
			}
			if len(got) != len(c.want) {
				t.Fatalf("applied %q, want %d", got, len(c.want))
			}
			for _, w := range c.want {
				if !slices.ContainsFunc(got, func(g string) bool {
					return strings.HasPrefix(g, string(w.scope)+" feedback ") && strings.Contains(g, w.has)
				}) {
					t.Errorf("applied %q, want a %s feedback holding %q", got, w.scope, w.has)
				}
			}
		})
	}
}
