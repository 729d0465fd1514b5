// Package recall finds and renders memories for agents: query analysis, hybrid search with
// ranking, the Memory Index overview injected into system prompts, build_context within a
// token budget, a regex grep, and the MemoryManager tool.
//
// A search is laid out over files by step: search.go (parameters, results and the order of the
// steps), keywords.go (document frequencies and the word budget), paths.go (one function per
// retrieval path), retrieve.go (fusion, hydration), turns.go (relevance passed along
// conversations), rank.go (the final weights and floor), profile.go (the identity fallback),
// tuning.go (the constants).
package recall

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"engram/backend/embed"
	"engram/backend/memory"
	"engram/backend/vector"
)

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
	// vmu guards emb and vec, which SetVectors replaces while searches run.
	vmu sync.RWMutex
	emb embed.Embedder
	vec vector.Searcher
	// catchUp, when set (one-shot processes), computes the vectors missing since the last
	// long-running process before the vector path is first taken (SetVectorCatchUp).
	catchUp func(context.Context)
	opts    Options
	t       Tuning
	log     *slog.Logger

	sessions *sessionCache
	reads    *personReads
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
	s := &Service{store: store, opts: opts, t: t, log: opts.Logger, sessions: newSessionCache(256), reads: newPersonReads()}
	s.reads.keepOnDisk(store)
	s.SetVectors(opts.Embedder, opts.Vectors)
	return s
}

// SetVectors switches the vector path to another embedder and searcher (the embeddings
// settings changed); searches already running finish with the old pair. A nil emb leaves the
// vector path out; a nil vec with an emb searches the local index of emb's model.
func (s *Service) SetVectors(emb embed.Embedder, vec vector.Searcher) {
	if emb != nil && vec == nil {
		vec = vector.NewIndex(s.store, emb.Model())
	}
	if emb == nil {
		vec = nil
	}
	s.vmu.Lock()
	s.emb, s.vec = emb, vec
	s.vmu.Unlock()
}

// SetVectorCatchUp has fn run before each vector search (fn makes its own work once): a
// one-shot process (the CLI with nothing running) embeds the memories written or reindexed
// since a long-running process last ran, which it would otherwise rank without.
func (s *Service) SetVectorCatchUp(fn func(context.Context)) {
	s.vmu.Lock()
	s.catchUp = fn
	s.vmu.Unlock()
}

// SaveVectors has the local vector index save its snapshot for the next process, when it
// moved far from the one on disk (vector.Index.SaveIfBehind). Called as the services close.
func (s *Service) SaveVectors(ctx context.Context) {
	if _, vec := s.vectors(); vec != nil {
		if x, ok := vec.(*vector.Index); ok {
			x.SaveIfBehind(ctx)
		}
	}
}

// vectors returns the current embedder and searcher (both nil without embeddings).
func (s *Service) vectors() (embed.Embedder, vector.Searcher) {
	s.vmu.RLock()
	defer s.vmu.RUnlock()
	return s.emb, s.vec
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
	// NoDaily leaves journal days out (people's memory search: the journal has its own).
	NoDaily bool `json:"no_daily,omitempty"`
}

// Hit is one ranked memory.
type Hit struct {
	Memory  *memory.Memory `json:"memory"`
	Score   float64        `json:"score"`
	Snippet string         `json:"snippet"`
	// Via names the paths that found it: words, cjk, expansion, trigram, substring, vector,
	// graph (one relation away from an entity the query names), context (a neighbouring turn
	// of a hit), profile (identity fallback).
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
	// CharsRelaxed is set when a Chinese query found nothing and its hits hold most of its
	// characters rather than its words (see relaxCJK).
	CharsRelaxed bool `json:"chars_relaxed,omitempty"`
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

// Search ranks memories for a query. The steps: analyse the query; run the lexical paths
// (BM25 over stemmed words and CJK bigrams, CJK-only BM25 for mixed queries, expansions,
// trigrams, substrings) and the vector path; fuse them by reciprocal rank blended with each
// path's normalised score; load the candidates with the filter applied again; pass relevance
// to neighbouring turns of recorded conversations; weight by subject, date, time words, type,
// scope, review state, confidence decay and journal recency; put an unreviewed memory marked
// conflicting below the newer memory it names (conflicts.go); drop what falls under the floor
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
	if len(res.Analysis.Facets) == 0 {
		// "whats my nmae": a question about the person with a typo is read as meant (typos.go).
		if fixed, ok := s.foldTypos(ctx, q); ok {
			if a := Analyze(fixed, now, s.store.Location()); len(a.Facets) > 0 {
				q, res.Analysis = fixed, a
			}
		}
	}
	f := memory.Filter{Scope: p.Scope, Workdir: p.Workdir, Agent: p.Agent, Type: p.Type, NoDaily: p.NoDaily}
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
	if len(hits) == 0 {
		// Chinese has no spaces: "我的狗叫什么" leaves the chunk "狗叫", which no memory holds
		// although one is titled "狗". With nothing found, its characters are searched alone,
		// in the same period, and only memories that hold most of them are kept.
		if a, ok := relaxCJK(res.Analysis); ok {
			w := window
			if res.TimeRelaxed {
				w = memory.TimeWindow{}
			}
			if cands, _, err = s.retrieve(ctx, q, a, f, w, p.BestEffort); err != nil {
				return res, err
			}
			if hits, err = s.rank(ctx, a, cands, p.Workdir, now, limit); err != nil {
				return res, err
			}
			hits = slices.DeleteFunc(hits, func(h Hit) bool { return !holdsMost(h.Memory, a.Singles) })
			res.CharsRelaxed = len(hits) > 0
		}
	}
	// A question about the person (who they are, or a facet of their life or tastes) that found
	// little is answered from their profile, and so is any question of the person about
	// themselves that found nothing at all ("what star sign am I", "我咩星座").
	// A Chinese request or question that names no one ("牙疼了，该找谁看？", "这趟出车大概要几天
	// 回来": the subject is left out) and found nothing is answered the same way, but only by
	// notes that share its characters (sharingTerms): its chunks ("出车大概要几天回来") are no
	// memory's substring, while the note titled "看牙", or saying "一趟来回四天", holds them.
	about := ((res.Analysis.Identity || len(res.Analysis.Facets) > 0) && len(hits) < 3) || (len(hits) == 0 && selfQuestion(res.Analysis))
	request := !about && len(hits) == 0 && chineseRequest(res.Analysis)
	if about || request {
		more, err := s.profileFallback(ctx, res.Analysis, f, hits, limit)
		if err != nil {
			return res, err
		}
		if request {
			more = sharingTerms(res.Analysis, more)
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
