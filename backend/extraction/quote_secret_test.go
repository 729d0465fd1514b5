package extraction

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/llm/llmtest"
	"engram/backend/memory"
)

// A quote cut from words that hold a secret is checked against the whole of them: a quote
// holding any part of the secret is dropped (the item still applies, its confidence lowered),
// and a profile signal read on the secret's line is not recorded. The trigger: the profile kept
// a webhook's secret cut to 80 characters as its source_quote, and "recent_topic: Slack/AWS"
// from the sentences whose facts were refused as secrets.
func TestQuotesNeverHoldASecret(t *testing.T) {
	said := "Our AWS deploy key AKIAZ7QXW3RT5YUIOP2M posts every deploy.\nI prefer short commit messages."
	cases := []struct {
		name, plan string
		quote      string // the stored quote of the item
		leak       string // never stored anywhere
	}{
		{"a quote cut inside a key",
			`{"status":"updated","items":[{"action":"write","slug":"deploy-notices","scope":"global","type":"reference",
 "description":"Deploys run on AWS","body":"Deploys run on AWS.","confidence":"high",
 "source_quote":"AWS deploy key AKIAZ7QXW3"}],
 "profile":[{"kind":"recent_topic","value":"AWS","quote":"Our AWS deploy key"},
  {"kind":"communication_style","value":"short commit messages","quote":"I prefer short commit messages"}]}`,
			"", "AKIAZ7QX"},
		{"a quote beside the secret",
			`{"status":"updated","items":[{"action":"write","slug":"deploy-notices","scope":"global","type":"reference",
 "description":"Deploys run on AWS","body":"Deploys run on AWS.","confidence":"high",
 "source_quote":"posts every deploy"}],
 "profile":[{"kind":"recent_topic","value":"AWS","quote":"Our AWS deploy key"},
  {"kind":"communication_style","value":"short commit messages","quote":"I prefer short commit messages"}]}`,
			"posts every deploy", "AKIAZ7QX"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFx(t, modelPlanner(t, llmtest.Call("SubmitMemoryPlan", c.plan)))
			d := f.run(turn("s1", said))
			if len(d.Report.Applied) != 2 {
				t.Fatalf("run %+v %+v", d.RunSummary, d.Report)
			}
			m, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", "deploy-notices")
			if err != nil || m.SourceQuote != c.quote {
				t.Fatalf("item %+v %v, want quote %q", m, err, c.quote)
			}
			if c.quote == "" && (m.Confidence == memory.ConfidenceHigh || len(d.Report.Applied[0].Warnings) == 0 ||
				d.Report.Applied[0].Warnings[0].Code != CodeQuoteSecret) {
				t.Fatalf("confidence %s, warnings %+v: want it lowered, the quote said dropped as a secret", m.Confidence, d.Report.Applied[0].Warnings)
			}
			p, err := f.store.GetBySlug(f.ctx, memory.ScopeGlobal, "", "", ProfileSlug)
			if err != nil || strings.Contains(p.Body, "recent_topic") || !strings.Contains(p.Body, "communication_style: short commit messages") ||
				p.SourceQuote != "I prefer short commit messages" {
				t.Fatalf("profile %+v %v: want only the signal away from the secret", p, err)
			}
			_ = filepath.WalkDir(filepath.Join(f.home, "memory"), func(path string, e os.DirEntry, err error) error {
				if err != nil || e.IsDir() || !strings.HasSuffix(path, ".md") {
					return nil
				}
				if data, _ := os.ReadFile(path); strings.Contains(string(data), c.leak) {
					t.Errorf("%s holds part of the secret:\n%s", path, data)
				}
				return nil
			})
		})
	}
}
