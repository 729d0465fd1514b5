//go:build bench

package bench

import (
	"fmt"
	"io"
	"sort"
	"time"
)

// printLocomo writes the text report: Engram's figures and the baseline's, by category.
func printLocomo(w io.Writer, path string, rep LocomoReport) {
	fmt.Fprintf(w, "LoCoMo retrieval — %s\n", path)
	fmt.Fprintf(w, "%d conversations, %d turns imported (%d failed) in %s, vectors in %s; search p50 %s, p95 %s\n\n",
		rep.Conversations, rep.Turns, rep.ImportFailed, rep.ImportTime.Round(time.Millisecond),
		rep.EmbedTime.Round(time.Millisecond), rep.SearchP50.Round(10*time.Microsecond), rep.SearchP95.Round(10*time.Microsecond))
	if rep.UndatedSessions > 0 {
		fmt.Fprintf(w, "warning: %d sessions have no date this bench could read; their turns are imported undated\n\n", rep.UndatedSessions)
	}
	row := func(name string, m LocomoMetrics) {
		fmt.Fprintf(w, "  %-22s %5d  %6.3f %6.3f %6.3f %6.3f %6.3f\n", name, m.N, m.R1, m.R5, m.R10, m.R20, m.MRR)
	}
	names := map[string]string{"1": "1 multi-hop", "2": "2 temporal", "3": "3 open-domain", "4": "4 single-hop"}
	for _, part := range []struct {
		title string
		set   LocomoSet
	}{{"Engram recall, in sample (the defaults, chosen on these conversations)", rep.LocomoSet},
		{"Engram recall, cross-validated (each conversation scored with the tuning chosen on the others)", cvSet(rep)},
		{"FTS5 BM25 baseline", rep.Baseline}} {
		if part.set.ByCategory == nil {
			continue
		}
		fmt.Fprintf(w, "%s\n  %-22s %5s  %6s %6s %6s %6s %6s\n", part.title, "category", "n", "R@1", "R@5", "R@10", "R@20", "MRR")
		cats := make([]string, 0, len(part.set.ByCategory))
		for c := range part.set.ByCategory {
			cats = append(cats, c)
		}
		sort.Strings(cats)
		for _, c := range cats {
			name := names[c]
			if name == "" {
				name = c
			}
			row(name, part.set.ByCategory[c])
		}
		row("overall", part.set.Overall)
		fmt.Fprintln(w)
	}
	if cv := rep.CV; cv != nil {
		fmt.Fprintf(w, "Cross-validation: %d parameters re-chosen per fold by one pass of coordinate ascent on R@10+MRR\n", len(cv.Tuned))
		fmt.Fprintf(w, "(%d runs of a conversation, %s):\n", cv.Evaluations, cv.Took.Round(time.Second))
		for _, f := range cv.Folds {
			fmt.Fprintf(w, "  held out %-8s R@10 %.3f MRR %.3f (n %d); chose %s\n", f.Held, f.Score.R10, f.Score.MRR, f.Score.N, chosenText(f.Chosen))
		}
		fmt.Fprintf(w, "  on all five (in sample) the procedure chooses %s\n\n", chosenText(cv.AllFive))
		fmt.Fprintf(w, "On conversations it was not tuned on: R@10 %.3f, MRR %.3f (in sample %.3f / %.3f).\n",
			cv.Overall.R10, cv.Overall.MRR, rep.Overall.R10, rep.Overall.MRR)
	}
}

func cvSet(rep LocomoReport) LocomoSet {
	if rep.CV == nil {
		return LocomoSet{}
	}
	return rep.CV.LocomoSet
}
