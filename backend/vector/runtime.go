package vector

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"

	"engram/backend/embed"
	"engram/backend/memory"
)

// RuntimeOptions wire a Runtime to the rest of the process.
type RuntimeOptions struct {
	// Indexer is the template of every indexer the runtime starts (its Sink is replaced by
	// the backend's).
	Indexer IndexerOptions
	// OnSwitch is told each new setup (Embedder nil when embeddings are off or failed to
	// build), after the old indexer stopped: recall switches its vector path there.
	OnSwitch func(Setup)
	// Config is what Reload applies: the configuration as it is now (wire reads the settings
	// and the key file). Nil makes Reload a no-op.
	Config func(ctx context.Context) (embed.Config, error)
	// Stamp fingerprints what Config reads as stored (settings and key file), so that
	// ReloadIfChanged notices another process's change; nil: never; "": not readable now.
	Stamp  func() string
	Logger *slog.Logger
}

// State is what the runtime runs now.
type State struct {
	// Provider is local, openai or off; Backend is sqlite or http (empty when off).
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Backend  string `json:"backend"`
	// Progress is the current indexer's (zero when off).
	Progress Progress `json:"progress"`
}

// Runtime keeps the embedder, searcher and background indexer of the current embeddings
// configuration and replaces all three when it changes (Settings → Embeddings), so vectors of
// a new model are computed in the background while search goes on. Safe for concurrent use.
type Runtime struct {
	store *memory.Store
	opts  RuntimeOptions

	// reload serialises Apply: one switch at a time, in the order asked.
	reload sync.Mutex

	mu      sync.Mutex
	cfg     embed.Config
	setup   Setup
	err     error
	indexer *Indexer
	stop    func()
	// bg is the context indexers run under once Start was called (long-running processes);
	// nil in one-shot processes, which search with the vectors there are.
	bg context.Context
	// applied is set once the first configuration was applied.
	applied bool
	// built is the Stamp of the configuration the last Reload read.
	built string
}

// NewRuntime returns a runtime with nothing applied yet: call Apply.
func NewRuntime(store *memory.Store, opts RuntimeOptions) *Runtime {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Runtime{store: store, opts: opts}
}

// Apply builds the embedder and backend cfg names, stops the old indexer and starts one for
// the new embedder (when running in the background). A configuration that cannot be built
// leaves embeddings off and is the returned error (also what Err answers), never a silent
// fallback to another embedder.
func (r *Runtime) Apply(ctx context.Context, cfg embed.Config) error {
	r.reload.Lock()
	defer r.reload.Unlock()
	st, err := Build(cfg, r.store, r.opts.Logger)
	if err != nil {
		st = Setup{}
	}
	r.mu.Lock()
	stop := r.stop
	r.stop, r.indexer = nil, nil
	r.mu.Unlock()
	if stop != nil {
		stop() // waits for a pass in flight to end, so no progress of the old model follows
	}
	var ix *Indexer
	if st.Embedder != nil {
		o := r.opts.Indexer
		o.Sink = st.Sink
		ix = NewIndexer(r.store, st.Embedder, o)
		// Until its first pass reports, the new indexer says how many vectors of its model
		// exist already, so nobody reads "0 of 0, done" while the re-embedding is pending;
		// counted when first asked (Indexer.seed).
		model := st.Embedder.Model()
		ix.seed = func() (Progress, bool) {
			done, total, cerr := r.store.VectorCounts(ctx, model)
			return Progress{Model: model, Done: done, Total: total, Running: done < total, At: r.store.Now()}, cerr == nil
		}
	}
	r.mu.Lock()
	announce := r.applied || r.bg != nil
	r.applied = true
	r.cfg, r.setup, r.err, r.indexer = cfg, st, err, ix
	if ix != nil && r.bg != nil {
		r.stop = ix.Start(r.bg)
	}
	r.mu.Unlock()
	if r.opts.OnSwitch != nil {
		r.opts.OnSwitch(st)
	}
	if r.opts.Indexer.OnProgress != nil && announce {
		// Listeners showing the old model's progress learn the new one's (none when off).
		// Not at the first setup of a process that is not indexing (a one-shot CLI): nobody
		// listens yet, and the count costs a pass over every memory.
		p := Progress{At: r.store.Now()}
		if ix != nil {
			p = ix.Progress()
		}
		r.opts.Indexer.OnProgress(p)
	}
	return err
}

// Reload applies the configuration Config answers now (after the settings or a key changed).
// A configuration that cannot be read leaves embeddings off, with the error kept for Err.
func (r *Runtime) Reload(ctx context.Context) error {
	if r.opts.Config == nil {
		return nil
	}
	if r.opts.Stamp != nil {
		stamp := r.opts.Stamp()
		r.mu.Lock()
		r.built = stamp
		r.mu.Unlock()
	}
	cfg, err := r.opts.Config(ctx)
	if err != nil {
		r.reload.Lock()
		defer r.reload.Unlock()
		r.mu.Lock()
		stop := r.stop
		r.stop, r.indexer, r.setup, r.err = nil, nil, Setup{}, err
		r.mu.Unlock()
		if stop != nil {
			stop()
		}
		if r.opts.OnSwitch != nil {
			r.opts.OnSwitch(Setup{})
		}
		return err
	}
	return r.Apply(ctx, cfg)
}

// ReloadIfChanged reloads when the stored configuration is no longer the one the last Reload
// read: another process (`engram embeddings set`, `engram embeddings key set` while the app or
// `engram serve` runs) changed the settings or the key, which this process's own change
// notifications never hear of — it kept embedding with the old model or key until it
// restarted. It reports whether it reloaded.
func (r *Runtime) ReloadIfChanged(ctx context.Context) (bool, error) {
	if r.opts.Stamp == nil || r.opts.Config == nil {
		return false, nil
	}
	stamp := r.opts.Stamp()
	r.mu.Lock()
	same := stamp == r.built
	r.mu.Unlock()
	if same || stamp == "" { // "": could not be read now (the index being repaired)
		return false, nil
	}
	return true, r.Reload(ctx)
}

// Start runs the current indexer, and every later one, in the background until ctx ends or
// the returned function is called (which waits for the indexer to stop).
func (r *Runtime) Start(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	r.mu.Lock()
	r.bg = ctx
	if r.indexer != nil && r.stop == nil {
		r.stop = r.indexer.Start(ctx)
	}
	r.mu.Unlock()
	return func() {
		r.reload.Lock()
		defer r.reload.Unlock()
		r.mu.Lock()
		s := r.stop
		r.stop, r.bg = nil, nil
		r.mu.Unlock()
		cancel()
		if s != nil {
			s()
		}
	}
}

// Embedder is the current embedder (nil when off or not built).
func (r *Runtime) Embedder() embed.Embedder {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.setup.Embedder
}

// Indexer is the current indexer (nil when off or not built).
func (r *Runtime) Indexer() *Indexer {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.indexer
}

// Err is why the configured embedder could not be built (nil when it was).
func (r *Runtime) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// State reports the provider, model, backend and progress in use.
func (r *Runtime) State() State {
	r.mu.Lock()
	cfg, emb, ix := r.cfg, r.setup.Embedder, r.indexer
	r.mu.Unlock()
	s := State{Provider: strings.ToLower(strings.TrimSpace(cfg.Provider))}
	if s.Provider == "" {
		s.Provider = "local"
	}
	if emb == nil {
		s.Provider = "off"
		return s
	}
	s.Model = emb.Model()
	s.Backend = strings.ToLower(strings.TrimSpace(cfg.VectorBackend))
	if s.Backend == "" {
		s.Backend = "sqlite"
	}
	if ix != nil {
		s.Progress = ix.Progress()
	}
	return s
}
