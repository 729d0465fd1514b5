package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/extraction"
	"engram/backend/llm"
	"engram/backend/wire"
)

// extractHome runs the CLI in-process over wire.Open with a scripted planner (the one stand-in:
// no model runs here).
func (h *home) runWith(p extraction.Planner, stdin string, args ...string) (int, string, string) {
	h.t.Helper()
	var out, errb bytes.Buffer
	env := Env{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Version: "test", Catalog: h.cat, Lang: "en",
		Open: func(ctx context.Context) (*api.API, func() error, error) {
			svc, err := wire.Open(ctx, wire.Options{Home: h.dir, Lang: "en", Catalog: h.cat, Passive: true, Planner: p})
			if err != nil {
				return nil, nil, err
			}
			return svc.API(ctx, api.ActorUser), svc.Close, nil
		},
		ReadFile: os.ReadFile,
	}
	code := Run(context.Background(), args, env)
	return code, out.String(), errb.String()
}

type scripted extraction.Plan

func (s scripted) Plan(context.Context, extraction.Input) (extraction.Outcome, error) {
	return extraction.Outcome{Plan: extraction.Plan(s), Model: "scripted"}, nil
}

const conversation = `{"session_id":"sess-1","agent":"claude-code","messages":[
 {"role":"user","content":"I only drink green tea, never coffee. Please remember that."},
 {"role":"assistant","content":"Noted."}]}`

// TestExtractJSON: engram extract --json prints exactly status, skip_reason, applied (id, slug,
// scope, type, title, confidence) and rejected (slug, code, message), with messages translated;
// a project write without evidence and an accept are refused while the rest applies unreviewed.
func TestExtractJSON(t *testing.T) {
	h := newHome(t)
	plan := scripted{Status: "updated", Items: []extraction.PlanItem{
		{Action: "write", Slug: "drinks-green-tea", Scope: "global", Type: "user", Description: "Drinks green tea",
			Body: "Only green tea, never coffee.", Confidence: "high", SourceQuote: "I only drink green tea"},
		{Action: "accept", Slug: "drinks-green-tea", Scope: "global"},
		{Action: "write", Slug: "tea-project", Scope: "project", Type: "project", Description: "Tea", Body: "Tea."},
	}}
	wd := t.TempDir()
	conv := strings.Replace(conversation, `"agent":"claude-code",`, `"agent":"claude-code","workdir":"`+wd+`",`, 1)
	file := filepath.Join(t.TempDir(), "turn.json")
	if err := os.WriteFile(file, []byte(conv), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := h.runWith(plan, "", "extract", file, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if keys := keysOf(got); !reflect.DeepEqual(keys, []string{"applied", "rejected", "skip_reason", "status"}) {
		t.Fatalf("keys %v", keys)
	}
	if got["status"] != "partial" || got["skip_reason"] != "" {
		t.Fatalf("status %v %v", got["status"], got["skip_reason"])
	}
	applied := got["applied"].([]any)
	if len(applied) != 1 {
		t.Fatalf("applied %v", applied)
	}
	a := applied[0].(map[string]any)
	if keys := keysOf(a); !reflect.DeepEqual(keys, []string{"action", "confidence", "id", "scope", "slug", "title", "type"}) ||
		a["slug"] != "drinks-green-tea" || a["confidence"] != "high" || a["scope"] != "global" || a["type"] != "user" {
		t.Fatalf("applied item %v", a)
	}
	rejected := got["rejected"].([]any)
	wantCodes := []string{extraction.CodePersonOnlyAction, extraction.CodeProjectNoEvidence}
	for i, x := range rejected {
		r := x.(map[string]any)
		if keys := keysOf(r); !reflect.DeepEqual(keys, []string{"code", "message", "slug"}) || r["code"] != wantCodes[i] ||
			strings.Contains(r["message"].(string), "extraction.code") || r["message"] == "" {
			t.Fatalf("rejected %d: %v", i, r)
		}
	}
	var show map[string]any
	if err := json.Unmarshal([]byte(h.ok("show", "drinks-green-tea", "--json")), &show); err != nil {
		t.Fatal(err)
	}
	m := show["memory"].(map[string]any)
	if m["reviewed"] != false || m["source"].(map[string]any)["kind"] != "extraction" {
		t.Fatalf("stored %v", m)
	}
	// Human output, and the same turn from stdin: already covered.
	code, out, _ = h.runWith(plan, conv, "extract")
	if code != 0 || !strings.Contains(out, "Skipped") || !strings.Contains(out, "already extracted") {
		t.Fatalf("second run: %d %s", code, out)
	}
	// A file that is not a conversation is refused, translated, and nothing is recorded.
	bad := filepath.Join(t.TempDir(), "bad.json")
	_ = os.WriteFile(bad, []byte(`{"session_id":"x","messages":[],"reviewed":true}`), 0o600)
	code, _, errs = h.runWith(plan, "", "extract", bad)
	if code != 1 || !strings.Contains(errs, "is not a conversation") {
		t.Fatalf("bad file: %d %s", code, errs)
	}
	res, err := h.api(t).Invoke("extraction.runs", &extraction.RunsParams{})
	if err != nil {
		t.Fatal(err)
	}
	runs := res.(api.ExtractionRuns)
	if runs.Total != 2 || runs.Runs[0].Reason != extraction.SkipAlreadyCovered || runs.Runs[1].Status != extraction.StatusPartial {
		t.Fatalf("runs %+v", runs)
	}
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// api opens the home once for a direct table call (closed with the test).
func (h *home) api(t *testing.T) *api.API {
	t.Helper()
	svc, err := wire.Open(context.Background(), wire.Options{Home: h.dir, Lang: "en", Catalog: h.cat, Passive: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return svc.API(context.Background(), api.ActorUser)
}

// TestExtractThroughTheBinary: the real engram-cli on a temporary home. A greeting is skipped
// with its reason; a real turn runs (whatever planner this build has) and prints exactly the
// documented shape; the same turn again is already covered, across processes; errors are
// translated into the home's language.
func TestExtractThroughTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := engramCLI(t)
	home := filepath.Join(t.TempDir(), "home")
	run := func(lang, stdin string, args ...string) (int, string, string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG="+lang)
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errb.String()
	}
	decode := func(out string) map[string]any {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%v: %q", err, out)
		}
		// Always these four; reason (a skip's or the model's failure, in words), planned_offline
		// and model_error only when there is something to say.
		var must []string
		for _, k := range keysOf(m) {
			switch k {
			case "reason", "planned_offline", "model_error":
			default:
				must = append(must, k)
			}
		}
		if !reflect.DeepEqual(must, []string{"applied", "rejected", "skip_reason", "status"}) {
			t.Fatalf("keys %v", keysOf(m))
		}
		return m
	}
	code, out, errs := run("en", `{"session_id":"b1","agent":"claude-code","messages":[{"role":"user","content":"Hi there!"}]}`, "extract", "-", "--json")
	if code != 0 {
		t.Fatalf("greeting: %d %s", code, errs)
	}
	if m := decode(out); m["status"] != "skipped" || m["skip_reason"] != "greeting" || len(m["applied"].([]any)) != 0 || len(m["rejected"].([]any)) != 0 {
		t.Fatalf("greeting: %v", m)
	}
	code, out, errs = run("en", conversation, "extract", "--json")
	if code != 0 {
		t.Fatalf("turn: %d %s", code, errs)
	}
	m := decode(out)
	switch m["status"] {
	case "done", "partial":
		for _, x := range m["applied"].([]any) {
			if keys := keysOf(x.(map[string]any)); !reflect.DeepEqual(keys, []string{"action", "confidence", "id", "scope", "slug", "title", "type"}) {
				t.Fatalf("applied keys %v", keys)
			}
		}
	case "noop":
		if m["skip_reason"] == "" {
			t.Fatalf("a noop without its reason: %v", m)
		}
	default:
		t.Fatalf("turn: %v", m)
	}
	code, out, _ = run("en", conversation, "extract", "--json")
	if m := decode(out); code != 0 || m["status"] != "skipped" || m["skip_reason"] != "already-covered" {
		t.Fatalf("again: %d %v", code, m)
	}
	code, _, errs = run("zh-CN", `not json`, "extract", "-")
	if code != 1 || !strings.Contains(errs, "不是一段对话") {
		t.Fatalf("bad input: %d %q", code, errs)
	}
}

// offlineAfterModel is a planner whose model failed and whose offline plan stood in.
type offlineAfterModel extraction.Plan

func (s offlineAfterModel) Plan(context.Context, extraction.Input) (extraction.Outcome, error) {
	return extraction.Outcome{Plan: extraction.Plan(s), Model: "offline",
		ModelError: &llm.Error{Code: llm.CodeRateLimited, Msg: "limited"}}, nil
}

// A script reading engram extract --json learns that the model failed and the offline
// extractor planned the turn (it read "done" and nothing more).
func TestExtractJSONSaysThePlanWasOffline(t *testing.T) {
	h := newHome(t)
	plan := offlineAfterModel{Status: "updated", Items: []extraction.PlanItem{{Action: "write", Slug: "drinks-green-tea",
		Scope: "global", Type: "user", Description: "Drinks green tea", Body: "Only green tea.", SourceQuote: "I only drink green tea"}}}
	file := filepath.Join(t.TempDir(), "turn.json")
	if err := os.WriteFile(file, []byte(conversation), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := h.runWith(plan, "", "extract", file, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	var got struct {
		Status         string `json:"status"`
		PlannedOffline bool   `json:"planned_offline"`
		ModelError     string `json:"model_error"`
		Reason         string `json:"reason"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Status != "done" || !got.PlannedOffline || got.ModelError != llm.CodeRateLimited || !strings.Contains(got.Reason, "offline extractor") {
		t.Fatalf("extract --json: %s", out)
	}
}
