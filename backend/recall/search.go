// Package recall finds and renders memories for agents: query analysis, hybrid search with
// ranking, the Memory Index overview injected into system prompts, build_context within a
// token budget, a regex grep, and the MemoryManager tool.
package recall

import (
	"context"
	"io"
	"log/slog"
	"math"
	"sort"
	"strings"
	"time"

	"engram/backend/embed"
	"engram/backend/embed/token"
	"engram/backend/memory"
	"engram/backend/vector"
)

// Tuning holds the ranking constants. They were set on the LoCoMo dev conversations (see
// backend/bench) and are exposed for benchmarks and tests, not as user settings.
type Tuning struct {
	// Depth is how many rows each path contributes.
	Depth int
	// ColumnWeights are the BM25 weights of the title, body and aliases columns.
	ColumnWeights [3]float64
	// Path weights in the fusion.
	WWords, WCJK, WExpansion, WTrigram, WTrigramCode, WSubstring, WVector float64
	// WSurface weighs the share of the query's keywords (by IDF) found verbatim in a candidate:
	// exact forms and substrings, which the stemmed word index does not tell apart.
	WSurface float64
	// RRFK is the reciprocal-rank constant; ScoreShare blends each path's max-normalised score
	// into its reciprocal-rank contribution (0 = pure RRF, 1 = pure normalised score).
	RRFK, ScoreShare float64
	// Fwd and FwdQuestion are the shares of a turn's relevance passed to the next turn of the
	// same session (FwdQuestion when the turn is a question); Back to the previous one.
	Fwd, FwdQuestion, Back float64
	// Session scales the boost of memories from the sessions that hold most of the relevance.
	Session float64
	// QuestionPenalty multiplies memories that are themselves questions.
	QuestionPenalty float64
	// TimeBoost favours memories that say when, for "when" questions.
	TimeBoost float64
	// SubjectBoost favours memories tagged with (or aliased to) a name the query mentions.
	SubjectBoost float64
	// DateBoost favours memories from around an absolute date the query names.
	DateBoost float64
	DateSlack time.Duration
	// VecFloor is the cosine a vector-only candidate needs to count as evidence.
	VecFloor float64
	// MinRelative drops hits scoring below this share of the best hit.
	MinRelative float64
	// WordBudget bounds the memories the BM25 word query may touch: keywords are added rarest
	// first, and the most common ones are left out once the budget (the larger of WordBudget and
	// the index size divided by WordBudgetShare) is spent.
	WordBudget, WordBudgetShare int
	// Keep is how many fused candidates are loaded and ranked; ContextTop how many of the best
	// pass relevance to their neighbouring turns; TrigramBelow runs the trigram path only when
	// the word path found fewer rows (or for code queries), as substrings then matter.
	Keep, ContextTop, TrigramBelow int
}

// DefaultTuning is the ranking used by Engram and its benchmark.
func DefaultTuning() Tuning {
	return Tuning{
		Depth:         100,
		ColumnWeights: [3]float64{3, 1, 2},
		WWords:        1, WCJK: 0.6, WExpansion: 0.3, WTrigram: 0.15, WTrigramCode: 0.6, WSubstring: 0.5, WVector: 0.25,
		WSurface: 0.5,
		RRFK:     60, ScoreShare: 0.9,
		Fwd: 0.4, FwdQuestion: 0.9, Back: 0.3,
		Session:         0.2,
		QuestionPenalty: 0.7,
		TimeBoost:       0.6,
		SubjectBoost:    1.0,
		DateBoost:       2.0,
		DateSlack:       8 * 24 * time.Hour,
		VecFloor:        0.25,
		MinRelative:     0.02,
		WordBudget:      3000,
		WordBudgetShare: 20,
		Keep:            150,
		ContextTop:      40,
		TrigramBelow:    10,
	}
}

// Options configure a Service; zero values take the defaults.
type Options struct {
	// Embedder computes query vectors; nil leaves the vector path out.
	Embedder embed.Embedder
	// Vectors searches stored vectors (an external store); nil with an Embedder searches the
	// local index over memory_vec.
	Vectors vector.Searcher
	// DecayRate is the confidence decay per day without access (default 0.01: about 70 days
	// to half).
	DecayRate float64
	// Tuning replaces DefaultTuning when its Depth is set.
	Tuning Tuning
	// Trace, when set, is told how long each step of a search took (benchmarks).
	Trace  func(step string, d time.Duration)
	Logger *slog.Logger
}

// Service is recall over one store.
type Service struct {
	store *memory.Store
	emb   embed.Embedder
	vec   vector.Searcher
	opts  Options
	t     Tuning
	log   *slog.Logger

	sessions *sessionCache
}

// New returns recall over store.
func New(store *memory.Store, opts Options) *Service {
	if opts.DecayRate <= 0 {
		opts.DecayRate = 0.01
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	t := opts.Tuning
	if t.Depth <= 0 {
		t = DefaultTuning()
	}
	s := &Service{store: store, emb: opts.Embedder, vec: opts.Vectors, opts: opts, t: t, log: opts.Logger,
		sessions: newSessionCache(256)}
	if s.emb != nil && s.vec == nil {
		s.vec = vector.NewIndex(store, s.emb.Model())
	}
	return s
}

// Tuning returns the ranking constants in use.
func (s *Service) Tuning() Tuning { return s.t }

// MaxQueryBytes bounds a query.
const MaxQueryBytes = 4096

// SearchParams is one recall.
type SearchParams struct {
	Query string `json:"query"`
	// Scope, Workdir and Agent select what is visible: with Scope empty, an agent working in
	// Workdir sees global memories, that project's and its own (Agent).
	Scope   memory.Scope `json:"scope,omitempty"`
	Workdir string       `json:"workdir,omitempty"`
	Agent   string       `json:"agent,omitempty"`
	Type    memory.Type  `json:"type,omitempty"`
	Limit   int          `json:"limit,omitempty"`
	// NoTouch leaves access counts alone: UI previews and benchmarks are not recalls.
	NoTouch bool `json:"no_touch,omitempty"`
	// BestEffort keeps going on lexical paths when the vector backend fails (the failure is
	// reported in Warnings); otherwise the failure is the search's error.
	BestEffort bool `json:"best_effort,omitempty"`
}

// Hit is one ranked memory.
type Hit struct {
	Memory  *memory.Memory `json:"memory"`
	Score   float64        `json:"score"`
	Snippet string         `json:"snippet"`
	// Via names the paths that found it: words, cjk, expansion, trigram, substring, vector,
	// context (a neighbouring turn of a hit), profile (identity fallback).
	Via []string `json:"via"`
}

// Warning is a non-fatal note on a result.
type Warning struct {
	Code string         `json:"code"`
	Args map[string]any `json:"args,omitempty"`
}

// SearchResult is a ranked list, best first; it may honestly be empty.
type SearchResult struct {
	Hits     []Hit    `json:"hits"`
	Analysis Analysis `json:"analysis"`
	// TimeRelaxed is set when a time expression matched nothing and was dropped.
	TimeRelaxed bool `json:"time_relaxed,omitempty"`
	// Fallback is set when an identity question was answered from the profile.
	Fallback bool      `json:"fallback,omitempty"`
	Warnings []Warning `json:"warnings,omitempty"`
}

// step reports the time since t0 to the trace hook and returns now.
func (s *Service) step(name string, t0 time.Time) time.Time {
	now := time.Now()
	if s.opts.Trace != nil {
		s.opts.Trace(name, now.Sub(t0))
	}
	return now
}

// cand is a candidate while ranking.
type cand struct {
	rid      int64
	m        *memory.Memory
	rel      float64
	vecCos   float64
	lexical  bool
	evidence bool
	via      []string
	score    float64
}

func (c *cand) addVia(p string) {
	for _, v := range c.via {
		if v == p {
			return
		}
	}
	c.via = append(c.via, p)
}

// Search ranks memories for a query. The steps: analyse the query; run the lexical paths
// (BM25 over stemmed words and CJK bigrams, CJK-only BM25 for mixed queries, expansions,
// trigrams, substrings) and the vector path; fuse them by reciprocal rank blended with each
// path's normalised score; load the candidates with the filter applied again; pass relevance
// to neighbouring turns of recorded conversations; weight by subject, date, time words, type,
// scope, review state, confidence decay and journal recency; drop what falls under the floor
// or is shadowed by a project entry; count the recall.
func (s *Service) Search(ctx context.Context, p SearchParams) (SearchResult, error) {
	res := SearchResult{Hits: []Hit{}}
	q := strings.TrimSpace(p.Query)
	if len(q) > MaxQueryBytes {
		return res, codeErr(CodeInvalidQuery, map[string]any{"Max": MaxQueryBytes}, "query is longer than %d bytes", MaxQueryBytes)
	}
	if q == "" {
		return res, nil
	}
	if p.Scope == memory.ScopeProject && strings.TrimSpace(p.Workdir) == "" {
		return res, codeErr(CodeMissingField, map[string]any{"Field": "workdir"}, "project scope needs the workdir")
	}
	limit := p.Limit
	if limit <= 0 {
		limit = 10
	}
	limit = min(limit, 200)
	now := s.store.Now()
	res.Analysis = Analyze(q, now, s.store.Location())
	f := memory.Filter{Scope: p.Scope, Workdir: p.Workdir, Agent: p.Agent, Type: p.Type}
	var window memory.TimeWindow
	if res.Analysis.Time != nil && res.Analysis.Time.Relative {
		window = res.Analysis.Time.Window()
	}
	cands, warns, err := s.retrieve(ctx, q, res.Analysis, f, window, p.BestEffort)
	if err != nil {
		return res, err
	}
	if !window.IsZero() && len(cands) == 0 {
		// Nothing in the period the query named: say so and search all time instead.
		res.TimeRelaxed = true
		cands, warns, err = s.retrieve(ctx, q, res.Analysis, f, memory.TimeWindow{}, p.BestEffort)
		if err != nil {
			return res, err
		}
	}
	res.Warnings = warns
	t0 := time.Now()
	hits, err := s.rank(ctx, res.Analysis, cands, p.Workdir, now, limit)
	s.step("rank", t0)
	if err != nil {
		return res, err
	}
	if res.Analysis.Identity && len(hits) < 3 {
		more, err := s.profileFallback(ctx, f, hits, limit)
		if err != nil {
			return res, err
		}
		if len(more) > 0 {
			res.Fallback = true
			hits = append(hits, more...)
		}
	}
	for i := range hits {
		hits[i].Snippet = memory.Snippet(hits[i].Memory.Body, q, 160)
	}
	res.Hits = hits
	if !p.NoTouch && len(hits) > 0 {
		ids := make([]string, len(hits))
		for i, h := range hits {
			ids[i] = h.Memory.ID
		}
		if err := s.store.TouchAccess(ctx, ids, now); err != nil {
			// Counting is a side effect; a busy index must not fail the recall itself.
			s.log.Warn("recall: unable to count access", "err", err)
		}
	}
	return res, nil
}

// ftsWords renders the keywords and variants as an OR query over the word index: English words
// quoted (the index stems them), CJK chunks as their bigrams plus the whole chunk as a phrase,
// and one-character chunks as bigram prefixes.
func ftsWords(a Analysis, cjkOnly bool, skip map[string]bool) string {
	var parts []string
	seen := map[string]bool{}
	add := func(e string) {
		if e != "" && !seen[e] {
			seen[e] = true
			parts = append(parts, e)
		}
	}
	for _, k := range a.Keywords {
		if skip[k.Text] {
			continue
		}
		if !k.CJK {
			if !cjkOnly {
				add(memory.QuoteFTS(k.Text))
			}
			continue
		}
		rs := []rune(k.Text)
		for i := 0; i+1 < len(rs); i++ {
			add(memory.QuoteFTS(string(rs[i : i+2])))
		}
		if len(rs) > 2 {
			add(memory.QuoteFTS(strings.TrimSpace(memory.SegmentCJK(k.Text))))
		}
	}
	for _, sg := range a.Singles {
		add(memory.QuoteFTS(sg) + "*")
	}
	if !cjkOnly {
		for _, v := range a.Variants {
			add(memory.QuoteFTS(v))
		}
	}
	return strings.Join(parts, " OR ")
}

func ftsTerms(terms []string) string {
	var parts []string
	for _, t := range terms {
		if token := strings.TrimSpace(t); token != "" {
			if isCJKText(token) {
				token = strings.TrimSpace(memory.SegmentCJK(token))
			}
			parts = append(parts, memory.QuoteFTS(token))
		}
	}
	return strings.Join(parts, " OR ")
}

func isCJKText(s string) bool {
	for _, r := range s {
		if memory.IsCJK(r) {
			return true
		}
	}
	return false
}

// retrieve runs the paths and fuses them into hydrated candidates.
func (s *Service) retrieve(ctx context.Context, q string, a Analysis, f memory.Filter, w memory.TimeWindow, bestEffort bool) (map[int64]*cand, []Warning, error) {
	t := s.t
	cands := map[int64]*cand{}
	var warns []Warning
	fuse := func(path string, weight float64, list []memory.RankedRID, absolute, lexical bool) {
		if len(list) == 0 || weight <= 0 {
			return
		}
		top := list[0].Score
		for r, it := range list {
			norm := 0.0
			switch {
			case absolute:
				norm = it.Score
			case top > 0:
				norm = it.Score / top
			}
			contrib := weight * (t.ScoreShare*norm + (1-t.ScoreShare)*(t.RRFK+1)/(t.RRFK+float64(r)+1))
			c := cands[it.RID]
			if c == nil {
				c = &cand{rid: it.RID}
				cands[it.RID] = c
			}
			c.rel += contrib
			c.addVia(path)
			if lexical {
				c.lexical = true
			}
		}
	}
	hasCJK, hasLatin := false, false
	for _, k := range a.Keywords {
		if k.CJK {
			hasCJK = true
		} else {
			hasLatin = true
		}
	}
	t0 := time.Now()
	stats, err := s.keywordStats(ctx, a)
	if err != nil {
		return nil, nil, err
	}
	t0 = s.step("stats", t0)
	wordRows := 0
	if m := ftsWords(a, false, stats.skip); m != "" {
		rankWords := func() ([]memory.RankedRID, error) { return s.store.RankWords(ctx, m, t.ColumnWeights, f, w, t.Depth) }
		if stats.broad && len(a.Singles) == 0 && len(a.Variants) == 0 {
			rankWords = func() ([]memory.RankedRID, error) { return s.store.RecentWords(ctx, m, f, w, t.Depth) }
		}
		list, err := rankWords()
		if err != nil {
			return nil, nil, err
		}
		wordRows = len(list)
		fuse("words", t.WWords, list, false, true)
	}
	t0 = s.step("words", t0)
	if hasCJK && hasLatin {
		// A mixed-language query: the CJK part gets its own list so that frequent English
		// words cannot drown it.
		list, err := s.store.RankWords(ctx, ftsWords(a, true, stats.skip), t.ColumnWeights, f, w, t.Depth)
		if err != nil {
			return nil, nil, err
		}
		fuse("cjk", t.WCJK, list, false, true)
	}
	if len(a.Expansions) > 0 {
		list, err := s.store.RankWords(ctx, ftsTerms(a.Expansions), t.ColumnWeights, f, w, t.Depth)
		if err != nil {
			return nil, nil, err
		}
		fuse("expansion", t.WExpansion, list, false, true)
	}
	t0 = s.step("expansion", t0)
	var tri []string
	for _, k := range a.Keywords {
		if len([]rune(k.Text)) >= 3 {
			tri = append(tri, k.Text)
		}
	}
	if len(tri) > 0 && (a.Intent == IntentCode || wordRows < t.TrigramBelow) {
		wt := t.WTrigram
		if a.Intent == IntentCode {
			wt = t.WTrigramCode
		}
		var parts []string
		for _, x := range tri {
			parts = append(parts, memory.QuoteFTS(x))
		}
		list, err := s.store.RankTrigrams(ctx, strings.Join(parts, " OR "), f, w, t.Depth)
		if err != nil {
			return nil, nil, err
		}
		fuse("trigram", wt, list, false, true)
	}
	t0 = s.step("trigram", t0)
	if len(a.Keywords) == 0 {
		// A lone CJK character, or a query with no word at all ("=>", "C++"): scan for the text
		// itself. A query of stop words only ("what is it") asks nothing and finds nothing.
		needles := a.Singles
		if len(needles) == 0 && len(a.Expansions) == 0 && len(token.Split(q)) == 0 {
			needles = []string{q}
		}
		if len(needles) > 0 {
			list, err := s.store.RankSubstrings(ctx, needles, f, w, t.Depth)
			if err != nil {
				return nil, nil, err
			}
			fuse("substring", t.WSubstring, list, false, true)
		}
	}
	t0 = s.step("substring", t0)
	if s.emb != nil && s.vec != nil && (len(a.Keywords) > 0 || len(a.Singles) > 0) {
		list, err := s.vectorPath(ctx, q, f)
		switch {
		case err != nil && bestEffort:
			code, args := codeOf(err)
			warns = append(warns, Warning{Code: code, Args: args})
			s.log.Warn("recall: vector search failed; lexical results only", "err", err)
		case err != nil:
			return nil, nil, err
		default:
			fuse("vector", t.WVector, list, true, false)
			for _, it := range list {
				if c := cands[it.RID]; c != nil {
					c.vecCos = it.Score
				}
			}
		}
	}
	t0 = s.step("vector", t0)
	if len(cands) == 0 {
		return cands, warns, nil
	}
	// Only the best Keep candidates are loaded: the ranking multipliers reorder near-ties, they
	// do not lift the tail of a long list into the top.
	rids := make([]int64, 0, len(cands))
	for rid := range cands {
		rids = append(rids, rid)
	}
	if t.Keep > 0 && len(rids) > t.Keep {
		sort.Slice(rids, func(i, j int) bool {
			ci, cj := cands[rids[i]], cands[rids[j]]
			if ci.rel != cj.rel {
				return ci.rel > cj.rel
			}
			return rids[i] < rids[j]
		})
		for _, rid := range rids[t.Keep:] {
			delete(cands, rid)
		}
		rids = rids[:t.Keep]
	}
	mems, err := s.store.HydrateRIDs(ctx, rids, f, w)
	if err != nil {
		return nil, nil, err
	}
	t0 = s.step("hydrate", t0)
	for rid, c := range cands {
		m := mems[rid]
		if m == nil {
			// Gone, or outside the filter (a vector backend may name anything): dropped.
			delete(cands, rid)
			continue
		}
		c.m = m
		c.evidence = c.lexical || c.vecCos >= t.VecFloor
	}
	if t.WSurface > 0 {
		addSurface(stats, cands, t.WSurface)
	}
	t0 = s.step("surface", t0)
	if err := s.addContext(ctx, cands, f, w); err != nil {
		return nil, nil, err
	}
	s.step("context", t0)
	return cands, warns, nil
}

// kwStats are the document frequencies of a query's keywords.
type kwStats struct {
	text []string  // lower-cased keywords
	idf  []float64 // their inverse document frequencies
	sum  float64
	// skip are keywords left out of the word query: so common that scoring every memory they
	// occur in would cost more than their low weight is worth (see WordBudget).
	skip map[string]bool
	// broad is set when even the kept keywords each match more memories than the budget: the
	// word path then takes the newest matches instead of scoring them all.
	broad bool
}

// keywordStats counts each keyword's memories and picks the common ones to leave out of the
// BM25 query, rarest first, once the memories matched would exceed the budget. The rarest two
// keywords are always kept.
func (s *Service) keywordStats(ctx context.Context, a Analysis) (kwStats, error) {
	st := kwStats{skip: map[string]bool{}}
	if len(a.Keywords) == 0 {
		return st, nil
	}
	n, err := s.store.IndexSizeHint(ctx)
	if err != nil {
		return st, err
	}
	dfs := make([]int, len(a.Keywords))
	for i, k := range a.Keywords {
		match := memory.QuoteFTS(k.Text)
		if k.CJK {
			match = memory.QuoteFTS(strings.TrimSpace(memory.SegmentCJK(k.Text)))
		}
		df, err := s.store.WordDocCount(ctx, match)
		if err != nil {
			return st, err
		}
		dfs[i] = df
		idf := math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
		st.text = append(st.text, strings.ToLower(k.Text))
		st.idf = append(st.idf, idf)
		st.sum += idf
	}
	budget := max(s.t.WordBudget, n/s.t.WordBudgetShare)
	order := make([]int, len(dfs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return dfs[order[i]] < dfs[order[j]] })
	total := 0
	st.broad = true
	for rank, i := range order {
		total += dfs[i]
		if rank >= 2 && total > budget {
			st.skip[a.Keywords[i].Text] = true
			continue
		}
		if dfs[i] <= budget {
			st.broad = false
		}
	}
	return st, nil
}

// addSurface credits candidates that hold the query's keywords verbatim (case-folded), each
// keyword weighted by its inverse document frequency.
func addSurface(st kwStats, cands map[int64]*cand, weight float64) {
	if st.sum <= 0 {
		return
	}
	for _, c := range cands {
		text := strings.ToLower(c.m.Title + "\n" + c.m.Body)
		got := 0.0
		for i, k := range st.text {
			if strings.Contains(text, k) {
				got += st.idf[i]
			}
		}
		c.rel += weight * got / st.sum
	}
}

// vectorPath embeds the query and asks the vector searcher; matches become index rows, and
// ids that the index does not know are dropped.
func (s *Service) vectorPath(ctx context.Context, q string, f memory.Filter) ([]memory.RankedRID, error) {
	vecs, err := s.emb.Embed(ctx, []string{q})
	if err != nil {
		return nil, err
	}
	if len(vecs) != 1 {
		return nil, nil
	}
	matches, err := s.vec.Search(ctx, vecs[0], s.t.Depth, f)
	if err != nil {
		return nil, err
	}
	var unknown []string
	for _, m := range matches {
		if m.RID == 0 {
			unknown = append(unknown, m.ID)
		}
	}
	byID := map[string]int64{}
	if len(unknown) > 0 {
		if byID, err = s.store.RIDsOfIDs(ctx, unknown); err != nil {
			return nil, err
		}
	}
	out := make([]memory.RankedRID, 0, len(matches))
	seen := map[int64]bool{}
	for _, m := range matches {
		rid := m.RID
		if rid == 0 {
			rid = byID[m.ID]
		}
		if rid == 0 || seen[rid] || m.Score <= 0 {
			continue
		}
		seen[rid] = true
		out = append(out, memory.RankedRID{RID: rid, Score: m.Score})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out, nil
}

// addContext passes relevance along recorded conversations: the turn after a hit often holds
// the answer (most of all when the hit is a question), the turn before it the setting. The
// neighbours are loaded through the same filter.
func (s *Service) addContext(ctx context.Context, cands map[int64]*cand, f memory.Filter, w memory.TimeWindow) error {
	t := s.t
	if t.Fwd == 0 && t.FwdQuestion == 0 && t.Back == 0 {
		return nil
	}
	// The best ContextTop turns pass relevance on; weaker ones would only add noise and cost.
	var top []*cand
	for _, c := range cands {
		if c.rel > 0 && c.m.Source.Session != "" && c.m.Source.Turn > 0 {
			top = append(top, c)
		}
	}
	sort.Slice(top, func(i, j int) bool {
		if top[i].rel != top[j].rel {
			return top[i].rel > top[j].rel
		}
		return top[i].rid < top[j].rid
	})
	if t.ContextTop > 0 && len(top) > t.ContextTop {
		top = top[:t.ContextTop]
	}
	var keys []memory.TurnKey
	for _, c := range top {
		src := c.m.Source
		keys = append(keys, memory.TurnKey{Session: src.Session, Turn: src.Turn - 1},
			memory.TurnKey{Session: src.Session, Turn: src.Turn + 1})
	}
	if len(keys) == 0 {
		return nil
	}
	byTurn, err := s.store.TurnRIDs(ctx, keys)
	if err != nil {
		return err
	}
	var missing []int64
	for _, rid := range byTurn {
		if cands[rid] == nil {
			missing = append(missing, rid)
		}
	}
	more, err := s.store.HydrateRIDs(ctx, missing, f, w)
	if err != nil {
		return err
	}
	base := make(map[int64]float64, len(top))
	evid := make(map[int64]bool, len(top))
	for _, c := range top {
		base[c.rid] = c.rel
		evid[c.rid] = c.evidence
	}
	for rid, m := range more {
		cands[rid] = &cand{rid: rid, m: m}
	}
	give := func(from *cand, key memory.TurnKey, share float64) {
		rid, ok := byTurn[key]
		if !ok || share <= 0 {
			return
		}
		to := cands[rid]
		if to == nil || to == from {
			return
		}
		to.rel += share * base[from.rid]
		to.addVia("context")
		if evid[from.rid] {
			to.evidence = true
		}
	}
	for _, c := range top {
		src := c.m.Source
		fwd := t.Fwd
		if interrogative(c.m.Body) {
			fwd = t.FwdQuestion
		}
		give(c, memory.TurnKey{Session: src.Session, Turn: src.Turn + 1}, fwd)
		give(c, memory.TurnKey{Session: src.Session, Turn: src.Turn - 1}, t.Back)
	}
	return nil
}

// rank turns candidates into the final list.
func (s *Service) rank(ctx context.Context, a Analysis, cands map[int64]*cand, workdir string, now time.Time, limit int) ([]Hit, error) {
	t := s.t
	if len(cands) == 0 {
		return []Hit{}, nil
	}
	// Sessions holding most of the relevance lift all their turns a little.
	if t.Session > 0 {
		per := map[string][]float64{}
		for _, c := range cands {
			if sess := c.m.Source.Session; sess != "" {
				per[sess] = append(per[sess], c.rel)
			}
		}
		sum := map[string]float64{}
		best := 0.0
		for sess, v := range per {
			sort.Sort(sort.Reverse(sort.Float64Slice(v)))
			total := 0.0
			for i := 0; i < len(v) && i < 3; i++ {
				total += v[i]
			}
			sum[sess] = total
			best = math.Max(best, total)
		}
		if best > 0 {
			for _, c := range cands {
				if sess := c.m.Source.Session; sess != "" {
					c.rel *= 1 + t.Session*sum[sess]/best
				}
			}
		}
	}
	ids := make([]string, 0, len(cands))
	for _, c := range cands {
		ids = append(ids, c.m.ID)
	}
	access, err := s.store.AccessStats(ctx, ids)
	if err != nil {
		return nil, err
	}
	subjects := querySubjects(a.Query)
	loc := s.store.Location()
	for _, c := range cands {
		m := c.m
		sc := c.rel
		if interrogative(m.Body) {
			sc *= t.QuestionPenalty
		}
		if a.TimeQuestion && hasTemporalMarker(m.Body) {
			sc *= 1 + t.TimeBoost
		}
		if mentionsSubject(subjects, m) {
			sc *= 1 + t.SubjectBoost
		}
		if a.Time != nil && !a.Time.Relative && a.Time.Near(m.Created, t.DateSlack, loc) {
			sc *= 1 + t.DateBoost
		}
		sc *= typeWeight(a.Intent, m.Type)
		sc *= scopeWeight(m.Scope)
		if !m.Reviewed {
			sc *= 0.9
		}
		sc *= s.decayWeight(m, access[m.ID], now)
		if m.Type == memory.TypeDaily {
			age := now.Sub(m.Updated).Hours() / 24
			sc *= math.Max(math.Exp(-math.Max(age, 0)/30), 0.05)
		}
		c.score = sc
	}
	list := make([]*cand, 0, len(cands))
	best := 0.0
	for _, c := range cands {
		if !c.evidence || c.score <= 0 {
			continue
		}
		list = append(list, c)
		best = math.Max(best, c.score)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].rid < list[j].rid
	})
	// The floor: what scores far below the best hit is noise, not an answer.
	cut := len(list)
	for i, c := range list {
		if c.score < t.MinRelative*best {
			cut = i
			break
		}
	}
	list = list[:cut]
	list, err = s.unshadow(ctx, list, workdir)
	if err != nil {
		return nil, err
	}
	if len(list) > limit {
		list = list[:limit]
	}
	hits := make([]Hit, len(list))
	for i, c := range list {
		hits[i] = Hit{Memory: c.m, Score: c.score, Via: c.via}
	}
	return hits, nil
}

// unshadow drops global hits whose slug a live memory of the current project also uses: the
// project entry is the one that holds there.
func (s *Service) unshadow(ctx context.Context, list []*cand, workdir string) ([]*cand, error) {
	if workdir == "" {
		return list, nil
	}
	var slugs []string
	for _, c := range list {
		if c.m.Scope == memory.ScopeGlobal {
			slugs = append(slugs, c.m.Slug)
		}
	}
	if len(slugs) == 0 {
		return list, nil
	}
	shadowed, err := s.store.ShadowedSlugs(ctx, workdir, slugs)
	if err != nil {
		return nil, err
	}
	out := list[:0]
	for _, c := range list {
		if c.m.Scope == memory.ScopeGlobal && shadowed[c.m.Slug] {
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

func scopeWeight(sc memory.Scope) float64 {
	switch sc {
	case memory.ScopeProject:
		return 1.1
	case memory.ScopeAgent:
		return 1.05
	}
	return 1
}

// decayWeight is LibreFang's confidence decay: conf·e^(−rate·days since last access), boosted
// by 1+log2(access count) and capped at 1; memories never recalled count from their last
// update, and the first day is free. It maps to a weight in [0.7, 1] so that decay orders
// near-ties without burying a strong match.
func (s *Service) decayWeight(m *memory.Memory, ac memory.Access, now time.Time) float64 {
	return 0.7 + 0.3*s.DecayedConfidence(m, ac, now)
}

// DecayedConfidence is the confidence in [0, 1] after decay: high 1, medium 0.8, low 0.6, times
// e^(−rate·days since last access or update, the first day free), times 1+log2(count) for
// memories recalled more than once, capped at 1.
func (s *Service) DecayedConfidence(m *memory.Memory, ac memory.Access, now time.Time) float64 {
	base := 0.8
	switch m.Confidence {
	case memory.ConfidenceHigh:
		base = 1
	case memory.ConfidenceLow:
		base = 0.6
	}
	last := m.Updated
	if ac.Last.After(last) {
		last = ac.Last
	}
	days := now.Sub(last).Hours()/24 - 1
	c := base
	if days > 0 {
		c *= math.Exp(-s.opts.DecayRate * days)
	}
	if ac.Count > 1 {
		c *= 1 + math.Log2(float64(ac.Count))
	}
	return math.Min(c, 1)
}

// profileFallback answers an identity question that found little from the person's profile:
// user memories, those named like a profile first, then the newest.
func (s *Service) profileFallback(ctx context.Context, f memory.Filter, have []Hit, limit int) ([]Hit, error) {
	if f.Type != "" && f.Type != memory.TypeUser {
		return nil, nil
	}
	uf := f
	uf.Type = memory.TypeUser
	uf.Limit = 200
	items, _, err := s.store.List(ctx, uf)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	low := 1.0
	for _, h := range have {
		seen[h.Memory.ID] = true
		low = math.Min(low, h.Score)
	}
	isProfile := func(m *memory.Memory) bool {
		if strings.Contains(m.Slug, "profile") || strings.Contains(m.Slug, "about-me") || strings.Contains(m.Slug, "identity") {
			return true
		}
		for _, t := range m.Tags {
			if t == "profile" || t == "identity" || t == "画像" || t == "身份" {
				return true
			}
		}
		return false
	}
	sort.SliceStable(items, func(i, j int) bool {
		pi, pj := isProfile(items[i]), isProfile(items[j])
		if pi != pj {
			return pi
		}
		if items[i].Reviewed != items[j].Reviewed {
			return items[i].Reviewed
		}
		return items[i].Updated.After(items[j].Updated)
	})
	var out []Hit
	for i, m := range items {
		if len(have)+len(out) >= limit {
			break
		}
		if seen[m.ID] {
			continue
		}
		out = append(out, Hit{Memory: m, Score: low * 0.5 / float64(i+1), Via: []string{"profile"}})
	}
	return out, nil
}
