package llm_test

import (
	"context"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
)

// TestCachedPromptTokensArePricedAsTheProviderBills: Anthropic bills a prompt-cache read at a
// tenth of the input price and a write to the 5-minute cache at 1.25 times it; OpenAI bills
// cached input at its own lower price. Every cached token was priced as full input, so a call
// reading 10k cached tokens of Claude Sonnet was accounted at three times what it cost. Over
// the loopback server, both wires, plain and streamed; the expected costs are worked by hand
// from the public prices.
func TestCachedPromptTokensArePricedAsTheProviderBills(t *testing.T) {
	forEach(t, func(t *testing.T, v variant) {
		var reply llmtest.Reply
		var wantIn, wantRead, wantWrite int
		var want float64
		switch v.provider {
		case llm.ProviderAnthropic:
			v.model = "claude-sonnet-4-5-20250929"
			// 200 plain at $3/M, 10,000 read at $0.30/M, 2,000 written at $3.75/M, 100 out at $15/M.
			reply = llmtest.Text("ok").WithUsage(200, 100).WithCache(10000, 2000)
			wantIn, wantRead, wantWrite = 12200, 10000, 2000
			want = (200*3.00 + 10000*0.30 + 2000*3.75 + 100*15.00) / 1e6
		default:
			v.model = "gpt-4o-2024-08-06"
			// 1,000 plain at $2.50/M, 9,000 cached at $1.25/M, 100 out at $10/M.
			reply = llmtest.Text("ok").WithUsage(1000, 100).WithCache(9000, 0)
			wantIn, wantRead = 10000, 9000
			want = (1000*2.50 + 9000*1.25 + 100*10.00) / 1e6
		}
		srv := v.server(t)
		srv.Push(reply)
		var got rows
		resp, err := v.client(t, srv, testKey, got.sink).Complete(context.Background(),
			llm.Request{Purpose: "test", Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		if err != nil {
			t.Fatal(err)
		}
		u := resp.Usage
		if u.InputTokens != wantIn || u.CacheReadTokens != wantRead || u.CacheWriteTokens != wantWrite || u.OutputTokens != 100 {
			t.Fatalf("usage %+v; want %d in (%d read, %d written), 100 out", u, wantIn, wantRead, wantWrite)
		}
		r := got.all()
		if len(r) != 1 || !near(r[0].CostUSD, want) || !near(u.CostUSD, want) || r[0].InputTokens != wantIn {
			t.Fatalf("rows %+v, response cost %v; want one row costing %v", r, u.CostUSD, want)
		}
		if full := llm.Cost(v.model, wantIn, 100); near(full, want) {
			t.Fatalf("the cached tokens cost what full input does (%v)", full)
		}
	})
}

// TestUsageCostBounds: a cache count a server reports above the prompt's own is bounded by it
// (no token priced twice, no negative plain input); a model with no cache price known prices
// cached tokens as input; an unknown model costs nothing.
func TestUsageCostBounds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		model string
		u     llm.Usage
		want  float64
	}{
		{"read above the prompt", "claude-sonnet-4-5", llm.Usage{InputTokens: 1000, CacheReadTokens: 5000, OutputTokens: 0}, 1000 * 0.30 / 1e6},
		{"read and write above the prompt", "claude-sonnet-4-5", llm.Usage{InputTokens: 1000, CacheReadTokens: 600, CacheWriteTokens: 600}, (600*0.30 + 400*3.75) / 1e6},
		{"negative counts", "claude-sonnet-4-5", llm.Usage{InputTokens: 1000, CacheReadTokens: -5, CacheWriteTokens: -5}, 1000 * 3.00 / 1e6},
		{"no cache price known", "qwen-plus", llm.Usage{InputTokens: 1000, CacheReadTokens: 1000}, 1000 * 0.40 / 1e6},
		{"unknown model", "llama3.1:8b", llm.Usage{InputTokens: 1000, CacheReadTokens: 500, OutputTokens: 10}, 0},
	} {
		if got := llm.UsageCost(tc.model, tc.u); !near(got, tc.want) {
			t.Errorf("%s: UsageCost = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// near compares costs rounded to a millionth of a dollar, as they are stored.
func near(a, b float64) bool { d := a - b; return d < 1e-6 && d > -1e-6 }
