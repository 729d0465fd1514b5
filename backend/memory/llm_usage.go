package memory

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// UsageRecord is one language-model call's accounting, a row of llm_usage. The llm package
// owns what the strings mean; the store only keeps the rows.
type UsageRecord struct {
	At           time.Time
	Provider     string
	Model        string
	Purpose      string
	InputTokens  int
	OutputTokens int
	CostUSD      float64
}

// UsageGroup totals the calls sharing one key (a purpose, a model, a day "YYYY-MM-DD").
type UsageGroup struct {
	Key          string  `json:"key"`
	Calls        int     `json:"calls"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
}

func (g *UsageGroup) add(o UsageGroup) {
	g.Calls += o.Calls
	g.InputTokens += o.InputTokens
	g.OutputTokens += o.OutputTokens
	g.CostUSD += o.CostUSD
}

// UsageSummary totals the calls in [From, To) by purpose, by model and by local day. ByDay
// lists every day of the range, quiet days included, oldest first; the other lists are
// ordered by cost then tokens, highest first.
type UsageSummary struct {
	From      time.Time    `json:"from"`
	To        time.Time    `json:"to"`
	Total     UsageGroup   `json:"total"`
	ByPurpose []UsageGroup `json:"by_purpose"`
	ByModel   []UsageGroup `json:"by_model"`
	ByDay     []UsageGroup `json:"by_day"`
}

// RecordLLMUsage appends one row. A read-only home records nothing: its calls are answered,
// not accounted.
func (s *Store) RecordLLMUsage(ctx context.Context, r UsageRecord) error {
	if s.readOnly {
		return nil
	}
	if r.At.IsZero() {
		r.At = time.Now()
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO llm_usage(ts, provider, model, purpose, input_tokens, output_tokens, cost_usd)
		VALUES(?, ?, ?, ?, ?, ?, ?)`, indexTime(r.At), r.Provider, r.Model, r.Purpose,
		max(r.InputTokens, 0), max(r.OutputTokens, 0), max(r.CostUSD, 0)); err != nil {
		return fmt.Errorf("memory: unable to record LLM usage: %w", err)
	}
	return nil
}

// SummarizeLLMUsage totals the rows in [from, to); days are calendar days in loc.
func (s *Store) SummarizeLLMUsage(ctx context.Context, from, to time.Time, loc *time.Location) (UsageSummary, error) {
	if loc == nil {
		loc = time.Local
	}
	sum := UsageSummary{From: from, To: to, ByPurpose: []UsageGroup{}, ByModel: []UsageGroup{}, ByDay: []UsageGroup{}}
	// Rows are grouped by UTC hour in SQL (ts is a fixed-width UTC stamp, so its first 13
	// characters name the hour) and folded into local days here, which keeps zones with
	// DST or half-hour offsets right without scanning every row in Go.
	rows, err := s.db.QueryContext(ctx, `SELECT substr(ts, 1, 13), purpose, model, COUNT(*),
		SUM(input_tokens), SUM(output_tokens), SUM(cost_usd)
		FROM llm_usage WHERE ts >= ? AND ts < ? GROUP BY 1, 2, 3`, indexTime(from), indexTime(to))
	if err != nil {
		return sum, fmt.Errorf("memory: unable to read LLM usage: %w", err)
	}
	defer rows.Close()
	purposes, models, days := map[string]*UsageGroup{}, map[string]*UsageGroup{}, map[string]*UsageGroup{}
	bump := func(m map[string]*UsageGroup, key string, g UsageGroup) {
		if m[key] == nil {
			m[key] = &UsageGroup{Key: key}
		}
		m[key].add(g)
	}
	for rows.Next() {
		var hour, purpose, model string
		var g UsageGroup
		if err := rows.Scan(&hour, &purpose, &model, &g.Calls, &g.InputTokens, &g.OutputTokens, &g.CostUSD); err != nil {
			return sum, fmt.Errorf("memory: unable to read LLM usage: %w", err)
		}
		t, err := time.Parse("2006-01-02T15", hour)
		if err != nil {
			continue // a row whose stamp does not parse has no day to go to
		}
		sum.Total.add(g)
		bump(purposes, purpose, g)
		bump(models, model, g)
		bump(days, t.In(loc).Format(time.DateOnly), g)
	}
	if err := rows.Err(); err != nil {
		return sum, fmt.Errorf("memory: unable to read LLM usage: %w", err)
	}
	sum.ByPurpose = ranked(purposes)
	sum.ByModel = ranked(models)
	for d := startOfDay(from.In(loc)); d.Before(to); d = d.AddDate(0, 0, 1) {
		key := d.Format(time.DateOnly)
		g := UsageGroup{Key: key}
		if days[key] != nil {
			g = *days[key]
		}
		sum.ByDay = append(sum.ByDay, g)
	}
	return sum, nil
}

func startOfDay(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

func ranked(m map[string]*UsageGroup) []UsageGroup {
	out := make([]UsageGroup, 0, len(m))
	for _, g := range m {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.CostUSD != b.CostUSD {
			return a.CostUSD > b.CostUSD
		}
		if ta, tb := a.InputTokens+a.OutputTokens, b.InputTokens+b.OutputTokens; ta != tb {
			return ta > tb
		}
		return a.Key < b.Key
	})
	return out
}
