package llm

import (
	"math"
	"strings"
)

// Price is USD per million tokens. CacheRead is what a prompt token read from the provider's
// prompt cache costs, CacheWrite what one written to it costs (Anthropic's 5-minute cache); 0
// is "no such price known", and those tokens are priced as ordinary input.
type Price struct {
	Input      float64
	Output     float64
	CacheRead  float64
	CacheWrite float64
}

// Anthropic bills a prompt-cache read at a tenth of the input price and a write to the
// 5-minute cache at 1.25 times it (its price list states the multipliers, for every model).
const (
	anthropicCacheRead  = 0.1
	anthropicCacheWrite = 1.25
)

// claude is a Claude model's price: its cache prices follow from its input price.
func claude(in, out float64) Price {
	return Price{Input: in, Output: out, CacheRead: in * anthropicCacheRead, CacheWrite: in * anthropicCacheWrite}
}

// prices of well-known models, from the providers' public price lists (OpenAI's and
// DeepSeek's cached input as CacheRead; their caches cost nothing to write). A dated or suffixed
// name (claude-sonnet-4-20250514, gpt-4o-2024-08-06) takes its family's price through the
// longest matching prefix; anything else (local models) costs 0.
var prices = map[string]Price{
	"gpt-4o":            {Input: 2.50, Output: 10.00, CacheRead: 1.25},
	"gpt-4o-mini":       {Input: 0.15, Output: 0.60, CacheRead: 0.075},
	"gpt-4.1":           {Input: 2.00, Output: 8.00, CacheRead: 0.5},
	"gpt-4.1-mini":      {Input: 0.40, Output: 1.60, CacheRead: 0.1},
	"gpt-4.1-nano":      {Input: 0.10, Output: 0.40, CacheRead: 0.025},
	"gpt-5":             {Input: 1.25, Output: 10.00, CacheRead: 0.125},
	"gpt-5-mini":        {Input: 0.25, Output: 2.00, CacheRead: 0.025},
	"gpt-5-nano":        {Input: 0.05, Output: 0.40, CacheRead: 0.005},
	"o3":                {Input: 2.00, Output: 8.00, CacheRead: 0.5},
	"o3-mini":           {Input: 1.10, Output: 4.40, CacheRead: 0.55},
	"o4-mini":           {Input: 1.10, Output: 4.40, CacheRead: 0.275},
	"gpt-3.5-turbo":     {Input: 0.50, Output: 1.50},
	"claude-opus-4":     claude(15.00, 75.00),
	"claude-opus-4-1":   claude(15.00, 75.00),
	"claude-opus-4-5":   claude(5.00, 25.00),
	"claude-sonnet-4":   claude(3.00, 15.00),
	"claude-sonnet-4-5": claude(3.00, 15.00),
	"claude-3-7-sonnet": claude(3.00, 15.00),
	"claude-3-5-sonnet": claude(3.00, 15.00),
	"claude-haiku-4-5":  claude(1.00, 5.00),
	"claude-3-5-haiku":  claude(0.80, 4.00),
	"claude-3-haiku":    claude(0.25, 1.25),
	"deepseek-chat":     {Input: 0.27, Output: 1.10, CacheRead: 0.07},
	"deepseek-reasoner": {Input: 0.55, Output: 2.19, CacheRead: 0.14},
	"qwen-max":          {Input: 1.60, Output: 6.40},
	"qwen-plus":         {Input: 0.40, Output: 1.20},
	"qwen-turbo":        {Input: 0.05, Output: 0.20},
}

// PriceOf returns the price of model (case-insensitive, longest known prefix followed by the
// end of the name or a dash), and whether one is known.
func PriceOf(model string) (Price, bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	// "openai/gpt-4o" style names from routers keep only the last part.
	if i := strings.LastIndex(m, "/"); i >= 0 {
		m = m[i+1:]
	}
	best, found := "", false
	for name := range prices {
		if (m == name || strings.HasPrefix(m, name+"-")) && len(name) > len(best) {
			best, found = name, true
		}
	}
	return prices[best], found
}

// Cost is what a call cost in USD, rounded to a millionth; 0 when the model's price is unknown.
// Every input token is priced as ordinary input (UsageCost prices cached ones).
func Cost(model string, in, out int) float64 {
	return UsageCost(model, Usage{InputTokens: in, OutputTokens: out})
}

// UsageCost is what a call with usage u cost in USD, rounded to a millionth; 0 when the
// model's price is unknown. u.InputTokens counts every prompt token; those of them read from
// or written to the provider's prompt cache (u.CacheReadTokens, u.CacheWriteTokens) take the
// cache prices — a call that read 100k cached tokens was priced as 100k of full input, ten
// times what Anthropic bills. A cache count larger than the input (a server's odd report) is
// bounded by it, so no token is priced twice.
func UsageCost(model string, u Usage) float64 {
	p, ok := PriceOf(model)
	if !ok {
		return 0
	}
	in := max(u.InputTokens, 0)
	read := min(max(u.CacheReadTokens, 0), in)
	write := min(max(u.CacheWriteTokens, 0), in-read)
	readPrice, writePrice := p.CacheRead, p.CacheWrite
	if readPrice == 0 {
		readPrice = p.Input
	}
	if writePrice == 0 {
		writePrice = p.Input
	}
	c := (float64(in-read-write)*p.Input + float64(read)*readPrice + float64(write)*writePrice +
		float64(max(u.OutputTokens, 0))*p.Output) / 1e6
	return math.Round(c*1e6) / 1e6
}
