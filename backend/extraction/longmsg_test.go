package extraction

import (
	"fmt"
	"strings"
	"testing"

	"engram/backend/llm/llmtest"
)

// pastedLog is a 200-line log (about 28 KB) followed by the person's request.
func pastedLog(ask string) string {
	var b strings.Builder
	b.WriteString("Here is the deploy log:\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "2026-12-06T10:%02d:%02dZ INFO api-gateway worker=%03d request_id=%08x status=200 latency_ms=%d path=/v1/items/%d\n",
			i/60, i%60, i, i*7919, 10+i%90, i)
	}
	b.WriteString("\n" + ask)
	return b.String()
}

// A request at the end of a long message is not lost: the offline rules read the message's
// head and tail (not its first 4 KiB), and the model is sent its head and tail with a mark
// saying how much was left out (not its first 2,000 characters). The trigger: a pasted log
// followed by "Remember that I prefer kebab-case for URL paths." stored nothing.
func TestRequestAtTheEndOfALongMessage(t *testing.T) {
	cases := []struct{ name, ask, want string }{
		{"English", "Remember that I prefer kebab-case for URL paths.", "kebab-case"},
		{"Chinese", "记住：我喜欢喝普洱茶。", "普洱茶"},
	}
	for _, c := range cases {
		msg := pastedLog(c.ask)
		t.Run(c.name+" offline", func(t *testing.T) {
			f := newFx(t, NewOffline())
			d := f.run(turn("s1", msg))
			if d.Status != StatusDone || len(d.Report.Applied) == 0 {
				t.Fatalf("run %+v %+v", d.RunSummary, d.Report)
			}
			m, err := f.store.Get(f.ctx, d.Report.Applied[0].ID)
			if err != nil || !strings.Contains(m.Title+m.Body, c.want) || !strings.Contains(msg, m.SourceQuote) || m.SourceQuote == "" {
				t.Fatalf("memory %+v %v, want %q quoted verbatim", m, err, c.want)
			}
		})
		t.Run(c.name+" model", func(t *testing.T) {
			srv := llmtest.NewOpenAI(t)
			srv.Push(llmtest.Call("SubmitMemoryPlan", `{"status":"noop","items":[]}`))
			f := newFx(t, modelOn(t, srv))
			if d := f.run(turn("s1", msg)); d.Status != StatusNoop {
				t.Fatalf("run %+v", d.RunSummary)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d calls", len(reqs))
			}
			msgs := reqs[0].Messages()
			sent := fmt.Sprint(msgs[len(msgs)-1]["content"])
			if !strings.Contains(sent, c.ask) || !strings.Contains(sent, "Here is the deploy log:") || !strings.Contains(sent, "characters left out") {
				t.Fatalf("the model was sent:\n%s", sent)
			}
		})
	}
}
