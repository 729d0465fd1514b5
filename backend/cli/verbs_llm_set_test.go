package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/extraction"
)

// A person with only the CLI sets the language model (before, no verb did: `llm status`
// pointed at a window they did not have): each flag changes one field, one not named keeps its
// value, the key comes from stdin and never from the command line, bad values are refused
// translated.
func TestLLMSet(t *testing.T) {
	h := newHome(t)
	for _, tc := range []struct {
		name, stdin string
		args        []string
		code        int
		want        string
		status      api.LLMStatus
	}{
		{"nothing to set", "", []string{"llm", "set"}, 2, "llm set needs", api.LLMStatus{}},
		{"a local endpoint", "", []string{"llm", "set", "--provider", "openai", "--base-url", "http://127.0.0.1:11434/v1", "--model", "llama3.1"},
			0, "openai · llama3.1 · http://127.0.0.1:11434/v1", api.LLMStatus{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.1", Local: true, Configured: true}},
		{"one field keeps the others", "", []string{"llm", "set", "--streaming"},
			0, "llama3.1", api.LLMStatus{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.1", Streaming: true, Local: true, Configured: true}},
		// --streaming false as people type it (not only --streaming=false): it was a stray
		// argument and the verb answered with its usage.
		{"a setting's false after a space", "", []string{"llm", "set", "--streaming", "false"},
			0, "llama3.1", api.LLMStatus{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.1", Local: true, Configured: true}},
		{"and its true", "", []string{"llm", "set", "--streaming", "true"},
			0, "llama3.1", api.LLMStatus{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.1", Streaming: true, Local: true, Configured: true}},
		{"public endpoint with its key", "sk-ant-cli-set-KEY-0123456789\n", []string{"llm", "set", "--provider", "anthropic", "--base-url", "", "--model", "claude-haiku", "--key-stdin"},
			0, "key set", api.LLMStatus{Provider: "anthropic", Model: "claude-haiku", Streaming: true, KeySet: true, Configured: true}},
		{"unknown provider", "", []string{"llm", "set", "--provider", "bogus"}, 1, "“bogus”", api.LLMStatus{}},
		{"credentials in the URL", "", []string{"llm", "set", "--base-url", "http://me:pw@host/v1"}, 1, "http://host/v1", api.LLMStatus{}},
		{"set flags on another sub-verb", "", []string{"llm", "status", "--model", "x"}, 2, "llm needs", api.LLMStatus{}},
		{"off", "", []string{"llm", "set", "--provider", "none"}, 0, "No language model", api.LLMStatus{Model: "claude-haiku", Streaming: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := h.run(tc.stdin, tc.args...)
			if code != tc.code || !strings.Contains(out+errs, tc.want) {
				t.Fatalf("exit %d, %q %q; want %d and %q", code, out, errs, tc.code, tc.want)
			}
			if strings.Contains(out+errs, "sk-ant-cli-set-KEY") {
				t.Fatalf("the key was echoed: %q %q", out, errs)
			}
			if code != 0 {
				return
			}
			var st api.LLMStatus
			if err := json.Unmarshal([]byte(h.ok("llm", "status", "--json")), &st); err != nil {
				t.Fatal(err)
			}
			st.Error = nil
			if st != tc.status {
				t.Fatalf("status %+v, want %+v", st, tc.status)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(h.dir, "llm.keys")); err != nil || !strings.Contains(string(b), "sk-ant-cli-set-KEY") {
		t.Fatalf("the key was not filed: %v", err)
	}
}

// `engram extract runs` lists the runs as Activity does — status, applied and refused counts,
// the reason in words and each refused item — and `extract run ID` shows one in full; both
// in the home's language and as the api's JSON.
func TestExtractRuns(t *testing.T) {
	h := newHome(t)
	if out := h.ok("extract", "runs"); !strings.Contains(out, "No extraction runs yet.") {
		t.Fatalf("no runs: %q", out)
	}
	plan := scripted{Status: "updated", Items: []extraction.PlanItem{
		{Action: "write", Slug: "drinks-green-tea", Scope: "global", Type: "user", Description: "Drinks green tea",
			Body: "Only green tea, never coffee.", Confidence: "high", SourceQuote: "I only drink green tea"},
		{Action: "accept", Slug: "drinks-green-tea", Scope: "global"},
	}}
	if code, out, errs := h.runWith(plan, conversation, "extract", "-"); code != 0 {
		t.Fatalf("extract: %d %s %s", code, out, errs)
	}
	if code, out, errs := h.runWith(plan, conversation, "extract", "-"); code != 0 {
		t.Fatalf("extract again: %d %s %s", code, out, errs)
	}
	out := h.ok("extract", "runs")
	for _, want := range []string{"Skipped (0 applied, 0 refused)", "already extracted", "Partly applied (1 applied, 1 refused) · claude-code · session sess-1",
		"  - drinks-green-tea: Only you can", "(person-only-action)", "Showing 2 of 2 runs."} {
		if !strings.Contains(out, want) {
			t.Fatalf("runs lack %q:\n%s", want, out)
		}
	}
	var res api.ExtractionRuns
	if err := json.Unmarshal([]byte(h.ok("extract", "runs", "--status", "partial", "--limit", "5", "--json")), &res); err != nil ||
		res.Total != 1 || len(res.Runs) != 1 || res.Runs[0].Applied != 1 || res.Runs[0].Report.Rejected[0].Message == "" {
		t.Fatalf("runs --json: %v %+v", err, res)
	}
	one := h.ok("extract", "run", res.Runs[0].ID)
	if !strings.Contains(one, "+ drinks-green-tea [global/user] Drinks green tea") || !strings.Contains(one, "(person-only-action)") {
		t.Fatalf("run: %s", one)
	}
	if code, _, errs := h.run("", "extract", "run", "01NOSUCHRUN0000000000000000"); code != 1 || errs == "" {
		t.Fatalf("unknown run: %d %q", code, errs)
	}
	setLanguage(t, h, "zh-CN")
	if out := h.ok("extract", "runs"); !strings.Contains(out, "部分应用（应用 1 条，拒绝 1 条）") && !strings.Contains(out, "（应用 1 条，拒绝 1 条）") {
		t.Fatalf("zh runs: %s", out)
	}
}

// A plain switch never takes the word after it: `search --json false` searches for "false".
func TestSwitchDoesNotTakeTheNextWord(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "user", "--slug", "false-alarm", "--title", "A false alarm", "--body", "the smoke detector was false")
	if out := h.ok("search", "--json", "false"); !strings.Contains(out, "false-alarm") {
		t.Fatalf("search --json false: %s", out)
	}
}
