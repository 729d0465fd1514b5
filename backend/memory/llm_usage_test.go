package memory

import (
	"math"
	"testing"
	"time"
)

func TestLLMUsageSummary(t *testing.T) {
	e := newEnv(t)
	shanghai := time.FixedZone("CST", 8*3600)
	day := func(d, h int) time.Time { return time.Date(2024, 5, d, h, 0, 0, 0, shanghai) }
	recs := []UsageRecord{
		{At: day(10, 9), Provider: "openai", Model: "gpt-4o-mini", Purpose: "extraction", InputTokens: 1000, OutputTokens: 100, CostUSD: 0.01},
		{At: day(10, 23), Provider: "openai", Model: "gpt-4o-mini", Purpose: "extraction", InputTokens: 500, OutputTokens: 50, CostUSD: 0.005},
		// 00:30 local on the 11th is still the 10th in UTC: it must count for the 11th.
		{At: day(11, 0).Add(30 * time.Minute), Provider: "anthropic", Model: "claude-sonnet-4", Purpose: "organizer_plan", InputTokens: 2000, OutputTokens: 400, CostUSD: 0.2},
		{At: day(12, 12), Provider: "openai", Model: "llama3", Purpose: "extraction", InputTokens: 300, OutputTokens: 30},
		// Outside the range: before and at its end.
		{At: day(9, 12), Provider: "openai", Model: "gpt-4o-mini", Purpose: "extraction", InputTokens: 9, OutputTokens: 9, CostUSD: 9},
		{At: day(14, 0), Provider: "openai", Model: "gpt-4o-mini", Purpose: "extraction", InputTokens: 9, OutputTokens: 9, CostUSD: 9},
	}
	for _, r := range recs {
		if err := e.s.RecordLLMUsage(e.ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := e.s.SummarizeLLMUsage(e.ctx, day(10, 0), day(14, 0), shanghai)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total.Calls != 4 || sum.Total.InputTokens != 3800 || sum.Total.OutputTokens != 580 || math.Abs(sum.Total.CostUSD-0.215) > 1e-9 {
		t.Fatalf("total = %+v", sum.Total)
	}
	if len(sum.ByPurpose) != 2 || sum.ByPurpose[0].Key != "organizer_plan" || sum.ByPurpose[1].Calls != 3 {
		t.Fatalf("by purpose = %+v", sum.ByPurpose)
	}
	if len(sum.ByModel) != 3 || sum.ByModel[0].Key != "claude-sonnet-4" || sum.ByModel[2].Key != "llama3" {
		t.Fatalf("by model = %+v", sum.ByModel)
	}
	wantDays := []struct {
		key   string
		calls int
	}{{"2024-05-10", 2}, {"2024-05-11", 1}, {"2024-05-12", 1}, {"2024-05-13", 0}}
	if len(sum.ByDay) != len(wantDays) {
		t.Fatalf("by day = %+v", sum.ByDay)
	}
	for i, w := range wantDays {
		if sum.ByDay[i].Key != w.key || sum.ByDay[i].Calls != w.calls {
			t.Fatalf("day %d = %+v, want %s with %d calls", i, sum.ByDay[i], w.key, w.calls)
		}
	}
	// Rows survive a reopen (they live in the index's history tables).
	e.reopen()
	again, err := e.s.SummarizeLLMUsage(e.ctx, day(10, 0), day(14, 0), shanghai)
	if err != nil || again.Total != sum.Total {
		t.Fatalf("after reopen: %+v, %v", again.Total, err)
	}
}
