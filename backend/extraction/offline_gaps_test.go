package extraction

import (
	"strings"
	"testing"

	"engram/backend/memory"
)

// Two shapes the offline extractor let pass: a project named before the request ("For this
// project remember: …", "In this repo, remember that …"), and a tool its lexicon does not know
// set against another ("I always use ripgrep instead of grep"). A pronoun set against another
// ("I use this instead of that") points at the chat and stays out.
func TestOfflineProjectFirstRememberAndContrastedTools(t *testing.T) {
	cases := []struct {
		said  string
		scope memory.Scope // "" when nothing is kept
		title string
	}{
		{"For this project remember: we deploy with Helm, never kubectl apply.", memory.ScopeProject, "We deploy with Helm, never kubectl apply"},
		{"For this repo, remember that the API lives in /srv/api.", memory.ScopeProject, "The API lives in /srv/api"},
		{"In this project remember: tests run with make check.", memory.ScopeProject, "Tests run with make check"},
		{"I always use ripgrep instead of grep.", memory.ScopeGlobal, "Always uses ripgrep instead of grep"},
		{"I use fd over find.", memory.ScopeGlobal, "Uses fd over find"},
		{"I use this instead of that.", "", ""},
		{"I use it rather than nothing.", "", ""},
		{"For this project, remember this.", "", ""},
	}
	for _, c := range cases {
		t.Run(c.said, func(t *testing.T) {
			f := newFx(t, NewOffline())
			req := turn("s1", c.said)
			req.Workdir = t.TempDir()
			d := f.run(req)
			var got []string
			for _, a := range d.Report.Applied {
				if a.Slug != ProfileSlug {
					got = append(got, string(a.Scope)+" "+a.Title)
				}
			}
			if c.scope == "" {
				if len(got) != 0 {
					t.Fatalf("kept %q from a sentence that points at the chat", got)
				}
				return
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], string(c.scope)+" ") || !strings.Contains(got[0], c.title) {
				t.Fatalf("kept %q, want one %s memory titled %q", got, c.scope, c.title)
			}
		})
	}
}
