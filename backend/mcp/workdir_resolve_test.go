package mcp

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"engram/backend/api"
	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/settings"
)

// toolServer is a server over a real store in a temp home, acting as "tool".
func toolServer(t *testing.T, workdir string) *Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, err := memory.Open(ctx, t.TempDir(), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); st.Close() })
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	set := settings.New(st, "en")
	hub := api.NewHub(st, set)
	s, err := New(api.New(ctx, api.Deps{Store: st, Catalog: cat, Settings: set, Events: hub}, api.ActorTool), hub, Config{Workdir: workdir})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A workdir named through a link was checked (inside the session's folders, the session's
// project) and then handed on as written, to be resolved again by the call: a model with a
// shell that repointed the link between the check and the call had the call work in a
// project the checks never saw. The folder is now resolved once, and what was checked is what
// the call gets; the session's --workdir is resolved once when the server starts.
func TestWorkdirResolvedOnceThroughALink(t *testing.T) {
	base := t.TempDir()
	own, other := filepath.Join(base, "own"), filepath.Join(base, "other")
	for _, d := range []string{own, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	inside, viaLink := filepath.Join(own, "self"), filepath.Join(base, "own-link")
	for _, l := range []string{inside, viaLink} {
		if err := os.Symlink(own, l); err != nil {
			t.Fatal(err)
		}
	}
	repoint := func(link string) {
		t.Helper()
		tmp := link + ".new"
		if err := os.Symlink(other, tmp); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, link); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, workdir, arg, link string
	}{
		{"a link inside the project, named by the model", own, inside, inside},
		{"--workdir given as a link", viaLink, "", viaLink},
		{"--workdir given as a link, the model names it", viaLink, viaLink, viaLink},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, l := range []string{inside, viaLink} {
				_ = os.Remove(l)
				if err := os.Symlink(own, l); err != nil {
					t.Fatal(err)
				}
			}
			s := toolServer(t, tc.workdir)
			st := &session{rootsOK: true}
			got, terr := s.resolveWorkdir(context.Background(), nil, st, tc.arg)
			if terr != nil {
				t.Fatalf("refused: %+v", terr)
			}
			repoint(tc.link) // between the check and the call
			if got != own {
				t.Fatalf("the call got %q, which now leads to %q; want the folder checked, %q", got, realFolder(got), own)
			}
			if again, terr := s.resolveWorkdir(context.Background(), nil, st, ""); tc.arg == "" && (terr != nil || again != own) {
				t.Fatalf("after the link moved, the session's folder is %q (%v)", again, terr)
			}
		})
	}
}
