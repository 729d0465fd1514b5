//go:build bench

package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"engram/backend/bench"
)

// benchCmd runs benchmarks in their own temporary homes; it never touches the user's home.
func (r *runner) benchCmd(ctx context.Context, args []string) error {
	var sizes string
	pos, err := r.flags("bench", args, func(fs *flag.FlagSet) {
		fs.StringVar(&sizes, "sizes", "10000,100000", "comma-separated store sizes")
	})
	if err != nil {
		return err
	}
	if err := r.need("bench", "store | recall | bridge | locomo FILE", pos, 1); err != nil {
		return err
	}
	switch pos[0] {
	case "store":
		var figs []bench.StoreFigures
		for _, s := range strings.Split(sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n <= 0 {
				return usageError("bench store --sizes: " + s)
			}
			f, err := bench.RunStore(ctx, n, r.env.Stderr)
			if err != nil {
				return err
			}
			figs = append(figs, f)
		}
		bench.PrintStore(r.env.Stdout, figs, r.json)
		return nil
	case "recall":
		var ns []int
		for _, s := range strings.Split(sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n <= 0 {
				return usageError("bench recall --sizes: " + s)
			}
			ns = append(ns, n)
		}
		return bench.RunRecallScale(ctx, ns, r.json, r.env.Stdout)
	case "bridge":
		f, err := bench.RunBridge(ctx, 10000, r.env.Stderr)
		if err != nil {
			return err
		}
		bench.PrintBridge(r.env.Stdout, f, r.json)
		return nil
	case "locomo":
		if err := r.need("bench locomo", "FILE", pos, 2); err != nil {
			return err
		}
		return runLocomo(ctx, pos[1], r.json, r.env.Stdout)
	}
	return usageError(fmt.Sprintf("bench %s: use store, recall, bridge or locomo", pos[0]))
}
