//go:build bench

package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"engram/backend/embed"
	"engram/backend/memory"
	"engram/backend/vector"
)

// CLIFigures are whole-process timings of the CLI on one home: what a hook, a script or an
// agent pays per call, process start, catalog, index open and the answer included.
type CLIFigures struct {
	N       int     `json:"n"`
	Runs    int     `json:"runs"`
	Binary  string  `json:"binary"`
	LoadAvg string  `json:"loadavg"` // /proc/loadavg when the size started: the machine is shared
	Reindex float64 `json:"reindex_s"`
	Vectors int     `json:"vectors"`
	Version Pct     `json:"version_ms"`
	Search  Pct     `json:"search_ms"` // no Engram process running: the open scans
	Show    Pct     `json:"show_ms"`   // idem
	// SearchFacet is an identity or preference question, nothing running: it reads the user
	// memories through the facet rules, from the readings kept beside the index when it can.
	SearchFacet Pct `json:"search_facet_ms"`
	// SearchWrite is a search right after an `engram write` (not timed), nothing running: the
	// open reconciles the new file and the vector index replays the change log on top of its
	// snapshot.
	SearchWrite Pct `json:"search_after_write_ms"`
	SearchW     Pct `json:"search_watch_ms"` // `engram serve` running: its watcher answers
	ShowW       Pct `json:"show_watch_ms"`
	ScanHits    int `json:"search_hits"`
	// OpenScan and OpenWatch are memory.Open in this process: the scan of every file's stamp
	// with nothing running, and the watcher's answer with serve running.
	OpenScan  Pct `json:"open_scan_ms"`
	OpenWatch Pct `json:"open_watch_ms"`
	// OpenScanCPU is the scan's open in CPU time (user + system, this process's): the scan
	// stats on several goroutines, and the machine may be shared.
	OpenScanCPU Pct `json:"open_scan_cpu_ms"`
}

// Pct is a p50 and a p95 in milliseconds.
type Pct struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
}

// RunCLI builds a home of n memories (files written directly, then `engram reindex` and the
// local embedder's vectors), and spawns bin runs times per command: version, search and show
// with no other Engram process, then the same with `engram serve` running on the home.
func RunCLI(ctx context.Context, n, runs int, bin string, progress io.Writer) (CLIFigures, error) {
	f := CLIFigures{N: n, Runs: runs, Binary: bin, LoadAvg: loadAvg()}
	say := func(format string, a ...any) {
		fmt.Fprintf(progress, "  [cli %d] "+format+"\n", append([]any{n}, a...)...)
	}
	// ENGRAM_BENCH_CLI_HOME=DIR keeps the home between runs (one size only): built the first
	// time, reused as it is after, so builds can be timed against each other on one home
	// without 30 s of reindex and minutes of embedding per run.
	home, reuse := os.Getenv("ENGRAM_BENCH_CLI_HOME"), false
	if home != "" {
		if _, err := os.Stat(filepath.Join(home, "memory", "index.sqlite3")); err == nil {
			reuse = true
		}
	} else {
		var err error
		if home, err = os.MkdirTemp("", "engram-bench-cli-"); err != nil {
			return f, err
		}
		defer os.RemoveAll(home)
	}
	r := rand.New(rand.NewPCG(uint64(n), 7))
	v := newVocab(r)
	if !reuse {
		say("generating %d memory files", n)
		if _, err := generate(home, n, r, v); err != nil {
			return f, err
		}
	}
	run := func(args ...string) (time.Duration, []byte, error) {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG=en")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		t0 := time.Now()
		err := cmd.Run()
		if err != nil {
			return 0, nil, fmt.Errorf("bench: %s %s: %v: %s", bin, strings.Join(args, " "), err, errb.String())
		}
		return time.Since(t0), out.Bytes(), nil
	}
	if reuse {
		say("reusing the home %s", home)
		var err error
		if f.Vectors, err = countVectors(ctx, home); err != nil {
			return f, err
		}
	} else {
		say("engram reindex")
		d, _, err := run("reindex")
		if err != nil {
			return f, err
		}
		f.Reindex = d.Seconds()
		say("embedding with the local embedder")
		if f.Vectors, err = embedAll(ctx, home); err != nil {
			return f, err
		}
	}
	times := func(label string, args func(i int) []string) (Pct, error) {
		var ds []time.Duration
		for i := 0; i < runs; i++ {
			d, out, err := run(args(i)...)
			if err != nil {
				return Pct{}, err
			}
			if label == "search" && i == 0 {
				f.ScanHits = bytes.Count(out, []byte("\n"))
			}
			ds = append(ds, d)
		}
		p := Pct{P50: percentile(ds, 0.5), P95: percentile(ds, 0.95)}
		say("%-22s p50 %7.1f ms  p95 %7.1f ms", label, p.P50, p.P95)
		return p, nil
	}
	qs := queries(r, v, runs, false)
	search := func(i int) []string { return []string{"search", qs[i]} }
	show := func(i int) []string {
		k := r.IntN(n)
		return []string{"show", fmt.Sprintf("mem-%07d", k), "--scope", "agent", "--agent", fmt.Sprintf("agent-%04d", k/400)}
	}
	var err error
	if f.OpenScan, f.OpenScanCPU, err = timeOpen(ctx, home, runs, memory.SettledScan); err != nil {
		return f, err
	}
	say("%-22s p50 %7.1f ms  p95 %7.1f ms (CPU p50 %.1f ms, p95 %.1f ms)", "open in-process (scan)",
		f.OpenScan.P50, f.OpenScan.P95, f.OpenScanCPU.P50, f.OpenScanCPU.P95)
	if f.Version, err = times("version", func(int) []string { return []string{"version"} }); err != nil {
		return f, err
	}
	if f.Search, err = times("search", search); err != nil {
		return f, err
	}
	// Each kind of question is asked once untimed: the first reads every user memory for its
	// facets (as after an upgrade, which changes the build the kept readings name), the later
	// ones are what a hook pays day to day.
	for _, q := range facetQuestions {
		if _, _, err := run("search", q); err != nil {
			return f, err
		}
	}
	if f.SearchFacet, err = times("identity question", func(i int) []string {
		return []string{"search", facetQuestions[i%len(facetQuestions)]}
	}); err != nil {
		return f, err
	}
	if f.Show, err = times("show", show); err != nil {
		return f, err
	}
	stamp := time.Now().UnixNano()
	afterWrite := func(i int) []string {
		slug := fmt.Sprintf("bench-write-%d-%d", stamp, i)
		if _, _, err := run("write", "--scope", "global", "--type", "user", "--slug", slug, "--title", "Bench write "+qs[i],
			"--body", "A note written before a timed search: "+qs[i]+"."); err != nil {
			say("write before the search: %v", err)
		}
		return search(i)
	}
	if f.SearchWrite, err = times("search after a write", afterWrite); err != nil {
		return f, err
	}
	say("starting engram serve")
	stop, err := startServe(ctx, bin, home)
	if err != nil {
		return f, err
	}
	defer stop()
	if f.OpenWatch, _, err = timeOpen(ctx, home, runs, memory.SettledWatcher); err != nil {
		return f, err
	}
	say("%-22s p50 %7.1f ms  p95 %7.1f ms", "open in-process (watch)", f.OpenWatch.P50, f.OpenWatch.P95)
	if f.SearchW, err = times("search (serve running)", search); err != nil {
		return f, err
	}
	if f.ShowW, err = times("show (serve running)", show); err != nil {
		return f, err
	}
	return f, nil
}

// timeOpen opens (and closes) the store on home runs times in this process and checks each
// open settled the way asked: the open's wall time, and its CPU time.
func timeOpen(ctx context.Context, home string, runs int, want string) (wall, cpu Pct, err error) {
	var ds, cs []time.Duration
	for i := 0; i < runs; i++ {
		t0, c0 := time.Now(), cpuSeconds()
		st, err := memory.Open(ctx, home, memory.Options{Logger: quietLogger()})
		if err != nil {
			return wall, cpu, err
		}
		d, c := time.Since(t0), cpuSeconds()-c0
		got := st.Settled()
		st.Close()
		if got != want {
			return wall, cpu, fmt.Errorf("bench: open settled by %s, want %s", got, want)
		}
		ds, cs = append(ds, d), append(cs, time.Duration(c*float64(time.Second)))
	}
	return Pct{P50: percentile(ds, 0.5), P95: percentile(ds, 0.95)}, Pct{P50: percentile(cs, 0.5), P95: percentile(cs, 0.95)}, nil
}

// embedAll computes every memory's vector with the local embedder, as a running app would
// in the background, so the CLI's searches carry the vector path too.
func embedAll(ctx context.Context, home string) (int, error) {
	st, err := memory.Open(ctx, home, memory.Options{Logger: quietLogger()})
	if err != nil {
		return 0, err
	}
	defer st.Close()
	local := embed.NewLocal(0)
	if err := vector.NewIndexer(st, local, vector.IndexerOptions{Logger: quietLogger(), Batch: 512}).Run(ctx); err != nil {
		return 0, err
	}
	done, _, err := st.VectorCounts(ctx, local.Model())
	return done, err
}

// countVectors is how many vectors of the local embedder a reused home holds.
func countVectors(ctx context.Context, home string) (int, error) {
	st, err := memory.Open(ctx, home, memory.Options{Logger: quietLogger()})
	if err != nil {
		return 0, err
	}
	defer st.Close()
	done, _, err := st.VectorCounts(ctx, embed.NewLocal(0).Model())
	return done, err
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// startServe runs `engram serve` on home and waits until its watcher answers for the index.
func startServe(ctx context.Context, bin, home string) (stop func(), err error) {
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG=en")
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop = func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	deadline := time.Now().Add(10 * time.Minute)
	for time.Now().Before(deadline) {
		if _, err := os.Lstat(filepath.Join(home, "memory", ".watch.sock")); err == nil {
			st, err := memory.Open(ctx, home, memory.Options{Logger: quietLogger()})
			if err == nil {
				ok := st.Settled() == memory.SettledWatcher
				st.Close()
				if ok {
					return stop, nil
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	stop()
	return nil, fmt.Errorf("bench: engram serve never answered for the index of %s", home)
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

// cliBinary is the binary the CLI bench spawns: $ENGRAM_CLI (make bench passes engram-cli),
// else this very binary.
func cliBinary() (string, error) {
	if b := os.Getenv("ENGRAM_CLI"); b != "" {
		return filepath.Abs(b)
	}
	return os.Executable()
}

// PrintCLI prints the whole-process figures, one column per size.
func PrintCLI(w io.Writer, figs []CLIFigures, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(figs)
		return
	}
	row := func(label string, get func(CLIFigures) string) {
		fmt.Fprintf(w, "%-40s", label)
		for _, f := range figs {
			fmt.Fprintf(w, "%22s", get(f))
		}
		fmt.Fprintln(w)
	}
	pct := func(p Pct) string {
		return strconv.FormatFloat(p.P50, 'f', 1, 64) + " / " + strconv.FormatFloat(p.P95, 'f', 1, 64) + " ms"
	}
	fmt.Fprintln(w, "Whole-process CLI timings (p50 / p95; the machine may be shared: see load)")
	row("memories", func(f CLIFigures) string { return strconv.Itoa(f.N) })
	row("runs per command", func(f CLIFigures) string { return strconv.Itoa(f.Runs) })
	row("vectors (local embedder)", func(f CLIFigures) string { return strconv.Itoa(f.Vectors) })
	row("engram reindex (process)", func(f CLIFigures) string { return strconv.FormatFloat(f.Reindex, 'f', 2, 64) + " s" })
	row("open in-process, nothing running (scan)", func(f CLIFigures) string { return pct(f.OpenScan) })
	row("  its CPU time (user + system)", func(f CLIFigures) string { return pct(f.OpenScanCPU) })
	row("open in-process, serve running (watcher)", func(f CLIFigures) string { return pct(f.OpenWatch) })
	row("engram version", func(f CLIFigures) string { return pct(f.Version) })
	row("engram search, nothing running (scan)", func(f CLIFigures) string { return pct(f.Search) })
	row("engram search after a write, nothing running", func(f CLIFigures) string { return pct(f.SearchWrite) })
	row("engram search, an identity question, nothing running", func(f CLIFigures) string { return pct(f.SearchFacet) })
	row("engram show, nothing running (scan)", func(f CLIFigures) string { return pct(f.Show) })
	row("engram search, serve running (watcher)", func(f CLIFigures) string { return pct(f.SearchW) })
	row("engram show, serve running (watcher)", func(f CLIFigures) string { return pct(f.ShowW) })
	for _, f := range figs {
		fmt.Fprintf(w, "load average at %d: %s\n", f.N, f.LoadAvg)
	}
}
