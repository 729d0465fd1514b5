package llm

import (
	"math"
	"strings"
)

// Price is USD per million tokens.
type Price struct {
	Input  float64
	Output float64
}

// prices of well-known models, from the providers' public price lists. A dated or suffixed
// name (claude-sonnet-4-20250514, gpt-4o-2024-08-06) takes its family's price through the
// longest matching prefix; anything else (local models) costs 0.
var prices = map[string]Price{
	"gpt-4o":            {2.50, 10.00},
	"gpt-4o-mini":       {0.15, 0.60},
	"gpt-4.1":           {2.00, 8.00},
	"gpt-4.1-mini":      {0.40, 1.60},
	"gpt-4.1-nano":      {0.10, 0.40},
	"gpt-5":             {1.25, 10.00},
	"gpt-5-mini":        {0.25, 2.00},
	"gpt-5-nano":        {0.05, 0.40},
	"o3":                {2.00, 8.00},
	"o3-mini":           {1.10, 4.40},
	"o4-mini":           {1.10, 4.40},
	"gpt-3.5-turbo":     {0.50, 1.50},
	"claude-opus-4":     {15.00, 75.00},
	"claude-opus-4-1":   {15.00, 75.00},
	"claude-opus-4-5":   {5.00, 25.00},
	"claude-sonnet-4":   {3.00, 15.00},
	"claude-sonnet-4-5": {3.00, 15.00},
	"claude-3-7-sonnet": {3.00, 15.00},
	"claude-3-5-sonnet": {3.00, 15.00},
	"claude-haiku-4-5":  {1.00, 5.00},
	"claude-3-5-haiku":  {0.80, 4.00},
	"claude-3-haiku":    {0.25, 1.25},
	"deepseek-chat":     {0.27, 1.10},
	"deepseek-reasoner": {0.55, 2.19},
	"qwen-max":          {1.60, 6.40},
	"qwen-plus":         {0.40, 1.20},
	"qwen-turbo":        {0.05, 0.20},
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
func Cost(model string, in, out int) float64 {
	p, ok := PriceOf(model)
	if !ok {
		return 0
	}
	c := (float64(in)*p.Input + float64(out)*p.Output) / 1e6
	return math.Round(c*1e6) / 1e6
}
