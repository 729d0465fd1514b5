package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/llm/llmtest"
	"engram/backend/settings"
	"engram/backend/wire"
)

// configure points the home at srv (a model on 127.0.0.1) through the services, as the
// settings drawer would.
func (h *home) configure(srv *llmtest.Server, model string) {
	h.t.Helper()
	ctx := context.Background()
	svc, err := wire.Open(ctx, wire.Options{Home: h.dir, Lang: "en", Catalog: h.cat, Passive: true})
	if err != nil {
		h.t.Fatal(err)
	}
	defer svc.Close()
	p, u, m := "openai", srv.URL(), model
	if _, err := svc.Settings.Update(ctx, settings.Patch{LLM: &settings.LLMPatch{Provider: &p, BaseURL: &u, Model: &m}}); err != nil {
		h.t.Fatal(err)
	}
}

// TestLLMAndUsageVerbs: llm status/test, the key read from stdin (never argv) and shown only
// as set, then usage as a table, CSV and JSON.
func TestLLMAndUsageVerbs(t *testing.T) {
	h := newHome(t)
	if out := h.ok("llm", "status"); !strings.Contains(out, "No language model") {
		t.Fatalf("status of a fresh home: %s", out)
	}
	if code, _, errs := h.run("", "llm", "test"); code != 1 || !strings.Contains(errs, "No language model is set up") {
		t.Fatalf("test without a model: %d %s", code, errs)
	}
	srv := llmtest.NewOpenAI(t)
	h.configure(srv, "gpt-4o-mini")

	const key = "sk-cli-0123456789abcdefKEY"
	if code, out, errs := h.run(key+"\n", "llm", "key", "set"); code != 0 || strings.Contains(out+errs, key) {
		t.Fatalf("key set: %d %q %q", code, out, errs)
	}
	b, err := os.ReadFile(filepath.Join(h.dir, "llm.keys"))
	if err != nil || !strings.Contains(string(b), key) {
		t.Fatalf("key file: %v", err)
	}
	if out := h.ok("llm", "status"); !strings.Contains(out, "key set") || strings.Contains(out, key) {
		t.Fatalf("status: %s", out)
	}
	if code, _, _ := h.run("", "llm", "key", "set"); code != 1 {
		t.Fatalf("an empty key was accepted")
	}

	srv.Push(llmtest.Text("pong").WithUsage(1_000_000, 0), llmtest.Text("pong").WithUsage(20, 2))
	if out := h.ok("llm", "test"); !strings.Contains(out, "gpt-4o-mini") {
		t.Fatalf("test: %s", out)
	}
	var res api.LLMTestResult
	if err := json.Unmarshal([]byte(h.ok("llm", "test", "--json")), &res); err != nil || !res.OK || res.Reply != "pong" {
		t.Fatalf("test --json: %v %+v", err, res)
	}
	if got := srv.Requests()[0].Auth(); got != "Bearer "+key {
		t.Fatalf("sent auth %q", got)
	}
	srv.Push(llmtest.Status(401, ""))
	if code, _, errs := h.run("", "llm", "test"); code != 1 || !strings.Contains(errs, "refused the API key") {
		t.Fatalf("failing test: %d %s", code, errs)
	}

	out := h.ok("usage", "--days", "3")
	for _, want := range []string{"3 calls", "$0.1500", "Connection test", "gpt-4o-mini", "1000020", "cache rates"} {
		if !strings.Contains(out, want) {
			t.Fatalf("usage lacks %q:\n%s", want, out)
		}
	}
	// The days table lists the day with calls, not the two without.
	if strings.Count(out, "$0.0000") != 0 {
		t.Fatalf("usage lists days without calls:\n%s", out)
	}
	recs, err := csv.NewReader(strings.NewReader(h.ok("usage", "--days", "3", "--csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// Header, one purpose, one model, three days.
	if len(recs) != 6 || recs[1][0] != "purpose" || recs[1][1] != "test_connection" || recs[1][2] != "3" || recs[2][1] != "gpt-4o-mini" {
		t.Fatalf("csv: %v", recs)
	}
	var sum api.UsageSummaryResult
	if err := json.Unmarshal([]byte(h.ok("usage", "--json")), &sum); err != nil || sum.Total.Calls != 3 || len(sum.ByDay) != 30 {
		t.Fatalf("usage --json: %v %+v", err, sum.Total)
	}
	if code, _, errs := h.run("", "usage", "--days", "999"); code != 1 || errs == "" {
		t.Fatalf("usage --days 999: %d %s", code, errs)
	}
	if h.ok("llm", "key", "clear"); true {
		if out := h.ok("llm", "status"); !strings.Contains(out, "no key needed") {
			t.Fatalf("after clear: %s", out)
		}
	}
}

// A call costing a few millionths of a dollar read "$0.0000", as if it cost nothing.
func TestMoneyNeverReadsZeroForACost(t *testing.T) {
	for usd, want := range map[float64]string{0: "$0.0000", 0.000003: "<$0.0001", 0.00005: "$0.0001", 0.15: "$0.1500", 12.34567: "$12.3457"} {
		if got := money(usd); got != want {
			t.Errorf("money(%v) = %q, want %q", usd, got, want)
		}
	}
}
