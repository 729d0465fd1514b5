package vector

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"engram/backend/embed"
	"engram/backend/memory"
)

// Sink is where vectors go besides memory_vec: an external vector store.
type Sink interface {
	Insert(ctx context.Context, items []Item) error
	Delete(ctx context.Context, ids []string) error
}

// Progress says how far vector computation is for the current model.
type Progress struct {
	Model   string    `json:"model"`
	Done    int       `json:"done"`
	Total   int       `json:"total"`
	Running bool      `json:"running"`
	Error   string    `json:"error,omitempty"`
	At      time.Time `json:"at"`
}

// IndexerOptions tune an Indexer; zero values take the defaults.
type IndexerOptions struct {
	// Sink also receives every vector (an external store); nil keeps vectors in SQLite only.
	Sink Sink
	// Batch is how many memories are embedded at once (default 64).
	Batch int
	// Debounce waits this long after a change before embedding (default 500 ms), so that a
	// burst of writes becomes one pass.
	Debounce time.Duration
	// RetryAfter is the pause after a failed pass (default 30 s).
	RetryAfter time.Duration
	// OnProgress is called after each batch and at the end of each pass.
	OnProgress func(Progress)
	Logger     *slog.Logger
}

// Indexer computes the vectors that are missing or stale — new memories, edited ones, and all
// of them after the embedding model changed — in the background, batch by batch.
type Indexer struct {
	store *memory.Store
	emb   embed.Embedder
	opts  IndexerOptions
	log   *slog.Logger

	kick chan struct{}

	mu       sync.Mutex
	progress Progress
	deleted  []string
	// seed, until the first pass reports, says how many vectors of this model exist already;
	// asked on the first Progress, not when the indexer is built: a one-shot CLI builds one on
	// every call and most never ask (the count joins every memory with its vector).
	seed func() (Progress, bool)
}

// NewIndexer returns an indexer of emb's vectors over store.
func NewIndexer(store *memory.Store, emb embed.Embedder, opts IndexerOptions) *Indexer {
	if opts.Batch <= 0 {
		opts.Batch = 64
	}
	if opts.Debounce <= 0 {
		opts.Debounce = 500 * time.Millisecond
	}
	if opts.RetryAfter <= 0 {
		opts.RetryAfter = 30 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Indexer{store: store, emb: emb, opts: opts, log: opts.Logger, kick: make(chan struct{}, 1),
		progress: Progress{Model: emb.Model()}}
}

// Progress returns the latest progress.
func (ix *Indexer) Progress() Progress {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if seed := ix.seed; seed != nil {
		ix.seed = nil
		if p, ok := seed(); ok {
			ix.progress = p
		}
	}
	return ix.progress
}

func (ix *Indexer) report(p Progress) {
	p.Model, p.At = ix.emb.Model(), ix.store.Now()
	ix.mu.Lock()
	ix.progress, ix.seed = p, nil
	ix.mu.Unlock()
	if ix.opts.OnProgress != nil {
		ix.opts.OnProgress(p)
	}
}

// Kick asks for a pass soon; kicks that arrive while one is pending are merged.
func (ix *Indexer) Kick() {
	select {
	case ix.kick <- struct{}{}:
	default:
	}
}

// Run embeds everything that is missing or stale, then returns. It is what the background
// loop calls, and what a caller that needs every vector now (a benchmark, a reindex) calls.
func (ix *Indexer) Run(ctx context.Context) error {
	if err := ix.flushDeletes(ctx); err != nil {
		ix.log.Warn("vector: unable to delete vectors from the external store", "err", err)
	}
	done, total, err := ix.store.VectorCounts(ctx, ix.emb.Model())
	if err != nil {
		return err
	}
	ix.report(Progress{Done: done, Total: total, Running: done < total})
	for done < total {
		todo, err := ix.store.StaleVectors(ctx, ix.emb.Model(), ix.opts.Batch)
		if err != nil {
			return ix.failed(done, total, err)
		}
		if len(todo) == 0 {
			break
		}
		texts := make([]string, len(todo))
		for i, t := range todo {
			texts[i] = embed.DocumentText(t.Title, t.Tags, t.Body)
		}
		vecs, err := ix.emb.Embed(ctx, texts)
		if err != nil {
			return ix.failed(done, total, err)
		}
		rows := make([]memory.VectorRow, len(todo))
		var items []Item
		for i, t := range todo {
			rows[i] = memory.VectorRow{RID: t.RID, Version: t.Version, Vec: EncodeVec(vecs[i]), Dim: len(vecs[i])}
			items = append(items, Item{ID: t.ID, Vector: vecs[i],
				Payload: Payload{Scope: string(t.Scope), ScopeKey: t.ScopeKey, Type: string(t.Type)}})
		}
		// The external store first: a vector recorded in memory_vec counts as done, so it must
		// not be recorded before the store has it.
		if ix.opts.Sink != nil {
			if err := ix.opts.Sink.Insert(ctx, items); err != nil {
				return ix.failed(done, total, err)
			}
		}
		n, err := ix.store.PutVectors(ctx, ix.emb.Model(), rows)
		if err != nil {
			return ix.failed(done, total, err)
		}
		done += n
		if n == 0 {
			// Every memory of the batch changed while it was embedded; recount so that a store
			// under constant edits cannot keep this loop busy on stale totals.
			if done, total, err = ix.store.VectorCounts(ctx, ix.emb.Model()); err != nil {
				return ix.failed(done, total, err)
			}
		}
		ix.report(Progress{Done: min(done, total), Total: total, Running: true})
	}
	if err := ix.store.PruneVectorLog(ctx, 50000); err != nil {
		ix.log.Warn("vector: unable to prune the vector log", "err", err)
	}
	done, total, err = ix.store.VectorCounts(ctx, ix.emb.Model())
	if err != nil {
		return err
	}
	ix.report(Progress{Done: done, Total: total})
	return nil
}

func (ix *Indexer) failed(done, total int, err error) error {
	if errors.Is(err, context.Canceled) {
		ix.report(Progress{Done: done, Total: total})
		return err
	}
	ix.report(Progress{Done: done, Total: total, Error: err.Error()})
	return err
}

// Start runs passes in the background: one now, then one after each burst of store changes,
// until ctx ends. The returned function stops the loop and waits for it.
func (ix *Indexer) Start(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	unsubscribe := ix.store.Subscribe(func(ev memory.Event) {
		if ev.Kind != "memory.changed" {
			return
		}
		if ix.opts.Sink != nil && len(ev.IDs) > 0 {
			ix.mu.Lock()
			ix.deleted = append(ix.deleted, ev.IDs...)
			ix.mu.Unlock()
		}
		ix.Kick()
	})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ix.Kick()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ix.kick:
			}
			// Debounce: a burst of writes becomes one pass.
			select {
			case <-ctx.Done():
				return
			case <-time.After(ix.opts.Debounce):
			}
			if err := ix.Run(ctx); err != nil && ctx.Err() == nil {
				ix.log.Warn("vector: vector pass failed; retrying later", "err", err)
				select {
				case <-ctx.Done():
					return
				case <-time.After(ix.opts.RetryAfter):
					ix.Kick()
				}
			}
		}
	}()
	return func() {
		unsubscribe()
		cancel()
		wg.Wait()
	}
}

// flushDeletes removes from the external store the vectors of changed memories that are gone
// or archived.
func (ix *Indexer) flushDeletes(ctx context.Context) error {
	ix.mu.Lock()
	ids := ix.deleted
	ix.deleted = nil
	ix.mu.Unlock()
	if ix.opts.Sink == nil || len(ids) == 0 {
		return nil
	}
	var gone []string
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		m, err := ix.store.Get(ctx, id)
		if errors.Is(err, memory.ErrNotFound) || (err == nil && m.Archived) {
			gone = append(gone, id)
		}
	}
	if err := ix.opts.Sink.Delete(ctx, gone); err != nil {
		ix.mu.Lock()
		ix.deleted = append(ix.deleted, gone...) // try again on the next pass
		ix.mu.Unlock()
		return err
	}
	return nil
}
