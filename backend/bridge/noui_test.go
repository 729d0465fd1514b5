package bridge

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"engram/backend/settings"
)

// A bridge whose binary was built before the web UI answers / (and any page) with a page
// that says how to build it, in the app's language, instead of a bare 404.
func TestNoWebUIPageSaysHowToBuildIt(t *testing.T) {
	for _, ui := range []fstest.MapFS{nil, {".gitkeep": {Data: nil}}} {
		f := startWith(t, Config{}, nil, func(s *Server) { s.ui = ui })
		for _, p := range []string{"/", "/memories"} {
			res, err := http.Get(f.base + p)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			body := string(b)
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("%s: status %d, want 404", p, res.StatusCode)
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Errorf("%s: content type %q", p, ct)
			}
			for _, want := range []string{"make frontend", "The web interface is not built into this program", `lang="en"`} {
				if !strings.Contains(body, want) {
					t.Errorf("%s: page lacks %q:\n%s", p, want, body)
				}
			}
		}
	}
}

func TestNoWebUIPageIsTranslated(t *testing.T) {
	f := startWith(t, Config{}, nil, func(s *Server) { s.ui = nil })
	zh := "zh-CN"
	if _, err := f.srv.api.Settings.Update(settings.Patch{Language: &zh}); err != nil {
		t.Fatal(err)
	}
	res, err := http.Get(f.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(b), "此程序未内置网页界面") || !strings.Contains(string(b), "make frontend") {
		t.Fatalf("page not in Chinese:\n%s", b)
	}
}

// With a built UI the same paths serve it.
func TestBuiltWebUIIsServed(t *testing.T) {
	f := start(t, Config{})
	res, err := http.Get(f.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(b), "<title>Engram</title>") || strings.Contains(string(b), "make frontend") {
		t.Fatalf("status %d body %s", res.StatusCode, b)
	}
}
