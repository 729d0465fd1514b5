package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// `engram daily append -` reads the entry from stdin, as `write --body -` and `kv set KEY -`
// do (it wrote a literal "-"); an empty stdin is refused with the translated empty-entry
// error and writes nothing. A "-" among other words is still text.
func TestDailyAppendReadsStdin(t *testing.T) {
	h := binHome{t: t, bin: engramCLI(t), dir: t.TempDir()}

	if out := h.ok("Shipped the bridge\n", "daily", "append", "-"); !strings.Contains(out, "Added to the journal of") {
		t.Fatalf("append -: %s", out)
	}
	// The day the entry went to (not "today" again: the test may run across midnight).
	var added struct {
		Slug string `json:"slug"`
	}
	if err := json.Unmarshal([]byte(h.ok("and its tests\n", "daily", "append", "-", "--json")), &added); err != nil || added.Slug == "" {
		t.Fatalf("append - --json: %+v %v", added, err)
	}
	var day struct {
		Memory *struct {
			Body string `json:"body"`
		} `json:"memory"`
	}
	if err := json.Unmarshal([]byte(h.ok("", "daily", "show", added.Slug, "--json")), &day); err != nil || day.Memory == nil {
		t.Fatalf("show --json: %+v %v", day, err)
	}
	if body := day.Memory.Body; !strings.Contains(body, "and its tests") || strings.Contains(body, "\n\n-") {
		t.Fatalf("the entry is not stdin's text: %q", body)
	}

	for _, stdin := range []string{"", " \n\t\n"} {
		code, out, errs := h.run(stdin, "daily", "append", "-")
		if code != 1 || !strings.Contains(errs, "The journal entry is empty.") {
			t.Errorf("append - with stdin %q: exit %d %q %q", stdin, code, out, errs)
		}
	}

	if err := json.Unmarshal([]byte(h.ok("ignored", "daily", "append", "a", "-", "b", "--json")), &added); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(h.ok("", "daily", "show", added.Slug, "--json")), &day); err != nil || day.Memory == nil ||
		!strings.Contains(day.Memory.Body, "a - b") || strings.Contains(day.Memory.Body, "ignored") {
		t.Fatalf("a - b: %+v %v", day, err)
	}
}

// `engram kv delete` of a key the agent does not have succeeds and says so, as MCP's kv_delete
// does over the same api (it exited 1 with kv_not_found); --json shows deleted: false.
func TestKVDeleteMissingKeySucceeds(t *testing.T) {
	h := binHome{t: t, bin: engramCLI(t), dir: t.TempDir()}
	h.ok("", "kv", "set", "--agent", "claude", "kept", "1")

	code, out, errs := h.run("", "kv", "delete", "--agent", "claude", "missing")
	if code != 0 || !strings.Contains(out, "Agent claude has no key “missing”: nothing was deleted.") || errs != "" {
		t.Fatalf("delete missing: exit %d %q %q", code, out, errs)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(h.ok("", "kv", "delete", "--agent", "claude", "missing", "--json")), &res); err != nil ||
		res["agent"] != "claude" || res["key"] != "missing" || res["deleted"] != false {
		t.Fatalf("delete missing --json: %v %v", res, err)
	}
	// An agent with no keys at all answers the same.
	if out := h.ok("", "kv", "delete", "--agent", "nobody", "k"); !strings.Contains(out, "nothing was deleted") {
		t.Fatalf("delete for an agent without keys: %q", out)
	}
	// A real delete still says deleted: true, and other refusals still fail.
	if err := json.Unmarshal([]byte(h.ok("", "kv", "delete", "--agent", "claude", "kept", "--json")), &res); err != nil || res["deleted"] != true {
		t.Fatalf("delete kept --json: %v %v", res, err)
	}
	if code, _, errs := h.run("", "kv", "delete", "--agent", "Not Valid", "k"); code != 1 || !strings.Contains(errs, "is not a valid agent name") {
		t.Fatalf("invalid agent: exit %d %q", code, errs)
	}
}
