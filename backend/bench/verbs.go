//go:build bench

package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
)

// Run answers `engram bench store|recall|corpus|cli|extraction|bridge|mcp|hook|graph|locomo`, the command line already read by
// the CLI: figures to stdout (JSON with jsonOut), progress to stderr.
func Run(ctx context.Context, what string, sizes []int, file string, jsonOut bool, stdout, stderr io.Writer) error {
	// ENGRAM_BENCH_CPUPROFILE=FILE writes a CPU profile of the run (go tool pprof FILE).
	if path := os.Getenv("ENGRAM_BENCH_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	switch what {
	case "store":
		var figs []StoreFigures
		for _, n := range sizes {
			f, err := RunStore(ctx, n, stderr)
			if err != nil {
				return err
			}
			figs = append(figs, f)
		}
		PrintStore(stdout, figs, jsonOut)
		return nil
	case "recall":
		return RunRecallScale(ctx, sizes, jsonOut, stdout)
	case "corpus":
		bin, err := os.Executable()
		if err != nil {
			return err
		}
		var figs []CorpusFigures
		for _, n := range sizes {
			f, err := RunCorpus(ctx, n, bin, stderr)
			if err != nil {
				return err
			}
			figs = append(figs, f)
		}
		PrintCorpus(stdout, figs, jsonOut)
		return nil
	case "backup":
		var figs []BackupFigures
		for _, n := range sizes {
			f, err := RunBackup(ctx, n, stderr)
			if err != nil {
				return err
			}
			figs = append(figs, f)
		}
		PrintBackup(stdout, figs, jsonOut)
		return nil
	case "extraction":
		var figs []ExtractionFigures
		for _, n := range sizes {
			f, err := RunExtraction(ctx, n, stderr)
			if err != nil {
				return err
			}
			figs = append(figs, f)
		}
		PrintExtraction(stdout, figs, jsonOut)
		return nil
	case "history":
		// The figures: commit overhead per apply_batch at 10k memories, sync of 1,000 changes.
		n := 10000
		if len(sizes) > 0 {
			n = sizes[0]
		}
		f, err := RunHistory(ctx, n, 300, 1000, stderr)
		if err != nil {
			return err
		}
		PrintHistory(stdout, f, jsonOut)
		return nil
	case "bridge":
		f, err := RunBridge(ctx, 10000, stderr)
		if err != nil {
			return err
		}
		PrintBridge(stdout, f, jsonOut)
		return nil
	case "graph":
		// The sizes: the build from 100k memories, queries at 10k entities / 50k relations.
		f, err := RunGraph(ctx, 100000, 10000, 50000, 500, stderr)
		if err != nil {
			return err
		}
		PrintGraph(stdout, f, jsonOut)
		return nil
	case "locomo":
		return RunLocomo(ctx, file, jsonOut, stdout, stderr)
	case "hook":
		bin, err := os.Executable()
		if err != nil {
			return err
		}
		f, err := RunHook(ctx, bin, 20, stderr)
		if err != nil {
			return err
		}
		PrintHook(stdout, f, jsonOut)
		return nil
	case "cli":
		bin, err := cliBinary()
		if err != nil {
			return err
		}
		runs := 20
		if v, err := strconv.Atoi(os.Getenv("ENGRAM_BENCH_CLI_RUNS")); err == nil && v > 0 {
			runs = v
		}
		var figs []CLIFigures
		for _, n := range sizes {
			f, err := RunCLI(ctx, n, runs, bin, stderr)
			if err != nil {
				return err
			}
			figs = append(figs, f)
		}
		PrintCLI(stdout, figs, jsonOut)
		return nil
	case "mcp":
		bin, err := os.Executable()
		if err != nil {
			return err
		}
		f, err := RunMCP(ctx, 10000, bin, stderr)
		if err != nil {
			return err
		}
		PrintMCP(stdout, f, jsonOut)
		return nil
	}
	return fmt.Errorf("bench: unknown benchmark %q", what)
}
