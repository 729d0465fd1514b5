package extraction

import (
	"encoding/json"
	"strings"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
)

// cutPlan is SubmitMemoryPlan arguments cut where a model's token limit cut them.
const cutPlan = `{"status":"updated","items":[{"action":"write","slug":"prefers-kebab-case","scope":"global","type":"user","description":"Prefers kebab-`

// TestCutPlanIsAskedShorter: a plan cut at the model's token limit (finish_reason "length",
// stop_reason "max_tokens") was retried as if its arguments were merely malformed — "unexpected
// EOF, match the schema" — so the model wrote the same long plan and was cut again, and the run
// said "the plan could not be read", not why. The retry now says the answer was cut and asks
// for a shorter plan, and when the second answer is cut too the run says so in words (the
// offline extractor plans the turn). Over both real wires (loopback server).
func TestCutPlanIsAskedShorter(t *testing.T) {
	good := `{"status":"updated","items":[{"action":"write","slug":"prefers-kebab-case","scope":"global","type":"user",` +
		`"description":"Prefers kebab-case URL paths","body":"Uses kebab-case for URL paths.","confidence":"high",` +
		`"source_quote":"I prefer kebab-case for URL paths"}]}`
	for _, w := range []struct {
		name string
		srv  func(testing.TB) *llmtest.Server
		stop string
	}{{"openai", llmtest.NewOpenAI, "length"}, {"anthropic", llmtest.NewAnthropic, "max_tokens"}} {
		cut := llmtest.Call("SubmitMemoryPlan", cutPlan)
		cut.StopReason = w.stop
		for _, c := range []struct {
			name    string
			second  llmtest.Reply
			offline bool
		}{{"shorter the second time", llmtest.Call("SubmitMemoryPlan", good), false}, {"cut twice", cut, true}} {
			t.Run(w.name+"/"+c.name, func(t *testing.T) {
				srv := w.srv(t)
				srv.Push(cut, c.second)
				provider := llm.ProviderOpenAI
				if srv.Wire() == llmtest.WireAnthropic {
					provider = llm.ProviderAnthropic
				}
				client, err := llm.New(llm.Config{Provider: provider, BaseURL: srv.URL(), Model: "scripted-model"}, "sk-test", nil)
				if err != nil {
					t.Fatal(err)
				}
				f := newFx(t, ModelOrOffline{Model: func() (llm.Client, error) { return client, nil }, Offline: NewOffline()})
				d := f.run(turn("s1", "Remember that I prefer kebab-case for URL paths."))
				reqs := srv.Requests()
				if len(reqs) != 2 {
					t.Fatalf("%d calls to the model, want the ask and its retry", len(reqs))
				}
				retry, _ := json.Marshal(reqs[1].Messages())
				if !strings.Contains(string(retry), "cut off") || !strings.Contains(string(retry), "shorter") {
					t.Fatalf("the retry does not say the answer was cut: %s", retry)
				}
				if d.Status != StatusDone || len(d.Report.Applied) != 1 {
					t.Fatalf("run %+v %+v", d.RunSummary, d.Report)
				}
				if d.Report.PlannedOffline != c.offline {
					t.Fatalf("planned offline %v, want %v (%+v)", d.Report.PlannedOffline, c.offline, d.Report)
				}
				if !c.offline {
					return
				}
				if d.Report.ErrorCode != CodeModelCutPlan {
					t.Fatalf("error code %q, want %q", d.Report.ErrorCode, CodeModelCutPlan)
				}
				cat := testCatalog(t)
				for _, lang := range []string{"en", "zh-CN"} {
					if msg := cat.T(lang, "error."+CodeModelCutPlan, d.Report.ErrorArgs); msg == "error."+CodeModelCutPlan ||
						!strings.Contains(msg, "4096") {
						t.Fatalf("%s: %q, want the limit in words", lang, msg)
					}
				}
			})
		}
	}
}
