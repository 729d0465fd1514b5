//go:build bench

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"engram/backend/extraction"
	"engram/backend/memory"
)

// ExtractionFigures are the extraction controller's overhead at one store size, the model left
// out: a scripted planner answers at once, so what is measured is the gates, the compact
// context (candidate search, rejections, quota), validation and the one apply_batch.
type ExtractionFigures struct {
	N int `json:"n"`
	// Runs: requests that pass the gates and apply a 3-item plan (2 writes, 1 update).
	RunP50Ms float64 `json:"run_p50_ms"`
	RunP95Ms float64 `json:"run_p95_ms"`
	// Skips: requests a gate stops (a greeting), recorded.
	SkipP50Ms float64 `json:"skip_p50_ms"`
	SkipP95Ms float64 `json:"skip_p95_ms"`
	Runs      int     `json:"runs"`
}

// benchPlanner proposes a fresh plan per run at once (no model), its texts drawn from the
// same vocabulary as the store so that new memories are as varied as the old ones.
type benchPlanner struct {
	n int
	r *rand.Rand
	v *vocab
}

func (p *benchPlanner) Plan(_ context.Context, in extraction.Input) (extraction.Outcome, error) {
	p.n++
	items := []extraction.PlanItem{
		{Action: "write", Slug: fmt.Sprintf("bench-pref-%05d", p.n), Scope: "global", Type: "user", Description: "Bench preference",
			Body: p.v.sentence(p.r, 14), Confidence: "high", SourceQuote: "I like"},
		{Action: "write", Slug: fmt.Sprintf("bench-fact-%05d", p.n), Scope: "global", Type: "reference", Description: "Bench fact",
			Body: p.v.sentence(p.r, 10), Relations: []extraction.Relation{{Relation: "uses", Object: "Wiki"}}},
		{Action: "update", Slug: "mem-0000001", Scope: "agent", Body: fmt.Sprintf("Seen again in run %d.", p.n)},
	}
	return extraction.Outcome{Plan: extraction.Plan{Status: "updated", Items: items}, Model: "scripted"}, nil
}

// RunExtraction measures the controller over n synthetic memories in a fresh temporary home.
func RunExtraction(ctx context.Context, n int, progress io.Writer) (ExtractionFigures, error) {
	f := ExtractionFigures{N: n}
	home, err := os.MkdirTemp("", "engram-bench-extract-")
	if err != nil {
		return f, err
	}
	defer os.RemoveAll(home)
	r := rand.New(rand.NewPCG(uint64(n), 7))
	v := newVocab(r)
	if progress != nil {
		fmt.Fprintf(progress, "  [%d] generating and indexing\n", n)
	}
	if _, err := generate(home, n, r, v); err != nil {
		return f, err
	}
	st, err := memory.Open(ctx, home, memory.Options{})
	if err != nil {
		return f, err
	}
	defer st.Close()
	svc := extraction.New(ctx, extraction.Options{Store: st, Planner: &benchPlanner{r: rand.New(rand.NewPCG(uint64(n), 9)), v: v}})
	defer svc.Close()
	const rounds = 150
	if progress != nil {
		fmt.Fprintf(progress, "  [%d] %d extraction runs, %d gated requests\n", n, rounds, rounds)
	}
	var runs, skips []time.Duration
	for i := 0; i < rounds; i++ {
		req := extraction.Request{SessionID: "bench-" + strconv.Itoa(i), Agent: "agent-0000", Messages: []extraction.Message{
			{Role: "user", Content: v.sentence(r, 12)}, {Role: "assistant", Content: v.sentence(r, 20)},
			{Role: "user", Content: "I like " + v.sentence(r, 16)},
		}}
		t0 := time.Now()
		d, err := svc.Request(ctx, req, true)
		if err != nil {
			return f, err
		}
		if d.Status != extraction.StatusDone {
			return f, fmt.Errorf("bench: run %d ended %s (%s)", i, d.Status, d.Reason)
		}
		runs = append(runs, time.Since(t0))
		skip := extraction.Request{SessionID: "bench-skip-" + strconv.Itoa(i), Agent: "agent-0000",
			Messages: []extraction.Message{{Role: "user", Content: "Thanks, that works!"}}}
		t0 = time.Now()
		if d, err := svc.Request(ctx, skip, true); err != nil || d.Status != extraction.StatusSkipped {
			return f, fmt.Errorf("bench: gated request ended %s: %v", d.Status, err)
		}
		skips = append(skips, time.Since(t0))
	}
	f.Runs = rounds
	f.RunP50Ms, f.RunP95Ms = percentile(runs, 0.5), percentile(runs, 0.95)
	f.SkipP50Ms, f.SkipP95Ms = percentile(skips, 0.5), percentile(skips, 0.95)
	return f, nil
}

// PrintExtraction writes the figures as a table or JSON.
func PrintExtraction(w io.Writer, figs []ExtractionFigures, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(figs)
		return
	}
	ff := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + " ms" }
	fmt.Fprintf(w, "%-44s", "memories")
	for _, f := range figs {
		fmt.Fprintf(w, "%14d", f.N)
	}
	fmt.Fprintln(w)
	for _, row := range []struct {
		label string
		get   func(ExtractionFigures) float64
	}{
		{"extraction run p50 (gates+context+apply)", func(f ExtractionFigures) float64 { return f.RunP50Ms }},
		{"extraction run p95 (model excluded)", func(f ExtractionFigures) float64 { return f.RunP95Ms }},
		{"gated request p50 (skipped, recorded)", func(f ExtractionFigures) float64 { return f.SkipP50Ms }},
		{"gated request p95", func(f ExtractionFigures) float64 { return f.SkipP95Ms }},
	} {
		fmt.Fprintf(w, "%-44s", row.label)
		for _, f := range figs {
			fmt.Fprintf(w, "%14s", ff(row.get(f)))
		}
		fmt.Fprintln(w)
	}
}
