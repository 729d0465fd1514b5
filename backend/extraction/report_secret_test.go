package extraction

import (
	"encoding/json"
	"strings"
	"testing"

	"engram/backend/llm/llmtest"
	"engram/backend/memory"
)

// A plan item refused for its shape keeps no secret the model put in it: the report stored
// with the run (Activity → extraction runs) names the refusal, never the key. The trigger: a
// slug or an action holding a token was echoed whole in the refused item's slug, args and
// detail, and stored in the index.
func TestRunReportKeepsNoSecret(t *testing.T) {
	const key = "ghp_Q3vJx8LmN2pR7tY4wZ9aB6cD1eF5gH0iK3nM"
	plan := `{"status":"updated","items":[
 {"action":"write","slug":"` + key + `","scope":"global","type":"user","description":"x","body":"Likes tea.","confidence":"low"},
 {"action":"` + key + `","slug":"tea","scope":"global","type":"user","description":"x","body":"Likes tea.","confidence":"low"},
 {"action":"write","slug":"tea-two","scope":"` + key + `","type":"user","description":"x","body":"Likes tea.","confidence":"low"}]}`
	f := newFx(t, modelPlanner(t, llmtest.Call("SubmitMemoryPlan", plan)))
	d := f.run(turn("s1", "I like tea."))
	if len(d.Report.Rejected) != 3 {
		t.Fatalf("want three refused items: %+v", d.Report)
	}
	raw, _ := json.Marshal(d.Report)
	if strings.Contains(string(raw), key[4:20]) {
		t.Fatalf("the run's report holds the secret: %s", raw)
	}
	rows, _, err := f.store.ExtractionRuns(f.ctx, memory.ExtractionRunFilter{Limit: 10})
	if err != nil || len(rows) == 0 {
		t.Fatalf("runs %v %v", rows, err)
	}
	for _, r := range rows {
		if strings.Contains(r.Report, key[4:20]) {
			t.Fatalf("the stored report holds the secret: %s", r.Report)
		}
	}
}
