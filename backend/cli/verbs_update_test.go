package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/memory"
)

// The store answers a write over an existing slug with "update it instead": the CLI can.
func TestUpdateVerb(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "user", "--slug", "tea", "--title", "Tea", "--body", "Likes tea.", "--tag", "a")
	code, _, errs := h.run("", "write", "--type", "user", "--slug", "tea", "--title", "Tea", "--body", "again")
	if code != 1 || !strings.Contains(errs, "update it instead") {
		t.Fatalf("second write: %d %s", code, errs)
	}
	read := func() *memory.Memory {
		t.Helper()
		var r api.ReadResult
		if err := json.Unmarshal([]byte(h.ok("show", "tea", "--json")), &r); err != nil {
			t.Fatal(err)
		}
		return r.Memory
	}
	if out := h.ok("update", "tea", "--body", "Especially oolong.", "--tag", "b", "--quote", "I drink oolong daily"); !strings.Contains(out, "Updated tea") {
		t.Fatalf("update said %q", out)
	}
	m := read()
	if m.Body != "Likes tea.\n\nEspecially oolong." || strings.Join(m.Tags, ",") != "a,b" || m.SourceQuote != "I drink oolong daily" {
		t.Fatalf("after an added body: %+v", m)
	}
	// --replace replaces; an empty --quote clears; the body from stdin; by id.
	code, out, errs := h.run("Only green tea.", "update", m.ID, "--replace", "--body", "-", "--tag", "z", "--quote", "", "--title", "Green tea")
	if code != 0 {
		t.Fatalf("replace: %d %s %s", code, out, errs)
	}
	m = read()
	if m.Body != "Only green tea." || strings.Join(m.Tags, ",") != "z" || m.SourceQuote != "" || m.Title != "Green tea" {
		t.Fatalf("after replace: %+v", m)
	}
	// Nothing to change is a usage error, not a new version.
	if code, _, errs := h.run("", "update", "tea"); code != 2 || !strings.Contains(errs, "--title") {
		t.Fatalf("update without a change: %d %s", code, errs)
	}
	if code, _, errs := h.run("", "update", "no-such", "--title", "x"); code != 1 || !strings.Contains(errs, "no-such") {
		t.Fatalf("update of nothing: %d %s", code, errs)
	}
	if read().Version != m.Version {
		t.Fatal("a refused update changed the memory")
	}
}
