//go:build bench

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/oklog/ulid/v2"

	"engram/backend/memory"
)

// The realistic corpus (issue 14): notes of 50–400 words, English or Chinese, like the 100k
// notes (178 MB of Markdown) on which `engram reindex` took 335 s and built a 1.8 GB index
// while zk indexed them in 59 s into 539 MB. `bench store`'s one-paragraph bodies hide that.

// zk's figures on the corpus (zk built with -tags fts5, `zk index` on the same notes).
// zk is not a Go module the proxy serves, so the bench does not build it; ENGRAM_BENCH_ZK names
// a zk binary (built from a checkout with `go build -tags fts5`; a zk on PATH is used too) to
// index the same notes in the same run: the machine's speed varies from day to day, and the
// goal is relative to zk.
const (
	zkIndexSec = 59.0
	zkIndexMiB = 539.0
)

// CorpusFigures are the index's size and build times at one size of the realistic corpus.
type CorpusFigures struct {
	N             int     `json:"n"`
	MarkdownMiB   float64 `json:"markdown_mib"`
	IndexMiB      float64 `json:"index_mib"`
	IndexRatio    float64 `json:"index_to_markdown"`
	ColdBuildSec  float64 `json:"cold_build_in_process_s"`
	ColdBuildCPU  float64 `json:"cold_build_in_process_cpu_s"`
	ReindexSec    float64 `json:"reindex_process_s"`
	ReindexCPU    float64 `json:"reindex_process_cpu_s"`
	ReindexRSSMiB float64 `json:"reindex_process_peak_rss_mib"`
	WarmOpenSec   float64 `json:"warm_open_s"`
	SearchProcSec float64 `json:"search_process_s"`
	// zk's `zk index` on the same notes, when ENGRAM_BENCH_ZK names a zk binary.
	ZkIndexSec float64 `json:"zk_index_s,omitempty"`
	ZkIndexCPU float64 `json:"zk_index_cpu_s,omitempty"`
	ZkIndexMiB float64 `json:"zk_index_mib,omitempty"`
	Tables     []Table `json:"tables,omitempty"`
}

// Table is one table's share of the index (SQLite's dbstat, indexes and FTS shadow tables
// summed under their table).
type Table struct {
	Name string  `json:"name"`
	MiB  float64 `json:"mib"`
}

// note writes a body of words words in one language, in paragraphs of sentences.
func (v *vocab) note(r *rand.Rand, words int, zh bool) string {
	var b strings.Builder
	for left, inPara := words, 0; left > 0; {
		n := min(left, 8+r.IntN(13))
		for i := 0; i < n; i++ {
			k := v.zipf.Uint64()
			switch {
			case zh:
				b.WriteString(v.zh[k])
				if i == n-1 {
					b.WriteString("。")
				} else if r.IntN(6) == 0 {
					b.WriteString("，")
				}
			default:
				b.WriteString(v.en[k])
				if i == n-1 {
					b.WriteString(". ")
				} else {
					b.WriteString(" ")
				}
			}
		}
		left -= n
		if inPara++; inPara >= 3+r.IntN(4) && left > 0 {
			b.WriteString("\n\n")
			inPara = 0
		}
	}
	return strings.TrimSpace(b.String())
}

// generateCorpus writes n notes of 50–400 words (a third in Chinese) and returns the bytes
// of Markdown written.
func generateCorpus(root string, n int, r *rand.Rand, v *vocab) (int64, error) {
	now := time.Now()
	var total int64
	for i := 0; i < n; i++ {
		zh := i%3 == 2
		m := &memory.Memory{ID: ulid.Make().String(), Slug: fmt.Sprintf("note-%07d", i), Type: types[i%len(types)],
			Confidence: memory.ConfidenceMedium, Reviewed: true, SourceQuote: "synthetic",
			Created: now.Add(-time.Duration(r.IntN(400*24)) * time.Hour), Updated: now}
		m.Title = strings.TrimRight(v.note(r, 3+r.IntN(5), zh), ".。 ")
		m.Body = v.note(r, 50+r.IntN(351), zh)
		m.Scope = memory.ScopeAgent
		m.Agent = fmt.Sprintf("agent-%04d", i/400)
		data, err := memory.Render(m)
		if err != nil {
			return 0, err
		}
		p := filepath.Join(root, "memory", "agents", m.Agent, string(m.Type), m.Slug+".md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return 0, err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return 0, err
		}
		total += int64(len(data))
	}
	return total, nil
}

// indexBytes is the index with its WAL and shared-memory files.
func indexBytes(home string) int64 {
	var n int64
	for _, s := range []string{"", "-wal", "-shm"} {
		if info, err := os.Stat(filepath.Join(home, "memory", "index.sqlite3"+s)); err == nil {
			n += info.Size()
		}
	}
	return n
}

// RunCorpus builds the realistic corpus of n notes in a fresh temporary home and measures the
// index: its size beside the Markdown's, the cold build in-process, `engram reindex` and
// `engram search` as whole processes (bin is this harness, which is also the CLI), and a warm
// open in-process. The home is removed afterwards.
func RunCorpus(ctx context.Context, n int, bin string, progress io.Writer) (CorpusFigures, error) {
	f := CorpusFigures{N: n}
	home, err := os.MkdirTemp("", "engram-bench-corpus-")
	if err != nil {
		return f, err
	}
	say := func(format string, a ...any) {
		if progress != nil {
			fmt.Fprintf(progress, "  [corpus %d] "+format+"\n", append([]any{n}, a...)...)
		}
	}
	// ENGRAM_BENCH_KEEP=1 keeps the home to look into (sqlite3 on its index).
	if os.Getenv("ENGRAM_BENCH_KEEP") == "" {
		defer os.RemoveAll(home)
	} else {
		say("home kept at %s", home)
	}
	r := rand.New(rand.NewPCG(uint64(n), 14))
	v := newVocab(r)
	say("generating %d notes of 50–400 words", n)
	md, err := generateCorpus(home, n, r, v)
	if err != nil {
		return f, err
	}
	f.MarkdownMiB = float64(md) / (1 << 20)

	say("cold index build (in-process)")
	t0, c0 := time.Now(), cpuSeconds()
	st, err := memory.Open(ctx, home, memory.Options{})
	if err != nil {
		return f, err
	}
	f.ColdBuildSec, f.ColdBuildCPU = time.Since(t0).Seconds(), cpuSeconds()-c0
	if err := st.Close(); err != nil {
		return f, err
	}

	env := append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG=en")
	var lastCPU, lastRSS float64
	run := func(args ...string) (time.Duration, error) {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env, cmd.Stdout = env, io.Discard
		var stderr strings.Builder
		cmd.Stderr = &stderr
		t := time.Now()
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("bench: engram %s: %v: %s", strings.Join(args, " "), err, stderr.String())
		}
		d := time.Since(t)
		lastCPU = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			lastRSS = float64(ru.Maxrss) / 1024 // KiB on Linux
		}
		return d, nil
	}
	say("engram reindex (process)")
	d, err := run("reindex")
	if err != nil {
		return f, err
	}
	f.ReindexSec, f.ReindexCPU, f.ReindexRSSMiB = d.Seconds(), lastCPU, lastRSS
	f.IndexMiB = float64(indexBytes(home)) / (1 << 20)
	f.IndexRatio = f.IndexMiB / f.MarkdownMiB

	say("warm open (in-process, best of 3)")
	for i := 0; i < 3; i++ {
		t0 = time.Now()
		st, err = memory.Open(ctx, home, memory.Options{})
		if err != nil {
			return f, err
		}
		if s := time.Since(t0).Seconds(); i == 0 || s < f.WarmOpenSec {
			f.WarmOpenSec = s
		}
		if i < 2 {
			st.Close()
		}
	}
	f.Tables = tableSizes(ctx, st)
	st.Close()

	say("engram search (process, median of 5)")
	var ds []time.Duration
	for i := 0; i < 5; i++ {
		d, err := run("search", v.en[20+r.IntN(2000)])
		if err != nil {
			return f, err
		}
		ds = append(ds, d)
	}
	f.SearchProcSec = percentile(ds, .5) / 1000

	if zk := zkBinary(); zk != "" {
		say("zk index (process, %s)", zk)
		if err := runZk(ctx, zk, filepath.Join(home, "memory", "agents"), &f); err != nil {
			return f, err
		}
	}
	return f, nil
}

// zkBinary is the zk to time beside engram: ENGRAM_BENCH_ZK, else a zk on PATH; none when
// ENGRAM_BENCH_ZK is "none" or neither exists.
func zkBinary() string {
	if zk := os.Getenv("ENGRAM_BENCH_ZK"); zk != "" {
		if zk == "none" {
			return ""
		}
		return zk
	}
	zk, _ := exec.LookPath("zk")
	return zk
}

// runZk makes a zk notebook of the notes folder and times `zk index` on it as a process; the
// notebook's database is zk's index. It runs last: the notebook's .zk folder is not Engram's.
func runZk(ctx context.Context, zk, dir string, f *CorpusFigures) error {
	zkRun := func(args ...string) (*os.ProcessState, time.Duration, error) {
		cmd := exec.CommandContext(ctx, zk, args...)
		cmd.Dir, cmd.Stdout = dir, io.Discard
		var stderr strings.Builder
		cmd.Stderr = &stderr
		t := time.Now()
		if err := cmd.Run(); err != nil {
			return nil, 0, fmt.Errorf("bench: zk %s: %v: %s", strings.Join(args, " "), err, stderr.String())
		}
		return cmd.ProcessState, time.Since(t), nil
	}
	if _, _, err := zkRun("init", "--no-input", dir); err != nil {
		return err
	}
	// init indexes the notebook already: the timed index starts from no database, as a
	// reindex does.
	for _, s := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(filepath.Join(dir, ".zk", "notebook.db"+s)); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	ps, d, err := zkRun("index", "--quiet", "--notebook-dir", dir)
	if err != nil {
		return err
	}
	f.ZkIndexSec, f.ZkIndexCPU = d.Seconds(), (ps.UserTime() + ps.SystemTime()).Seconds()
	var n int64
	for _, s := range []string{"", "-wal", "-shm"} {
		if info, err := os.Stat(filepath.Join(dir, ".zk", "notebook.db"+s)); err == nil {
			n += info.Size()
		}
	}
	f.ZkIndexMiB = float64(n) / (1 << 20)
	return nil
}

// cpuSeconds is this process's CPU time so far: on a machine shared with other builds it
// says what a build cost better than the wall clock does.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// tableSizes reads each table's share of the index from dbstat, when SQLite has it.
func tableSizes(ctx context.Context, st *memory.Store) []Table {
	sizes, err := st.TableSizes(ctx)
	if err != nil {
		return nil
	}
	var out []Table
	for _, t := range sizes {
		out = append(out, Table{Name: t.Name, MiB: float64(t.Bytes) / (1 << 20)})
	}
	return out
}

// PrintCorpus writes figures as a table beside zk's and the goals, or JSON.
func PrintCorpus(w io.Writer, figs []CorpusFigures, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(figs)
		return
	}
	row := func(label string, get func(CorpusFigures) string) {
		fmt.Fprintf(w, "%-40s", label)
		for _, f := range figs {
			fmt.Fprintf(w, "%14s", get(f))
		}
		fmt.Fprintln(w)
	}
	ff := func(v float64, unit string) string { return strconv.FormatFloat(v, 'f', 2, 64) + unit }
	row("notes (50–400 words, en + zh)", func(f CorpusFigures) string { return strconv.Itoa(f.N) })
	row("Markdown", func(f CorpusFigures) string { return ff(f.MarkdownMiB, " MiB") })
	row("index (goal ≤ 2× the Markdown)", func(f CorpusFigures) string { return ff(f.IndexMiB, " MiB") })
	row("index / Markdown", func(f CorpusFigures) string { return ff(f.IndexRatio, "×") })
	row("cold index build, in-process", func(f CorpusFigures) string { return ff(f.ColdBuildSec, " s") })
	row("  its CPU time (user + system)", func(f CorpusFigures) string { return ff(f.ColdBuildCPU, " s") })
	row("engram reindex, process", func(f CorpusFigures) string { return ff(f.ReindexSec, " s") })
	row("  its CPU time (user + system)", func(f CorpusFigures) string { return ff(f.ReindexCPU, " s") })
	row("  its peak RSS", func(f CorpusFigures) string { return ff(f.ReindexRSSMiB, " MiB") })
	row("warm open, in-process (goal ≤ 0.2 s)", func(f CorpusFigures) string { return ff(f.WarmOpenSec, " s") })
	row("engram search, process", func(f CorpusFigures) string { return ff(f.SearchProcSec, " s") })
	if figs[0].ZkIndexSec > 0 {
		row("zk index on the same notes, process", func(f CorpusFigures) string { return ff(f.ZkIndexSec, " s") })
		row("  its CPU time (user + system)", func(f CorpusFigures) string { return ff(f.ZkIndexCPU, " s") })
		row("  zk's index", func(f CorpusFigures) string { return ff(f.ZkIndexMiB, " MiB") })
		row("engram reindex / zk index, wall", func(f CorpusFigures) string { return ff(f.ReindexSec/f.ZkIndexSec, "× (goal ≤ 0.5×)") })
	}
	fmt.Fprintf(w, "zk on the issue's 100k corpus (178 MB): `zk index` %.0f s, %.0f MiB; goal for engram reindex ≤ %.1f s\n",
		zkIndexSec, zkIndexMiB, zkIndexSec/2)
	for _, f := range figs {
		if len(f.Tables) == 0 {
			continue
		}
		var parts []string
		for _, t := range f.Tables {
			if t.MiB >= 0.05 {
				parts = append(parts, fmt.Sprintf("%s %.1f", t.Name, t.MiB))
			}
		}
		fmt.Fprintf(w, "tables at %d (MiB): %s\n", f.N, strings.Join(parts, ", "))
	}
}
