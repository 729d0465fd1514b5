package extraction

import (
	"strings"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
)

// TestPlanWrittenAsTextIsUsed: an open model that writes its SubmitMemoryPlan call as text
// (after a <think> block, in a ```json fence, as a {"name", "arguments"} call in <tool_call>
// tags) has its plan applied from the first answer, checked as strictly as a real call: a
// text plan that asks for what only a person may do, or prose around JSON, is no plan.
func TestPlanWrittenAsTextIsUsed(t *testing.T) {
	plan := `{"status":"updated","items":[{"action":"write","slug":"prefers-kebab-urls","scope":"global","type":"user","description":"Prefers kebab-case URL paths","body":"Uses kebab-case for URL paths.","confidence":"high","source_quote":"I prefer kebab-case for URL paths"}]}`
	quoted := strings.ReplaceAll(plan, `"`, `\"`)
	cases := []struct {
		name    string
		text    string
		applied bool
	}{
		{"bare JSON", plan, true},
		{"think then fenced JSON", "<think>\nThe person states a preference.\n</think>\n\n```json\n" + plan + "\n```", true},
		{"call in tool_call tags", `<tool_call>{"name":"SubmitMemoryPlan","arguments":` + plan + `}</tool_call>`, true},
		{"call with arguments as a string", `{"name":"SubmitMemoryPlan","arguments":"` + quoted + `"}`, true},
		{"prose around the JSON", "Here is my plan: " + plan, false},
		{"another tool's call", `{"name":"DeleteEverything","arguments":` + plan + `}`, false},
		{"a field only a person may set", strings.Replace(plan, `"status":"updated"`, `"status":"updated","accept":true`, 1), false},
		{"other JSON", `{"answer":"ok"}`, false},
	}
	for _, c := range cases {
		for _, stream := range []bool{false, true} {
			t.Run(c.name, func(t *testing.T) {
				srv := llmtest.NewOpenAI(t)
				srv.Push(llmtest.Text(c.text), llmtest.Text("Noted."))
				client, err := llm.New(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.URL(), Model: "qwen2.5:7b", Streaming: stream}, "", nil)
				if err != nil {
					t.Fatal(err)
				}
				p := ModelOrOffline{Model: func() (llm.Client, error) { return client, nil }, Offline: NewOffline()}
				f := newFx(t, p)
				d := f.run(turn("s1", "By the way, I prefer kebab-case for URL paths."))
				got := false
				for _, a := range d.Report.Applied {
					got = got || a.Slug == "prefers-kebab-urls"
				}
				if got != c.applied {
					t.Fatalf("model's plan applied %v, want %v: %+v %+v", got, c.applied, d.RunSummary, d.Report)
				}
				if c.applied && (d.Report.PlannedOffline || d.Report.Retried || len(srv.Requests()) != 1 || d.Model != "qwen2.5:7b") {
					t.Fatalf("report %+v model %s after %d calls, want the model's plan from its first answer", d.Report, d.Model, len(srv.Requests()))
				}
			})
		}
	}
}
