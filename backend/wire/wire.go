// Package wire builds Engram's services once, by constructor injection, for every process
// that runs them: the desktop app, `engram serve`, the CLI and the bench harness. It is the
// one place that knows which service needs which; transports receive the finished api.
package wire

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"sync"
	"time"

	"engram/backend/api"
	"engram/backend/backup"
	"engram/backend/embed"
	"engram/backend/extraction"
	"engram/backend/graph"
	"engram/backend/history"
	"engram/backend/hook"
	"engram/backend/i18n"
	"engram/backend/llm"
	"engram/backend/llm/keyring"
	"engram/backend/memory"
	"engram/backend/organizer"
	"engram/backend/recall"
	"engram/backend/settings"
	"engram/backend/vector"
)

// Options say where the services live and how long the process runs.
type Options struct {
	Home    string
	Lang    string // language of a fresh home's settings
	Catalog *i18n.Catalog
	Version string
	// Logger gets warnings; nil logs them to stderr.
	Logger *slog.Logger
	// Passive is for one-shot processes (CLI verbs): the organizer never executes a run
	// there, it queues Run Now for the long-running process to take.
	Passive bool
	// RunsOrganizer, with Passive, lets the organizer execute runs here all the same (no
	// timer): `engram organize` waits for its run, and with no app or serve open on the home a
	// queued run would never start. The home's run lock keeps it to one run at a time across
	// processes; a run another process holds is waited for, then taken by whichever is free.
	RunsOrganizer bool
	// Embed, when set, picks the embedder instead of Settings → Embeddings (tests, bench);
	// the zero value follows the settings (the local embedder on a fresh home).
	Embed embed.Config
	// Remote answers Settings → Remote access; nil when the process runs no bridge.
	Remote api.Remote
	// Planner proposes extraction plans (tests script one). Nil picks the model when one is
	// configured, else the offline extractor.
	Planner extraction.Planner
}

// organizerWaitPoll is how often a process that runs the organizer on demand (RunsOrganizer)
// looks for queued runs it may take.
const organizerWaitPoll = 500 * time.Millisecond

// Services are the running services of one home.
type Services struct {
	Store     *memory.Store
	Settings  *settings.Service
	Events    *api.Hub
	Organizer *organizer.Service
	Recall    *recall.Service
	// Graph is the one knowledge-graph cache every api of this process shares.
	Graph *graph.Service
	// Embeddings hold the embedder, vector backend and background indexer the settings (or
	// Options.Embed) name, replaced when Settings → Embeddings change.
	Embeddings *vector.Runtime
	// Hook runs agent hooks (Claude Code's Stop hook) on this home.
	Hook *hook.Service
	// SessionSummariser folds long sessions into their summary (an LLM); nil keeps the
	// extractive summary. OnSessionDeleted hears sessions.delete, so per-session state (the
	// extraction controller's) is disposed of. Both are handed to every api built here.
	SessionSummariser memory.Summariser
	OnSessionDeleted  func(agent, id string)
	// Extraction turns conversation turns into unreviewed memories.
	Extraction *extraction.Service
	// LLM holds the current model client (Source() for services that call a model); Keys is
	// the home's API key file.
	LLM  *llm.Holder
	Keys *keyring.Ring
	// Backups writes scheduled backups once Background started it (desktop, serve).
	Backups *backup.Scheduler
	// History is the memory folder's git history, attached to Store in every process so each
	// one's writes are committed under the store's lock; Background syncs it on a schedule.
	History *history.Repo

	// catchUp makes a one-shot process's vector catch-up (catchUpVectors) once.
	catchUp sync.Once
	opts    Options
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	// compactor folds long sessions in the background once Background started it.
	compactor *compactor
}

// Open opens the store of o.Home and builds every service over it. ctx bounds their lifetime;
// Close releases them.
func Open(ctx context.Context, o Options) (*Services, error) {
	if err := os.MkdirAll(o.Home, 0o700); err != nil {
		return nil, &HomeError{Path: o.Home, Err: err}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	s := &Services{opts: o}
	s.ctx, s.cancel = context.WithCancel(ctx)
	st, err := memory.Open(s.ctx, o.Home, memory.Options{Logger: o.Logger})
	if err != nil {
		s.cancel()
		return nil, err
	}
	s.Store = st
	s.History = history.New(st.Root(), o.Logger)
	s.History.SetAuth(history.DefaultAuth(st.Home()))
	history.Attach(st, s.History)
	s.Settings = settings.New(st, o.Lang)
	s.Events = api.NewHub(st, s.Settings)
	s.openLLM()
	orgOpts := organizer.Options{
		Store:    st,
		Logger:   o.Logger,
		Passive:  o.Passive && !o.RunsOrganizer,
		Progress: func(p organizer.Progress) { s.Events.Publish(api.EventOrganizerProgress, p) },
		// Asked at the start of every run: a model set up later is used by the next run.
		LLM: organizer.LLMProvider(s.LLM.Source()),
	}
	if o.RunsOrganizer {
		// No timer; look often for the queued run a passive holder of the lock (a review
		// applied from another CLI) leaves behind when it lets go.
		orgOpts.DisableScheduler, orgOpts.PollInterval = true, organizerWaitPoll
	}
	org, err := organizer.New(orgOpts)
	if err == nil {
		err = org.Start(s.ctx)
	}
	if err != nil {
		s.cancel()
		st.Close()
		return nil, err
	}
	s.Organizer = org
	s.Recall = recall.New(st, recall.Options{Logger: o.Logger})
	s.Graph = graph.New(st)
	// Vectors are computed in the background by long-running processes (Background); a
	// one-shot CLI computes the local embedder's missing ones before its first vector search
	// (catchUpVectors).
	if err := s.openEmbeddings(); err != nil {
		s.Close()
		return nil, err
	}
	if o.Passive {
		s.Recall.SetVectorCatchUp(s.catchUpVectors)
	}
	s.Backups = backup.NewScheduler(st, o.Version, o.Logger)
	s.Hook = hook.New(hook.Options{Store: st, Home: o.Home, Logger: o.Logger})
	planner := o.Planner
	if planner == nil {
		planner = extraction.ModelOrOffline{Model: s.LLM.Source(), Offline: extraction.NewOffline()}
	}
	s.Extraction = extraction.New(s.ctx, extraction.Options{Store: st, Planner: planner,
		Logger: o.Logger, Passive: o.Passive, Catalog: o.Catalog, Settings: s.Settings,
		Publish: func(e extraction.StatusEvent) { s.Events.Publish(api.EventExtractionStatus, e) }})
	// Deleting (or evicting) a session forgets the controller's state for it: a new turn of a
	// session id that comes back starts fresh instead of matching the old run's gates.
	s.OnSessionDeleted = func(agent, id string) { s.Extraction.Dispose(agent, id) }
	// Long sessions are summarised by the configured model when there is one (extractively
	// otherwise): in place by one-shot processes, in the background by long-running ones.
	s.SessionSummariser = extraction.SessionSummariser(s.LLM.Source())
	s.compactor = newCompactor(st, s.SessionSummariser, o.Logger)
	if err := s.Extraction.Recover(s.ctx); err != nil {
		o.Logger.Warn("engram: unable to close interrupted extraction runs", "err", err)
	}
	return s, nil
}

// API is the method table over these services, acting as actor; ctx bounds every call.
func (s *Services) API(ctx context.Context, actor string) *api.API {
	return api.New(ctx, s.Deps(), actor)
}

// Deps are these services as an api sees them: for API, and for an api built before the
// store was open (api.NewPending, the desktop window) to Open with.
func (s *Services) Deps() api.Deps {
	return api.Deps{Store: s.Store, Catalog: s.opts.Catalog, Settings: s.Settings, Events: s.Events,
		Remote: s.opts.Remote, Recall: s.Recall, Embeddings: s.Embeddings, Version: s.opts.Version, Organizer: s.Organizer,
		Hook: s.Hook, SessionSummariser: s.SessionSummariser, OnSessionDeleted: s.OnSessionDeleted, Compactor: s.compactor,
		Extraction: s.Extraction, LLM: s.LLM, Keys: s.Keys, Graph: s.Graph, Backups: s.Backups, History: s.History}
}

// Background starts what long-running processes (desktop, serve) keep running: the file
// watcher, the vector indexer and the backup schedule. Close stops them.
func (s *Services) Background() {
	// While this process's watcher owns the home's socket, one-shot CLI calls hand it their
	// read-only calls: it holds the warm index and the vectors (memory.ForwardCall).
	fwd := s.API(s.ctx, api.ActorUser)
	s.Store.SetCallHandler(func(_ context.Context, method string, params json.RawMessage) (json.RawMessage, json.RawMessage) {
		return fwd.CallJSON(method, params)
	}, api.ForwardedMethods)
	s.wg.Add(4)
	go func() {
		defer s.wg.Done()
		s.Backups.Run(s.ctx)
	}()
	go func() {
		defer s.wg.Done()
		s.History.Schedule(s.ctx, s.Store, s.syncEvery, s.syncWake(), nil)
	}()
	s.compactor.start()
	go func() {
		defer s.wg.Done()
		s.compactor.run(s.ctx)
	}()
	go func() {
		defer s.wg.Done()
		if err := s.Store.Watch(s.ctx, nil); err != nil {
			s.opts.Logger.Warn("engram: file watcher stopped", "err", err)
		}
	}()
	if s.Embeddings != nil {
		stop := s.Embeddings.Start(s.ctx)
		s.wg.Add(2)
		go func() {
			defer s.wg.Done()
			<-s.ctx.Done()
			stop()
		}()
		go func() {
			defer s.wg.Done()
			s.watchEmbeddings()
		}()
	}
}

// Close ends background work and closes the store. Queued organizer runs wait for the next
// start; an active one is aborted.
func (s *Services) Close() error {
	if s.Organizer != nil {
		_ = s.Organizer.Stop()
	}
	if s.Extraction != nil {
		s.Extraction.Close() // a run in flight ends as failed (canceled), recorded
	}
	s.cancel()
	s.wg.Wait()
	if s.Recall != nil {
		s.Recall.SaveVectors(context.Background())
	}
	return s.Store.Close()
}

// syncEvery is the git sync schedule from Settings → Data (history.Schedule asks each round).
func (s *Services) syncEvery() time.Duration {
	st, err := s.Settings.Get(s.ctx)
	if err != nil {
		st.SyncMinutes = settings.DefaultSyncMinutes
	}
	return time.Duration(st.SyncMinutes) * time.Minute
}

// syncWake receives when the person changes the sync schedule, so the new one starts now.
func (s *Services) syncWake() <-chan struct{} {
	wake := make(chan struct{}, 1)
	last := int(s.syncEvery() / time.Minute)
	var mu sync.Mutex
	s.Settings.OnChange(func(st settings.Settings) {
		mu.Lock()
		defer mu.Unlock()
		if st.SyncMinutes == last {
			return
		}
		last = st.SyncMinutes
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	return wake
}
