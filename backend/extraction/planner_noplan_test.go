package extraction

import (
	"strings"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
)

// A model that answers in text instead of calling SubmitMemoryPlan, even when asked again, or
// whose plan cannot be read twice, does not lose an explicit "remember …": the offline
// extractor plans the turn, as it does when the model fails outright, and the run says the
// model gave no plan (in words, through the catalog). Over the real wire (loopback server).
func TestModelWithoutAPlanPlansOffline(t *testing.T) {
	cases := []struct {
		name    string
		srv     func(testing.TB) *llmtest.Server
		replies []llmtest.Reply
		said    string
		want    string // in the applied memory's title or body
		code    string
	}{
		{"text twice", llmtest.NewOpenAI, []llmtest.Reply{llmtest.Text("Got it, I'll remember."), llmtest.Text("Noted!")},
			"Remember that I prefer kebab-case for URL paths.", "kebab-case", CodeModelNoPlan},
		{"text twice, Chinese", llmtest.NewAnthropic, []llmtest.Reply{llmtest.Text("好的，我记住了。"), llmtest.Text("好的。")},
			"记住：我喜欢喝普洱茶", "普洱茶", CodeModelNoPlan},
		{"malformed twice", llmtest.NewOpenAI, []llmtest.Reply{llmtest.Call("SubmitMemoryPlan", `{"status":`),
			llmtest.Call("SubmitMemoryPlan", `{"status":"updated","items":[],"accept":true}`)},
			"Remember that I prefer kebab-case for URL paths.", "kebab-case", CodeModelBadPlan},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := c.srv(t)
			srv.Push(c.replies...)
			provider := llm.ProviderOpenAI
			if srv.Wire() == llmtest.WireAnthropic {
				provider = llm.ProviderAnthropic
			}
			client, err := llm.New(llm.Config{Provider: provider, BaseURL: srv.URL(), Model: "scripted-model"}, "sk-test", nil)
			if err != nil {
				t.Fatal(err)
			}
			p := ModelOrOffline{Model: func() (llm.Client, error) { return client, nil }, Offline: NewOffline()}
			f := newFx(t, p)
			d := f.run(turn("s1", c.said))
			if d.Status != StatusDone || len(d.Report.Applied) == 0 {
				t.Fatalf("run %+v %+v, want the offline extractor's memory", d.RunSummary, d.Report)
			}
			m, err := f.store.Get(f.ctx, d.Report.Applied[0].ID)
			if err != nil || !strings.Contains(m.Title+m.Body, c.want) {
				t.Fatalf("memory %+v %v, want %q in it", m, err, c.want)
			}
			if !d.Report.PlannedOffline || d.Report.ErrorCode != c.code || !d.Report.Retried || d.Model != offlineModel {
				t.Fatalf("report %+v model %s, want planned offline after the retry, code %s", d.Report, d.Model, c.code)
			}
			if !testCatalog(t).Has("error." + c.code) {
				t.Fatalf("no catalog text for %s", c.code)
			}
			if n := len(srv.Requests()); n != 2 {
				t.Fatalf("%d calls to the model, want 2 (the ask and its retry)", n)
			}
		})
	}
}
