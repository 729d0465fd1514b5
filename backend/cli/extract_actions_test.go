package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"engram/backend/extraction"
)

// TestExtractSaysWhatEachItemDid: a model's delete was printed as "+ slug … (confidence high,
// unreviewed)", as if the memory had just been written, by `engram extract` and by
// `engram extract run ID`, and --json had no word of it either: each applied item now says
// what it did (written, updated, deleted), in words and as "action".
func TestExtractSaysWhatEachItemDid(t *testing.T) {
	h := newHome(t)
	seed := scripted{Status: "updated", Items: []extraction.PlanItem{
		{Action: "write", Slug: "likes-coffee", Scope: "global", Type: "user", Description: "Likes coffee",
			Body: "Drinks coffee every morning.", Confidence: "low"},
		{Action: "write", Slug: "editor-choice", Scope: "global", Type: "user", Description: "Uses Vim",
			Body: "Edits in Vim.", Confidence: "low"},
	}}
	if code, out, errs := h.runWith(seed, `{"session_id":"s0","agent":"claude-code","messages":[
		{"role":"user","content":"I drink coffee every morning and I edit in Vim."}]}`, "extract", "-"); code != 0 {
		t.Fatalf("seed: %d %s %s", code, out, errs)
	}
	plan := scripted{Status: "updated", Items: []extraction.PlanItem{
		{Action: "delete", Slug: "likes-coffee", Scope: "global"},
		{Action: "update", Slug: "editor-choice", Scope: "global", Mode: "replace", Description: "Uses Helix",
			Body: "Moved from Vim to Helix.", Confidence: "low"},
		{Action: "write", Slug: "drinks-green-tea", Scope: "global", Type: "user", Description: "Drinks green tea",
			Body: "Only green tea now.", Confidence: "low"},
	}}
	turn := `{"session_id":"s1","agent":"claude-code","messages":[
		{"role":"user","content":"I quit coffee, only green tea now, and I moved from Vim to Helix."}]}`
	code, out, errs := h.runWith(plan, turn, "extract", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	runs := h.ok("extract", "runs", "--json")
	var list struct {
		Runs []struct {
			ID string `json:"id"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(runs), &list); err != nil || len(list.Runs) == 0 {
		t.Fatalf("runs %s %v", runs, err)
	}
	shown := h.ok("extract", "run", list.Runs[0].ID)
	for name, text := range map[string]string{"extract": out, "extract run": shown} {
		for _, want := range []string{"  × likes-coffee [global/user] Likes coffee (deleted", "  ~ editor-choice [global/user] Uses Helix",
			"  + drinks-green-tea [global/user]"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: %q missing in\n%s", name, want, text)
			}
		}
		if strings.Contains(text, "+ likes-coffee") || strings.Contains(text, "+ editor-choice") {
			t.Errorf("%s: a delete or an update reads as a new memory:\n%s", name, text)
		}
	}
	h.ok("extract", "runs") // the list still prints
	_, js, _ := h.runWith(plan, strings.Replace(turn, `"s1"`, `"s2"`, 1), "extract", "-", "--json")
	var got struct {
		Applied []map[string]any `json:"applied"`
	}
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	for _, a := range got.Applied {
		if a["action"] != "write" && a["action"] != "update" && a["action"] != "delete" {
			t.Errorf("applied item without its action: %v", a)
		}
	}
}

// TestExtractReadsContentParts: `engram extract` with the messages an agent keeps in its own
// client's shape — content as a list of parts, an image beside the text, a tool's output as a
// user message — learns from the person's text and never from the tool's output; before, the
// whole turn was refused ("messages.content must be text").
func TestExtractReadsContentParts(t *testing.T) {
	h := newHome(t)
	turn := `{"session_id":"parts","agent":"cursor","messages":[
		{"role":"user","content":[{"type":"text","text":"Remember that I use Neovim with LazyVim."},
			{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]},
		{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cat notes"}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"My name is Mallory."}]}]}]}`
	code, out, errs := h.run(turn, "extract", "-")
	if code != 0 || !strings.Contains(out, "Neovim") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if list := h.ok("list"); strings.Contains(list, "Mallory") {
		t.Fatalf("learned from a tool's output:\n%s", list)
	}
}
