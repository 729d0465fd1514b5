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
	row := func(name string, m LocomoMetrics) {
		fmt.Fprintf(w, "  %-22s %5d  %6.3f %6.3f %6.3f %6.3f %6.3f\n", name, m.N, m.R1, m.R5, m.R10, m.R20, m.MRR)
	}
	names := map[string]string{"1": "1 multi-hop", "2": "2 temporal", "3": "3 open-domain", "4": "4 single-hop"}
	for _, part := range []struct {
		title string
		set   LocomoSet
	}{{"Engram recall", rep.LocomoSet}, {"FTS5 BM25 baseline", rep.Baseline}} {
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
}
