//go:build bench

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"engram/backend/embed"
	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/vector"
)

// LoCoMo retrieval benchmark: each conversation of a LoCoMo file is imported into a fresh
// temporary home (one memory per turn), every question of categories 1–4 is asked through
// recall.Search — the very path agents use — and the rank of the first evidence turn is scored.
// A plain SQLite FTS5 BM25 index over the same turns is scored in the same run as a baseline.

// LocomoMetrics are retrieval figures over a set of questions; MRR is over the top 20.
type LocomoMetrics struct {
	R1  float64 `json:"r@1"`
	R5  float64 `json:"r@5"`
	R10 float64 `json:"r@10"`
	R20 float64 `json:"r@20"`
	MRR float64 `json:"mrr"`
	N   int     `json:"n"`
}

// LocomoSet is the figures overall and per category ("1" … "4").
type LocomoSet struct {
	Overall    LocomoMetrics            `json:"overall"`
	ByCategory map[string]LocomoMetrics `json:"by_category"`
}

// LocomoReport is the result of one run: Engram's recall and the FTS5 BM25 baseline.
type LocomoReport struct {
	LocomoSet
	Baseline LocomoSet `json:"baseline"`
	// Timings, for the text report only.
	Conversations int           `json:"-"`
	Turns         int           `json:"-"`
	ImportTime    time.Duration `json:"-"`
	EmbedTime     time.Duration `json:"-"`
	SearchP50     time.Duration `json:"-"`
	SearchP95     time.Duration `json:"-"`
	ImportFailed  int           `json:"-"`
}

// LocomoOptions tune a run; zero values take the defaults.
type LocomoOptions struct {
	// Tuning replaces recall's default ranking (for experiments; the benchmark uses the default).
	Tuning recall.Tuning
	// NoVectors leaves the vector path out.
	NoVectors bool
	// Miss, when set, receives the questions whose evidence is not in the top 10.
	Miss io.Writer
	// MissAt is the rank from which a question counts as missed (default 10).
	MissAt int
	// CacheDir keeps each conversation's imported home there and reuses it on the next run
	// (development only: the benchmark proper imports into fresh homes).
	CacheDir string
}

// RunLocomo scores the file at path and prints the report to w (one JSON object with jsonOut).
func RunLocomo(ctx context.Context, path string, jsonOut bool, w io.Writer) error {
	rep, err := Locomo(ctx, path, LocomoOptions{})
	if err != nil {
		return err
	}
	if jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printLocomo(w, path, rep)
	return nil
}

// Locomo runs the benchmark and returns the report.
func Locomo(ctx context.Context, path string, opts LocomoOptions) (LocomoReport, error) {
	var rep LocomoReport
	data, err := os.ReadFile(path)
	if err != nil {
		return rep, fmt.Errorf("bench: unable to read %s: %w", path, err)
	}
	var samples []locomoSample
	if err := json.Unmarshal(data, &samples); err != nil {
		return rep, fmt.Errorf("bench: %s is not a LoCoMo file: %w", path, err)
	}
	if opts.MissAt <= 0 {
		opts.MissAt = 10
	}
	ours, base := newLocomoScore(), newLocomoScore()
	var lat []time.Duration
	for _, smp := range samples {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		l, err := locomoConversation(ctx, smp, opts, ours, base, &rep)
		if err != nil {
			return rep, fmt.Errorf("bench: %s: %w", smp.SampleID, err)
		}
		lat = append(lat, l...)
		rep.Conversations++
	}
	rep.LocomoSet = ours.set()
	rep.Baseline = base.set()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		rep.SearchP50 = lat[len(lat)/2]
		rep.SearchP95 = lat[len(lat)*95/100]
	}
	return rep, nil
}

func locomoConversation(ctx context.Context, smp locomoSample, opts LocomoOptions, ours, base *locomoScore, rep *LocomoReport) (lat []time.Duration, err error) {
	docs, err := locomoDocs(smp.Conversation)
	if err != nil {
		return nil, err
	}
	var home string
	cached := false
	if opts.CacheDir != "" {
		home = filepath.Join(opts.CacheDir, smp.SampleID)
		_, err := os.Stat(filepath.Join(home, "memory", "index.sqlite3"))
		cached = err == nil
	} else {
		if home, err = os.MkdirTemp("", "engram-locomo-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(home)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	store, err := memory.Open(ctx, home, memory.Options{QuotaLimit: 1 << 30, Logger: quiet})
	if err != nil {
		return nil, err
	}
	defer store.Close()
	if cached {
		if err := locomoEvaluate(ctx, smp, opts, ours, base, rep, store, home, docs, quiet, &lat); err != nil {
			return nil, err
		}
		return lat, nil
	}

	// One memory per turn: the speaker names it (title and tag), the session date is when it
	// was recorded, and the source keeps the session and turn (the dia_id).
	t0 := time.Now()
	session := func(n int) string { return fmt.Sprintf("%s/D%d", smp.SampleID, n) }
	var items []memory.Item
	for _, d := range docs {
		title := d.speaker
		if !d.date.IsZero() {
			title += " · " + d.date.Format("2 January 2006")
		}
		body := d.text
		if body == "" {
			body = "…"
		}
		quote := []rune(strings.SplitN(d.text, "\n", 2)[0])
		if len(quote) > memory.MaxSourceQuoteRune {
			quote = quote[:memory.MaxSourceQuoteRune]
		}
		q := string(quote)
		reviewed := true
		date := d.date
		it := memory.Item{Op: memory.OpWrite, Scope: memory.ScopeGlobal, Type: memory.TypeReference,
			Slug: locomoSlug(d), Title: &title, Body: &body, Confidence: memory.ConfidenceHigh, SourceQuote: &q,
			Source:   &memory.Source{Kind: "import", Session: session(d.session), Turn: d.turn},
			Reviewed: &reviewed}
		if d.speaker != "" {
			it.Tags = []string{d.speaker}
		}
		if !date.IsZero() {
			it.Created, it.Updated = &date, &date
		}
		items = append(items, it)
	}
	for start := 0; start < len(items); start += 500 {
		res, err := store.ApplyBatch(ctx, memory.Batch{Items: items[start:min(start+500, len(items))], Actor: memory.ActorImport})
		if err != nil {
			return nil, err
		}
		rep.ImportFailed += res.Failed
	}
	rep.ImportTime += time.Since(t0)
	if err := locomoEvaluate(ctx, smp, opts, ours, base, rep, store, home, docs, quiet, &lat); err != nil {
		return nil, err
	}
	return lat, nil
}

// locomoEvaluate embeds the imported conversation and asks its questions.
func locomoEvaluate(ctx context.Context, smp locomoSample, opts LocomoOptions, ours, base *locomoScore, rep *LocomoReport,
	store *memory.Store, home string, docs []locomoDoc, quiet *slog.Logger, lat *[]time.Duration) error {
	rep.Turns += len(docs)
	ropts := recall.Options{Tuning: opts.Tuning, Logger: quiet}
	if !opts.NoVectors {
		local := embed.NewLocal(0)
		t1 := time.Now()
		if err := vector.NewIndexer(store, local, vector.IndexerOptions{Logger: quiet}).Run(ctx); err != nil {
			return err
		}
		rep.EmbedTime += time.Since(t1)
		ropts.Embedder = local
	}
	rec := recall.New(store, ropts)

	blPath := filepath.Join(home, "baseline.sqlite3")
	os.Remove(blPath)
	bl, err := newLocomoBaseline(ctx, blPath, docs)
	if err != nil {
		return err
	}
	defer bl.close()

	for _, qa := range smp.QA {
		cat := locomoCategory(qa.Category)
		if cat < "1" || cat > "4" || len(cat) != 1 {
			continue
		}
		ev := locomoEvidence(qa.Evidence)
		if len(ev) == 0 || strings.TrimSpace(qa.Question) == "" {
			continue
		}
		t := time.Now()
		res, err := rec.Search(ctx, recall.SearchParams{Query: qa.Question, Limit: 20, NoTouch: true})
		if err != nil {
			return err
		}
		*lat = append(*lat, time.Since(t))
		rank := -1
		for i, h := range res.Hits {
			src := h.Memory.Source
			if ev[fmt.Sprintf("D%s:%d", strings.TrimPrefix(src.Session, smp.SampleID+"/D"), src.Turn)] {
				rank = i
				break
			}
		}
		ours.add(cat, rank)
		if opts.Miss != nil && (rank < 0 || rank >= opts.MissAt) {
			locomoMiss(opts.Miss, qa, cat, rank, res, docs, ev)
		}
		brank, err := bl.rank(ctx, qa.Question, ev)
		if err != nil {
			return err
		}
		base.add(cat, brank)
	}
	return nil
}

func locomoMiss(w io.Writer, qa locomoQA, cat string, rank int, res recall.SearchResult, docs []locomoDoc, ev map[string]bool) {
	fmt.Fprintf(w, "Q[%s] rank=%d %s\n", cat, rank, qa.Question)
	for _, d := range docs {
		if ev[d.dia] {
			fmt.Fprintf(w, "   EV %s %s: %s\n", d.dia, d.speaker, clipText(d.text, 140))
		}
	}
	for i, h := range res.Hits {
		if i >= 3 {
			break
		}
		fmt.Fprintf(w, "   #%d %.3f %v %s: %s\n", i+1, h.Score, h.Via, h.Memory.Title, clipText(h.Memory.Body, 100))
	}
}

func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
