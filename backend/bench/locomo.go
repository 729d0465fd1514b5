package bench

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
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

// locomoSample is one conversation of the file.
type locomoSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []locomoQA                 `json:"qa"`
}

type locomoQA struct {
	Question string          `json:"question"`
	Evidence []string        `json:"evidence"`
	Category json.RawMessage `json:"category"`
}

type locomoTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

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

// locomoScore accumulates ranks per category.
type locomoScore struct {
	byCat map[string]*LocomoMetrics
	all   LocomoMetrics
}

func newLocomoScore() *locomoScore { return &locomoScore{byCat: map[string]*LocomoMetrics{}} }

// add records one question whose first evidence hit is at rank (0-based), or -1 for none.
func (s *locomoScore) add(cat string, rank int) {
	m := s.byCat[cat]
	if m == nil {
		m = &LocomoMetrics{}
		s.byCat[cat] = m
	}
	for _, x := range []*LocomoMetrics{m, &s.all} {
		x.N++
		if rank < 0 {
			continue
		}
		if rank < 1 {
			x.R1++
		}
		if rank < 5 {
			x.R5++
		}
		if rank < 10 {
			x.R10++
		}
		if rank < 20 {
			x.R20++
			x.MRR += 1 / float64(rank+1)
		}
	}
}

func (s *locomoScore) set() LocomoSet {
	norm := func(m LocomoMetrics) LocomoMetrics {
		if m.N == 0 {
			return m
		}
		n := float64(m.N)
		return LocomoMetrics{R1: m.R1 / n, R5: m.R5 / n, R10: m.R10 / n, R20: m.R20 / n, MRR: m.MRR / n, N: m.N}
	}
	out := LocomoSet{Overall: norm(s.all), ByCategory: map[string]LocomoMetrics{}}
	for c, m := range s.byCat {
		out.ByCategory[c] = norm(*m)
	}
	return out
}

var reDiaID = regexp.MustCompile(`D(\d+):(\d+)`)

// locomoEvidence normalises evidence ids: "D8:6; D9:17" holds two, "D30:05" is D30:5.
func locomoEvidence(ev []string) map[string]bool {
	out := map[string]bool{}
	for _, e := range ev {
		for _, m := range reDiaID.FindAllStringSubmatch(e, -1) {
			s, _ := strconv.Atoi(m[1])
			t, _ := strconv.Atoi(m[2])
			out[fmt.Sprintf("D%d:%d", s, t)] = true
		}
	}
	return out
}

var (
	reLocomoDateEN = regexp.MustCompile(`(?i)(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})`)
	reLocomoDateZH = regexp.MustCompile(`(\d{4})年(\d{1,2})月(\d{1,2})日(?:\s*(上午|下午)?\s*(\d{1,2}):(\d{2}))?`)
)

var locomoMonths = map[string]time.Month{"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6,
	"july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12}

// locomoDate reads a session date: "1:56 pm on 8 May, 2023" or "2023年5月8日 下午1:56".
func locomoDate(s string) (time.Time, bool) {
	if m := reLocomoDateEN.FindStringSubmatch(s); m != nil {
		h, _ := strconv.Atoi(m[1])
		mi, _ := strconv.Atoi(m[2])
		if strings.EqualFold(m[3], "pm") && h < 12 {
			h += 12
		}
		if strings.EqualFold(m[3], "am") && h == 12 {
			h = 0
		}
		d, _ := strconv.Atoi(m[4])
		y, _ := strconv.Atoi(m[6])
		mo, ok := locomoMonths[strings.ToLower(m[5])]
		if !ok {
			return time.Time{}, false
		}
		return time.Date(y, mo, d, h, mi, 0, 0, time.UTC), true
	}
	if m := reLocomoDateZH.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		h, mi := 12, 0
		if m[5] != "" {
			h, _ = strconv.Atoi(m[5])
			mi, _ = strconv.Atoi(m[6])
			if m[4] == "下午" && h < 12 {
				h += 12
			}
		}
		return time.Date(y, time.Month(mo), d, h, mi, 0, 0, time.UTC), true
	}
	return time.Time{}, false
}

// locomoDoc is one turn as imported.
type locomoDoc struct {
	dia     string
	session int
	turn    int
	speaker string
	date    time.Time
	text    string // spoken text plus image caption
}

func locomoDocs(conv map[string]json.RawMessage) ([]locomoDoc, error) {
	var docs []locomoDoc
	for n := 1; ; n++ {
		raw, ok := conv[fmt.Sprintf("session_%d", n)]
		if !ok {
			// Sessions are numbered from 1 without gaps; a few files skip one, so look ahead.
			if _, later := conv[fmt.Sprintf("session_%d", n+1)]; later {
				continue
			}
			break
		}
		var dateStr string
		_ = json.Unmarshal(conv[fmt.Sprintf("session_%d_date_time", n)], &dateStr)
		date, _ := locomoDate(dateStr)
		var turns []locomoTurn
		if err := json.Unmarshal(raw, &turns); err != nil {
			return nil, fmt.Errorf("bench: session_%d: %w", n, err)
		}
		for i, t := range turns {
			text := strings.TrimSpace(t.Text)
			if c := strings.TrimSpace(t.BlipCaption); c != "" {
				text += "\n\n(image: " + c + ")"
			}
			turn := i + 1
			if m := reDiaID.FindStringSubmatch(t.DiaID); m != nil {
				turn, _ = strconv.Atoi(m[2])
			}
			docs = append(docs, locomoDoc{dia: fmt.Sprintf("D%d:%d", n, turn), session: n, turn: turn,
				speaker: strings.TrimSpace(t.Speaker), date: date, text: text})
		}
	}
	return docs, nil
}

func locomoCategory(raw json.RawMessage) string {
	var n int
	if json.Unmarshal(raw, &n) == nil {
		return strconv.Itoa(n)
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return strings.TrimSpace(s)
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

// locomoSlug names a turn's memory: "d12-7".
func locomoSlug(d locomoDoc) string { return fmt.Sprintf("d%d-%d", d.session, d.turn) }

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

// locomoBaseline is plain SQLite FTS5 BM25 (default unicode61 tokenizer, no stemming, no stop
// words) over "speaker: text" documents, queried with every word of the question OR'ed.
type locomoBaseline struct {
	db   *sql.DB
	docs []locomoDoc
}

func newLocomoBaseline(ctx context.Context, path string, docs []locomoDoc) (*locomoBaseline, error) {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE f USING fts5(body)`); err != nil {
		db.Close()
		return nil, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		db.Close()
		return nil, err
	}
	for i, d := range docs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO f(rowid, body) VALUES(?, ?)`, i+1, d.speaker+": "+d.text); err != nil {
			tx.Rollback()
			db.Close()
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		db.Close()
		return nil, err
	}
	return &locomoBaseline{db: db, docs: docs}, nil
}

func (b *locomoBaseline) close() { b.db.Close() }

var reWord = regexp.MustCompile(`[\p{L}\p{N}]+`)

func (b *locomoBaseline) rank(ctx context.Context, q string, ev map[string]bool) (int, error) {
	var terms []string
	for _, w := range reWord.FindAllString(q, -1) {
		terms = append(terms, memory.QuoteFTS(w))
	}
	if len(terms) == 0 {
		return -1, nil
	}
	rows, err := b.db.QueryContext(ctx, `SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f) LIMIT 20`, strings.Join(terms, " OR "))
	if err != nil {
		return -1, err
	}
	defer rows.Close()
	i := 0
	for rows.Next() {
		var rid int
		if err := rows.Scan(&rid); err != nil {
			return -1, err
		}
		if rid >= 1 && rid <= len(b.docs) && ev[b.docs[rid-1].dia] {
			return i, nil
		}
		i++
	}
	return -1, rows.Err()
}

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
