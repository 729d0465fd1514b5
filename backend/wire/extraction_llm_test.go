package wire

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/llm/llmtest"
	"engram/backend/memory"
	"engram/backend/settings"
)

// configureModel points the home's LLM settings at a loopback provider.
func configureModel(t *testing.T, user *api.API, srv *llmtest.Server, streaming bool) {
	t.Helper()
	provider := "openai"
	if srv.Wire() == llmtest.WireAnthropic {
		provider = "anthropic"
	}
	if _, err := user.Settings.Update(settings.Patch{LLM: &settings.LLMPatch{Provider: sp(provider),
		BaseURL: sp(srv.URL()), Model: sp("scripted-model"), Streaming: &streaming}}); err != nil {
		t.Fatal(err)
	}
}

// extract sends one turn through the api table, as the bridge, MCP and the CLI do, and waits.
func extract(t *testing.T, a *api.API, req map[string]any) map[string]any {
	t.Helper()
	req["wait"] = true
	raw, _ := json.Marshal(req)
	res, err := a.Call("extraction.request", raw)
	if err != nil {
		t.Fatalf("extraction.request: %v", err)
	}
	b, _ := json.Marshal(res)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

const planWithRefusals = `{"status":"updated","items":[
 {"action":"write","slug":"prefers-pytest-quiet","scope":"global","type":"feedback","description":"Runs pytest with -q",
  "body":"Always run pytest with the -q flag; never unittest.","confidence":"high","source_quote":"I always use pytest with the -q flag",
  "relations":[{"relation":"uses","object":"pytest"}]},
 {"action":"accept","slug":"prefers-pytest-quiet"},
 {"action":"write","slug":"billing-uses-postgres","scope":"project","type":"project","description":"Billing uses Postgres",
  "body":"The billing service stores invoices in Postgres.","confidence":"medium","source_quote":"never unittest"}
]}`

// TestExtractionPlannedByModelOverTheWire: with a model configured, a turn is planned by the
// provider through its real wire format (OpenAI and Anthropic, streaming off and on): the
// SubmitMemoryPlan tool is offered and forced, the valid item lands unreviewed with the graph
// grammar in its body, the accept item and the project write without evidence are refused
// with their codes, the turn is kept in its session, and the call leaves a usage row.
func TestExtractionPlannedByModelOverTheWire(t *testing.T) {
	cases := []struct {
		name      string
		srv       func(testing.TB) *llmtest.Server
		streaming bool
	}{
		{"openai", llmtest.NewOpenAI, false},
		{"openai-stream", llmtest.NewOpenAI, true},
		{"anthropic", llmtest.NewAnthropic, false},
		{"anthropic-stream", llmtest.NewAnthropic, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			svc, _ := openWithCatalog(t, t.TempDir())
			user, tool := svc.API(svc.ctx, api.ActorUser), svc.API(svc.ctx, api.ActorTool)
			srv := tc.srv(t)
			configureModel(t, user, srv, tc.streaming)
			srv.Push(llmtest.Call("SubmitMemoryPlan", planWithRefusals).WithUsage(900, 120))
			workdir := t.TempDir()
			run := extract(t, tool, map[string]any{"session_id": "s-wire", "agent": "claude-code", "workdir": workdir,
				"messages": []map[string]any{
					{"role": "user", "content": "Add pytest to this repo. I always use pytest with the -q flag, never unittest."},
				}})
			if run["status"] != "partial" {
				t.Fatalf("status %v (%v): %v", run["status"], run["reason"], run)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests reached the provider", len(reqs))
			}
			if tools := reqs[0].Tools(); len(tools) != 1 || tools[0] != "SubmitMemoryPlan" {
				t.Fatalf("tools offered: %v", tools)
			}
			if reqs[0].Stream() != tc.streaming {
				t.Fatalf("stream %v, want %v", reqs[0].Stream(), tc.streaming)
			}
			report := run["report"].(map[string]any)
			codes := map[string]bool{}
			for _, r := range report["rejected"].([]any) {
				codes[r.(map[string]any)["code"].(string)] = true
			}
			if !codes["person-only-action"] || !codes["project-scope-without-evidence"] || len(codes) != 2 {
				t.Fatalf("rejected codes %v", codes)
			}
			list, err := user.Memory.List(api.ListParams{Scope: memory.ScopeGlobal})
			if err != nil || list.Total != 1 {
				t.Fatalf("memories: %v %+v", err, list)
			}
			r, err := user.Memory.Read(api.RefParams{ID: list.Items[0].ID})
			if err != nil {
				t.Fatal(err)
			}
			m := r.Memory
			if m.Reviewed || m.Source.Kind != "extraction" || m.Source.Session != "s-wire" || m.Source.Model == "" {
				t.Fatalf("extracted memory: reviewed=%v source=%+v", m.Reviewed, m.Source)
			}
			if !strings.Contains(m.Body, "- uses [[pytest]]") {
				t.Fatalf("relation not written in the body grammar: %q", m.Body)
			}
			sess, err := user.Sessions.Read(api.SessionRef{ID: "s-wire", Agent: "claude-code"})
			if err != nil || len(sess.Turns) != 1 || m.Source.Turn != sess.Turns[0].Seq {
				t.Fatalf("session: %v %+v (memory turn %d)", err, sess, m.Source.Turn)
			}
			usage, err := user.Usage.Summary(api.UsageParams{Days: 1})
			if err != nil || usage.Total.Calls != 1 || usage.Total.InputTokens != 900 || usage.Total.OutputTokens != 120 {
				t.Fatalf("usage: %v %+v", err, usage.Total)
			}
			if len(usage.ByPurpose) != 1 || usage.ByPurpose[0].Key != "extraction" {
				t.Fatalf("usage by purpose: %+v", usage.ByPurpose)
			}
		})
	}
}

// TestExtractionModelWithoutToolCallPlansOffline: a model that answers in prose is asked once
// more with only the tool; answering without a readable plan again hands the turn to the
// offline extractor (the hook never sends it again), the run saying why in words, and the turn
// is kept in its session.
func TestExtractionModelWithoutToolCallPlansOffline(t *testing.T) {
	svc, _ := openWithCatalog(t, t.TempDir())
	user, tool := svc.API(svc.ctx, api.ActorUser), svc.API(svc.ctx, api.ActorTool)
	srv := llmtest.NewOpenAI(t)
	configureModel(t, user, srv, false)
	srv.Push(llmtest.Text("Sure, I will remember that."), llmtest.Call("SubmitMemoryPlan", `{"status":"updated","items":[`))
	run := extract(t, tool, map[string]any{"session_id": "s-noop", "agent": "codex",
		"messages": []map[string]any{{"role": "user", "content": "My name is Ada and I live in Dublin."}}})
	report, _ := run["report"].(map[string]any)
	if run["status"] != "done" || run["model"] != "offline" || report["planned_offline"] != true ||
		report["error_code"] != "extraction_model_bad_plan" || !strings.Contains(fmt.Sprint(run["reason_text"]), "could not be read") {
		t.Fatalf("run: %v", run)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want the first and one retry", len(reqs))
	}
	if _, name := reqs[1].ToolChoice(); name != "SubmitMemoryPlan" {
		t.Fatalf("the retry does not force the tool: %q", name)
	}
	list, err := user.Memory.List(api.ListParams{Scope: memory.ScopeGlobal})
	if err != nil || list.Total != 2 {
		t.Fatalf("want the offline extractor's name and place: %v %+v", err, list)
	}
	sess, err := user.Sessions.Read(api.SessionRef{ID: "s-noop", Agent: "codex"})
	if err != nil || len(sess.Turns) != 1 {
		t.Fatalf("the turn was not kept: %v %+v", err, sess)
	}
}

// TestExtractionOfflineWithoutModel: a fresh home has no model; the offline extractor plans,
// and what it writes is unreviewed with a verbatim quote.
func TestExtractionOfflineWithoutModel(t *testing.T) {
	svc, _ := openWithCatalog(t, t.TempDir())
	user, tool := svc.API(svc.ctx, api.ActorUser), svc.API(svc.ctx, api.ActorTool)
	run := extract(t, tool, map[string]any{"session_id": "s-off", "agent": "codex",
		"messages": []map[string]any{{"role": "user", "content": "Remember that I prefer tabs over spaces in Go code."}}})
	if run["status"] != "done" || run["model"] != "offline" {
		t.Fatalf("run: %v", run)
	}
	list, err := user.Memory.List(api.ListParams{Scope: memory.ScopeGlobal})
	if err != nil || list.Total == 0 {
		t.Fatalf("offline wrote nothing: %v %+v", err, list)
	}
	for _, s := range list.Items {
		r, err := user.Memory.Read(api.RefParams{ID: s.ID})
		if err != nil {
			t.Fatal(err)
		}
		m := r.Memory
		if m.Reviewed || m.SourceQuote == "" || !strings.Contains("Remember that I prefer tabs over spaces in Go code.", m.SourceQuote) {
			t.Fatalf("offline memory: reviewed=%v quote=%q", m.Reviewed, m.SourceQuote)
		}
	}
}
