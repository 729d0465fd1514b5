//go:build bench

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/oklog/ulid/v2"

	"engram/backend/embed"
	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/vector"
)

// RecallScaleFigures are recall's speed at one store size: search with vectors on, the Memory
// Index overview and build_context. Benchmarks report; they never pass or fail.
type RecallScaleFigures struct {
	N             int     `json:"n"`
	IndexBuildSec float64 `json:"index_build_s"`
	EmbedSec      float64 `json:"embed_s"`
	Queries       int     `json:"queries"`
	SearchP50Ms   float64 `json:"search_p50_ms"`
	SearchP95Ms   float64 `json:"search_p95_ms"`
	SearchP99Ms   float64 `json:"search_p99_ms"`
	CJK2P95Ms     float64 `json:"cjk2_p95_ms"`
	CJK2Found     float64 `json:"cjk2_found"`
	OverviewP50Ms float64 `json:"overview_p50_ms"`
	OverviewP95Ms float64 `json:"overview_p95_ms"`
	OverviewBytes int     `json:"overview_bytes"`
	ContextP50Ms  float64 `json:"build_context_p50_ms"`
	ContextP95Ms  float64 `json:"build_context_p95_ms"`
	// The same calls in CPU time (the process's user and system time across the call): on a
	// shared machine wall times swing with the load, CPU time much less.
	SearchCPUP50Ms   float64 `json:"search_cpu_p50_ms"`
	SearchCPUP95Ms   float64 `json:"search_cpu_p95_ms"`
	OverviewCPUP50Ms float64 `json:"overview_cpu_p50_ms"`
	OverviewCPUP95Ms float64 `json:"overview_cpu_p95_ms"`
	ContextCPUP50Ms  float64 `json:"build_context_cpu_p50_ms"`
	ContextCPUP95Ms  float64 `json:"build_context_cpu_p95_ms"`
	// StepsMs is the mean time per search step.
	StepsMs map[string]float64 `json:"steps_ms"`
}

// RunRecallScale measures recall on synthetic stores of each size (for example 10000 and
// 100000) in fresh temporary homes, and prints the figures (one JSON array with jsonOut).
func RunRecallScale(ctx context.Context, sizes []int, jsonOut bool, w io.Writer) error {
	var figs []RecallScaleFigures
	for _, n := range sizes {
		f, err := RecallScale(ctx, n, nil)
		if err != nil {
			return err
		}
		figs = append(figs, f)
	}
	if jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(figs)
	}
	fmt.Fprintln(w, "Recall at scale (vectors on: local embedder)")
	fmt.Fprintf(w, "  %8s %9s %8s %9s %9s %9s %10s %9s\n", "n", "build s", "embed s", "p50 ms", "p95 ms", "p99 ms",
		"cjk2 p95", "cjk2 hit")
	for _, f := range figs {
		fmt.Fprintf(w, "  %8d %9.1f %8.1f %9.2f %9.2f %9.2f %10.2f %9.2f\n", f.N, f.IndexBuildSec, f.EmbedSec,
			f.SearchP50Ms, f.SearchP95Ms, f.SearchP99Ms, f.CJK2P95Ms, f.CJK2Found)
	}
	fmt.Fprintln(w, "  p50 / p95 in ms, wall (CPU time of the process across the call)")
	fmt.Fprintf(w, "  %8s %26s %26s %26s\n", "n", "search", "overview", "build_context")
	pair := func(p50, p95, c50, c95 float64) string {
		return fmt.Sprintf("%.2f / %.2f (%.2f / %.2f)", p50, p95, c50, c95)
	}
	for _, f := range figs {
		fmt.Fprintf(w, "  %8d %26s %26s %26s\n", f.N, pair(f.SearchP50Ms, f.SearchP95Ms, f.SearchCPUP50Ms, f.SearchCPUP95Ms),
			pair(f.OverviewP50Ms, f.OverviewP95Ms, f.OverviewCPUP50Ms, f.OverviewCPUP95Ms),
			pair(f.ContextP50Ms, f.ContextP95Ms, f.ContextCPUP50Ms, f.ContextCPUP95Ms))
	}
	return nil
}

// scaleWords is a Zipf-distributed synthetic vocabulary: a few words are everywhere, most are
// rare, as in real text.
type scaleWords struct {
	en   []string
	zh   []string
	zipf *rand.Zipf
}

func newScaleWords(r *rand.Rand) *scaleWords {
	syl := strings.Fields("ka ri to ne mo la su vi den par col mer tis bar gan fol ric ton sel mia dor pen lux tra nor bel cas fin gor hul")
	seen := map[string]bool{}
	v := &scaleWords{}
	for len(v.en) < 30000 {
		n := 2 + r.IntN(3)
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(syl[r.IntN(len(syl))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			v.en = append(v.en, w)
		}
	}
	han := []rune("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题")
	for i := 0; i < 3000; i++ {
		v.zh = append(v.zh, string([]rune{han[r.IntN(len(han))], han[r.IntN(len(han))]}))
	}
	v.zipf = rand.NewZipf(r, 1.07, 2, uint64(len(v.en)-1))
	return v
}

func (v *scaleWords) sentence(r *rand.Rand, n int, zh bool) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		k := int(v.zipf.Uint64())
		if zh {
			b.WriteString(v.zh[k%len(v.zh)])
			continue
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(v.en[k])
	}
	return b.String()
}

// scaleGenerate writes n memory files directly (as a synced folder would arrive): global,
// ten projects and a few agents; one in ten in Chinese; a third recorded from conversations
// (session and turn), so that every ranking step has work to do.
func scaleGenerate(home string, n int, r *rand.Rand, v *scaleWords) error {
	now := time.Now()
	types := []memory.Type{memory.TypeUser, memory.TypeFeedback, memory.TypeProject, memory.TypeReference, memory.TypeExperience}
	for i := 0; i < n; i++ {
		zh := i%10 == 0
		m := &memory.Memory{ID: ulid.Make().String(), Slug: fmt.Sprintf("mem-%07d", i), Type: types[i%len(types)],
			Confidence: memory.ConfidenceMedium, Reviewed: i%3 != 0, SourceQuote: "synthetic",
			Created: now.Add(-time.Duration(r.IntN(400*24)) * time.Hour)}
		m.Updated = m.Created
		m.Title = v.sentence(r, 4+r.IntN(4), zh)
		m.Body = v.sentence(r, 20+r.IntN(40), zh)
		if i%3 == 0 {
			m.Source = memory.Source{Kind: "import", Session: fmt.Sprintf("s%05d", i/30), Turn: i % 30}
		}
		var rel string
		switch i % 5 {
		case 0, 1:
			m.Scope = memory.ScopeGlobal
			rel = filepath.Join("global", string(m.Type), m.Slug+".md")
		case 2, 3:
			m.Scope = memory.ScopeProject
			m.Workdir = fmt.Sprintf("/work/project-%02d", i%10)
			rel = filepath.Join("projects", memory.ProjectKey(m.Workdir), string(m.Type), m.Slug+".md")
		default:
			m.Scope = memory.ScopeAgent
			m.Agent = fmt.Sprintf("agent-%02d", i%7)
			rel = filepath.Join("agents", m.Agent, string(m.Type), m.Slug+".md")
		}
		data, err := memory.Render(m)
		if err != nil {
			return err
		}
		p := filepath.Join(home, "memory", rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func pct(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration{}, ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return float64(s[int(float64(len(s)-1)*p)].Microseconds()) / 1000
}

// RecallScale measures one size in a fresh temporary home; progress (optional) receives a line
// per phase.
func RecallScale(ctx context.Context, n int, progress io.Writer) (RecallScaleFigures, error) {
	home, err := os.MkdirTemp("", "engram-recall-scale-")
	if err != nil {
		return RecallScaleFigures{N: n}, err
	}
	defer os.RemoveAll(home)
	return recallScaleAt(ctx, home, n, false, progress)
}

// recallScaleAt measures in home; with reuse an existing generated home is kept (development).
func recallScaleAt(ctx context.Context, home string, n int, reuse bool, progress io.Writer) (RecallScaleFigures, error) {
	f := RecallScaleFigures{N: n}
	say := func(format string, a ...any) {
		if progress != nil {
			fmt.Fprintf(progress, "  [%d] "+format+"\n", append([]any{n}, a...)...)
		}
	}
	r := rand.New(rand.NewPCG(uint64(n), 7))
	v := newScaleWords(r)
	if _, err := os.Stat(filepath.Join(home, "memory", "index.sqlite3")); !reuse || err != nil {
		say("writing %d memory files", n)
		if err := scaleGenerate(home, n, r, v); err != nil {
			return f, err
		}
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	t0 := time.Now()
	store, err := memory.Open(ctx, home, memory.Options{QuotaLimit: 1 << 30, Logger: quiet})
	if err != nil {
		return f, err
	}
	defer store.Close()
	f.IndexBuildSec = time.Since(t0).Seconds()
	say("index built in %.1fs; embedding", f.IndexBuildSec)
	local := embed.NewLocal(0)
	t1 := time.Now()
	if err := vector.NewIndexer(store, local, vector.IndexerOptions{Logger: quiet, Batch: 512}).Run(ctx); err != nil {
		return f, err
	}
	f.EmbedSec = time.Since(t1).Seconds()
	steps := map[string]time.Duration{}
	rec := recall.New(store, recall.Options{Embedder: local, Logger: quiet,
		Trace: func(step string, d time.Duration) { steps[step] += d }})
	// ENGRAM_RECALL_SCALE_DUMP=FILE writes every answer (ranked ids and scores, the overview and
	// context texts) so that two builds can be compared on the same home: a speed change must
	// not move a result.
	var dump io.Writer = io.Discard
	if path := os.Getenv("ENGRAM_RECALL_SCALE_DUMP"); path != "" {
		df, err := os.Create(path)
		if err != nil {
			return f, err
		}
		defer df.Close()
		dump = df
	}
	var cpu []time.Duration // CPU time of the last timed phase's calls
	search := func(q, workdir, agent string) (recall.SearchResult, time.Duration, error) {
		c, t := cpuTime(), time.Now()
		res, err := rec.Search(ctx, recall.SearchParams{Query: q, Workdir: workdir, Agent: agent, Limit: 10, NoTouch: true})
		d := time.Since(t)
		cpu = append(cpu, cpuTime()-c)
		fmt.Fprintf(dump, "search %q %q %q:", q, workdir, agent)
		for _, h := range res.Hits {
			fmt.Fprintf(dump, " %s=%.6f", h.Memory.ID, h.Score)
		}
		fmt.Fprintln(dump)
		return res, d, err
	}
	// Warm the caches (vector slab, SQLite pages) the way a running app has them warm.
	for i := 0; i < 5; i++ {
		if _, _, err := search(v.sentence(r, 2, false), "", ""); err != nil {
			return f, err
		}
	}
	say("searching")
	cpu = nil
	var lat []time.Duration
	for i := 0; i < 400; i++ {
		k := 50 + r.IntN(3000)
		q := v.en[k] + " " + v.en[50+r.IntN(3000)]
		if i%4 == 0 {
			q = "what did I decide about " + v.en[k]
		}
		wd, ag := "", ""
		if i%2 == 0 {
			wd, ag = fmt.Sprintf("/work/project-%02d", i%10), fmt.Sprintf("agent-%02d", i%7)
		}
		_, d, err := search(q, wd, ag)
		if err != nil {
			return f, err
		}
		lat = append(lat, d)
	}
	f.Queries = len(lat)
	f.SearchP50Ms, f.SearchP95Ms, f.SearchP99Ms = pct(lat, 0.5), pct(lat, 0.95), pct(lat, 0.99)
	f.SearchCPUP50Ms, f.SearchCPUP95Ms = pct(cpu, 0.5), pct(cpu, 0.95)
	f.StepsMs = map[string]float64{}
	for k, d := range steps {
		f.StepsMs[k] = float64(d.Microseconds()) / 1000 / float64(len(lat)+5)
	}
	// Two-character Chinese queries: each is a word some memory holds.
	var cjk []time.Duration
	found := 0
	for i := 0; i < 100; i++ {
		q := v.zh[int(v.zipf.Uint64())%len(v.zh)]
		res, d, err := search(q, "", "")
		if err != nil {
			return f, err
		}
		cjk = append(cjk, d)
		if len(res.Hits) > 0 {
			found++
		}
	}
	f.CJK2P95Ms, f.CJK2Found = pct(cjk, 0.95), float64(found)/100
	say("overview")
	var ov, ovCPU []time.Duration
	for i := 0; i < 50; i++ {
		c, t := cpuTime(), time.Now()
		res, err := rec.Overview(ctx, recall.OverviewParams{Workdir: fmt.Sprintf("/work/project-%02d", i%10), Agent: fmt.Sprintf("agent-%02d", i%7)})
		if err != nil {
			return f, err
		}
		ov, ovCPU = append(ov, time.Since(t)), append(ovCPU, cpuTime()-c)
		f.OverviewBytes = len(res.Index)
		fmt.Fprintf(dump, "overview %d %d:\n%s\n", res.Entries, res.Total, res.Index)
	}
	f.OverviewP50Ms, f.OverviewP95Ms = pct(ov, 0.5), pct(ov, 0.95)
	f.OverviewCPUP50Ms, f.OverviewCPUP95Ms = pct(ovCPU, 0.5), pct(ovCPU, 0.95)
	say("build_context")
	var bc, bcCPU []time.Duration
	for i := 0; i < 50; i++ {
		c, t := cpuTime(), time.Now()
		res, err := rec.BuildContext(ctx, recall.ContextParams{Query: v.en[50+r.IntN(3000)], MaxTokens: 800})
		if err != nil {
			return f, err
		}
		bc, bcCPU = append(bc, time.Since(t)), append(bcCPU, cpuTime()-c)
		fmt.Fprintf(dump, "context %d:\n%s\n", res.Tokens, res.Text)
	}
	f.ContextP50Ms, f.ContextP95Ms = pct(bc, 0.5), pct(bc, 0.95)
	f.ContextCPUP50Ms, f.ContextCPUP95Ms = pct(bcCPU, 0.5), pct(bcCPU, 0.95)
	return f, nil
}
