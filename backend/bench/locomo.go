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
	// CV is the leave-one-conversation-out figures: each conversation scored with the tuning
	// chosen on the others.
	CV *LocomoCV `json:"cv,omitempty"`
	// Timings, for the text report only.
	Conversations int           `json:"-"`
	Turns         int           `json:"-"`
	ImportTime    time.Duration `json:"-"`
	EmbedTime     time.Duration `json:"-"`
	SearchP50     time.Duration `json:"-"`
	SearchP95     time.Duration `json:"-"`
	ImportFailed  int           `json:"-"`
	// UndatedSessions counts sessions whose date could not be read: their turns carry none,
	// which temporal questions pay for. Reported so a file in another format is noticed.
	UndatedSessions int `json:"undated_sessions,omitempty"`
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
	// NoCV skips the leave-one-conversation-out cross-validation.
	NoCV bool
	// CVOnly, when set, re-tunes only the named parameters in the cross-validation (the others
	// keep their defaults): the held-out worth of one new constant in a minute instead of hours.
	CVOnly []string
	// Progress, when set, is told how the cross-validation goes (stderr in the CLI).
	Progress io.Writer
}

// RunLocomo scores the file at path and prints the report to w (one JSON object with jsonOut).
func RunLocomo(ctx context.Context, path string, jsonOut bool, w, progress io.Writer) error {
	rep, err := Locomo(ctx, path, LocomoOptions{Progress: progress})
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

// Locomo runs the benchmark and returns the report: every conversation is imported once and
// kept open for the run, scored with the default tuning (in sample: the defaults were chosen on
// this data) and, unless NoCV, cross-validated leaving one conversation out (see locomo_cv.go).
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
	var convs []*locomoConv
	defer func() {
		for _, c := range convs {
			c.close()
		}
	}()
	for _, smp := range samples {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		c, err := prepareLocomo(ctx, smp, opts, &rep)
		if err != nil {
			return rep, fmt.Errorf("bench: %s: %w", smp.SampleID, err)
		}
		convs = append(convs, c)
		rep.Conversations++
	}
	def := opts.Tuning
	if def.Depth <= 0 {
		def = recall.DefaultTuning()
	}
	ours, base := newLocomoScore(), newLocomoScore()
	var lat []time.Duration
	for _, c := range convs {
		ranks, l, err := c.ask(ctx, def, opts)
		if err != nil {
			return rep, fmt.Errorf("bench: %s: %w", c.smp.SampleID, err)
		}
		lat = append(lat, l...)
		for i, q := range c.qs {
			ours.add(q.cat, ranks[i])
			brank, err := c.bl.rank(ctx, q.qa.Question, q.ev)
			if err != nil {
				return rep, err
			}
			base.add(q.cat, brank)
		}
	}
	rep.LocomoSet = ours.set()
	rep.Baseline = base.set()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		rep.SearchP50 = lat[len(lat)/2]
		rep.SearchP95 = lat[len(lat)*95/100]
	}
	if !opts.NoCV && len(convs) > 1 {
		cv, err := crossValidate(ctx, convs, def, opts)
		if err != nil {
			return rep, err
		}
		rep.CV = &cv
	}
	return rep, nil
}

// locomoConv is one imported conversation, open for the whole run.
type locomoConv struct {
	smp   locomoSample
	docs  []locomoDoc
	store *memory.Store
	emb   embed.Embedder
	quiet *slog.Logger
	bl    *locomoBaseline
	qs    []locomoQuestion
	done  []func()
}

// locomoQuestion is one scored question: category 1–4 with evidence.
type locomoQuestion struct {
	qa  locomoQA
	cat string
	ev  map[string]bool
}

func (c *locomoConv) close() {
	for i := len(c.done) - 1; i >= 0; i-- {
		c.done[i]()
	}
}

// prepareLocomo imports a conversation into a fresh home (or reuses the cached one), embeds
// it unless NoVectors, builds its baseline index and lists its scored questions.
func prepareLocomo(ctx context.Context, smp locomoSample, opts LocomoOptions, rep *LocomoReport) (c *locomoConv, err error) {
	docs, err := locomoDocs(smp.Conversation)
	if err != nil {
		return nil, err
	}
	undated := map[int]bool{}
	for _, d := range docs {
		if d.date.IsZero() {
			undated[d.session] = true
		}
	}
	rep.UndatedSessions += len(undated)
	c = &locomoConv{smp: smp, docs: docs, quiet: slog.New(slog.NewTextHandler(io.Discard, nil))}
	defer func() {
		if err != nil {
			c.close()
		}
	}()
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
		c.done = append(c.done, func() { os.RemoveAll(home) })
	}
	store, err := memory.Open(ctx, home, memory.Options{QuotaLimit: 1 << 30, Logger: c.quiet})
	if err != nil {
		return nil, err
	}
	c.store = store
	c.done = append(c.done, func() { store.Close() })
	if !cached {
		if err := locomoImport(ctx, smp, docs, store, rep); err != nil {
			return nil, err
		}
	}
	rep.Turns += len(docs)
	if !opts.NoVectors {
		local := embed.NewLocal(0)
		t1 := time.Now()
		if err := vector.NewIndexer(store, local, vector.IndexerOptions{Logger: c.quiet}).Run(ctx); err != nil {
			return nil, err
		}
		rep.EmbedTime += time.Since(t1)
		c.emb = local
	}
	blPath := filepath.Join(home, "baseline.sqlite3")
	os.Remove(blPath)
	bl, err := newLocomoBaseline(ctx, blPath, docs)
	if err != nil {
		return nil, err
	}
	c.bl = bl
	c.done = append(c.done, bl.close)
	for _, qa := range smp.QA {
		cat := locomoCategory(qa.Category)
		if cat < "1" || cat > "4" || len(cat) != 1 {
			continue
		}
		ev := locomoEvidence(qa.Evidence)
		if len(ev) == 0 || strings.TrimSpace(qa.Question) == "" {
			continue
		}
		c.qs = append(c.qs, locomoQuestion{qa: qa, cat: cat, ev: ev})
	}
	return c, nil
}

// locomoImport writes one memory per turn: the speaker names it (title and tag), the session
// date is when it was recorded, and the source keeps the session and turn (the dia_id).
func locomoImport(ctx context.Context, smp locomoSample, docs []locomoDoc, store *memory.Store, rep *LocomoReport) error {
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
			return err
		}
		rep.ImportFailed += res.Failed
	}
	rep.ImportTime += time.Since(t0)
	return nil
}

// ask runs every scored question through recall.Search with tuning t, the very path agents
// use, and returns the 0-based rank of the first evidence turn in the top 20 (-1 for none).
func (c *locomoConv) ask(ctx context.Context, t recall.Tuning, opts LocomoOptions) ([]int, []time.Duration, error) {
	ropts := recall.Options{Tuning: t, Logger: c.quiet}
	if c.emb != nil {
		ropts.Embedder = c.emb
	}
	rec := recall.New(c.store, ropts)
	ranks := make([]int, len(c.qs))
	lat := make([]time.Duration, 0, len(c.qs))
	for i, q := range c.qs {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		t0 := time.Now()
		res, err := rec.Search(ctx, recall.SearchParams{Query: q.qa.Question, Limit: 20, NoTouch: true})
		if err != nil {
			return nil, nil, err
		}
		lat = append(lat, time.Since(t0))
		rank := -1
		for j, h := range res.Hits {
			src := h.Memory.Source
			if q.ev[fmt.Sprintf("D%s:%d", strings.TrimPrefix(src.Session, c.smp.SampleID+"/D"), src.Turn)] {
				rank = j
				break
			}
		}
		ranks[i] = rank
		if opts.Miss != nil && (rank < 0 || rank >= opts.MissAt) {
			locomoMiss(opts.Miss, q.qa, q.cat, rank, res, c.docs, q.ev)
		}
	}
	return ranks, lat, nil
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
