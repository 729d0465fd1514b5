package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 8 item 11: on a damaged index every verb works again (doctor and reindex included),
// the first one tells the person, and doctor keeps telling what was salvaged.
func TestDamagedIndexDoesNotStopVerbs(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "prefers-tea", "--title", "Prefers tea", "--body", "green tea")
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "gone-soon", "--title", "Gone", "--body", "rejected")
	h.ok("reject", "gone-soon")
	for _, verb := range []string{"list", "reindex", "doctor"} {
		t.Run(verb, func(t *testing.T) {
			idx := filepath.Join(h.dir, "memory", "index.sqlite3")
			f, err := os.OpenFile(idx, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt([]byte("not a database header any more, sorry"), 0)
			f.Close()
			code, out, errs := h.run("", verb)
			if code != 0 {
				t.Fatalf("%s on a damaged index: exit %d\n%s\n%s", verb, code, out, errs)
			}
			if !strings.Contains(out+errs, "The index was damaged") || strings.Contains(out+errs, "<no value>") {
				t.Fatalf("%s did not tell: %s\n%s", verb, out, errs)
			}
			if verb == "doctor" && !strings.Contains(out, "memory_rejections: 1 rows kept, 0 lost") {
				t.Fatalf("doctor: %s", out)
			}
			if code, _, errs := h.run("", "write", "--scope", "global", "--type", "user", "--slug", "gone-soon",
				"--title", "Again", "--body", "again"); code == 0 || !strings.Contains(errs, "rejected") {
				t.Fatalf("rejection not salvaged: %d %s", code, errs)
			}
			if out := h.ok("list"); !strings.Contains(out, "prefers-tea") {
				t.Fatalf("list: %s", out)
			}
		})
	}
}
