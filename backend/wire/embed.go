package wire

import (
	"context"
	"sync"
	"time"

	"engram/backend/api"
	"engram/backend/embed"
	"engram/backend/llm"
	"engram/backend/settings"
	"engram/backend/vector"
)

// openEmbeddings builds the embedder, vector backend and indexer that the settings name (or
// Options.Embed, an override for tests and benchmarks) and rebuilds them whenever the
// embeddings settings change. A configuration that cannot be built is reported by
// recall.embedStatus and leaves the vector path off; it does not stop the app from opening,
// except an invalid Options.Embed, which is a programming error.
func (s *Services) openEmbeddings() error {
	s.Embeddings = vector.NewRuntime(s.Store, vector.RuntimeOptions{
		Logger: s.opts.Logger,
		Indexer: vector.IndexerOptions{Logger: s.opts.Logger,
			OnProgress: func(p vector.Progress) {
				// One event per batch is ~100 a second on a large reindex: throttled, but the
				// start, the end and a failure always go out.
				s.Events.PublishProgress(api.EventEmbeddingProgress, p, !p.Running || p.Error != "" || p.Done == 0)
			}},
		OnSwitch: func(st vector.Setup) { s.Recall.SetVectors(st.Embedder, st.Searcher) },
		Config:   s.embedConfig,
		Stamp:    s.embedStamp,
	})
	if s.opts.Embed != (embed.Config{}) {
		return s.Embeddings.Reload(s.ctx)
	}
	cur, err := s.Settings.Get(s.ctx)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	last := cur.Embeddings
	if err := s.Embeddings.Reload(s.ctx); err != nil {
		s.opts.Logger.Warn("engram: unable to set up embeddings; vector search is off", "err", err)
	}
	// Any settings change notifies; only a change of the embeddings part costs a re-embed.
	s.Settings.OnChange(func(st settings.Settings) {
		mu.Lock()
		defer mu.Unlock()
		if st.Embeddings == last {
			return
		}
		last = st.Embeddings
		if err := s.Embeddings.Reload(s.ctx); err != nil {
			s.opts.Logger.Warn("engram: unable to set up embeddings; vector search is off", "err", err)
		}
	})
	return nil
}

// embedConfig is the configuration to run now: Options.Embed when set, else Settings →
// Embeddings with the key filed for the endpoint. The key only ever travels in memory, to
// the embeddings client.
func (s *Services) embedConfig(ctx context.Context) (embed.Config, error) {
	if s.opts.Embed != (embed.Config{}) {
		return s.opts.Embed, nil
	}
	st, err := s.Settings.Get(ctx)
	if err != nil {
		return embed.Config{}, err
	}
	e := st.Embeddings
	cfg := embed.Config{Provider: e.EffectiveProvider(), Model: e.Model, VectorBackend: e.EffectiveBackend(),
		VectorStoreURL: e.VectorURL}
	if cfg.Provider == "openai" {
		cfg.BaseURL = embeddingsEndpoint(e)
		key, err := s.Keys.Get(llm.ProviderOpenAI, cfg.BaseURL)
		if err != nil {
			return embed.Config{}, err
		}
		cfg.APIKey = key
	}
	return cfg, nil
}

// embedStamp fingerprints what embedConfig reads as another process may change it: the
// embeddings settings and a hash of the key file. Options.Embed (tests, bench) never changes.
func (s *Services) embedStamp() string {
	if s.opts.Embed != (embed.Config{}) {
		return ""
	}
	return s.settingsStamp(func(st settings.Settings) any { return st.Embeddings })
}

// embedWatchEvery is how often a long-running process looks for another process's change of
// the embeddings settings or key (a settings read and a small file read).
const embedWatchEvery = 10 * time.Second

// watchEmbeddings reloads the embeddings when another process changed what they are built
// from, until the process ends.
func (s *Services) watchEmbeddings() {
	t := time.NewTicker(embedWatchEvery)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		if changed, err := s.Embeddings.ReloadIfChanged(s.ctx); changed && err != nil {
			s.opts.Logger.Warn("engram: unable to set up embeddings; vector search is off", "err", err)
		}
	}
}

// embeddingsEndpoint is the base URL an "openai" embeddings setting calls: OpenAI's public API
// when none is set.
func embeddingsEndpoint(e settings.Embeddings) string {
	if e.BaseURL == "" {
		return llm.OpenAIBaseURL
	}
	return e.BaseURL
}

// Indexer is the current background indexer (nil when embeddings are off).
func (s *Services) Indexer() *vector.Indexer {
	if s.Embeddings == nil {
		return nil
	}
	return s.Embeddings.Indexer()
}

// catchUpVectors embeds, once per one-shot process and before its first vector search, the
// memories the local embedder has no current vector for. Vectors are computed by long-running
// processes only, so after a CLI reindex, import or write with nothing running `engram
// search` ranked without them while the app, with them, ranked otherwise. The local embedder
// takes ~7,000 memories a CPU-second, so the catch-up is cheap; a model behind an endpoint
// (a network call per batch) and an external vector store are left to the app or serve. When
// nothing is missing it costs one count.
func (s *Services) catchUpVectors(ctx context.Context) {
	s.catchUp.Do(func() {
		st := s.Embeddings.State()
		ix, emb := s.Embeddings.Indexer(), s.Embeddings.Embedder()
		if st.Provider != "local" || st.Backend != "sqlite" || ix == nil || emb == nil {
			return
		}
		done, total, err := s.Store.VectorCounts(ctx, emb.Model())
		if err != nil || done >= total {
			return
		}
		if err := ix.Run(ctx); err != nil {
			s.opts.Logger.Warn("engram: unable to compute the missing vectors; searching with those there are", "err", err)
		}
	})
}
