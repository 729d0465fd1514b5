package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"syscall"
	"time"

	"engram/backend/api"
	"engram/backend/bridge"
	"engram/backend/embed"
	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/organizer"
	"engram/backend/recall"
	"engram/backend/settings"
	"engram/backend/vector"
)

type apiHandle = api.API

// App builds every service by constructor injection and owns their lifetimes. The desktop
// window, `engram serve` and the CLI all run the same App.
type App struct {
	home    string
	catalog *i18n.Catalog
	lang    string
	version string
	ui      fs.FS // the built web UI (frontend/dist), for the bridge

	ctx       context.Context
	cancel    context.CancelFunc
	Store     *memory.Store
	Settings  *settings.Service
	Events    *api.Hub
	Organizer *organizer.Service
	Recall    *recall.Service
	Indexer   *vector.Indexer
	API       *api.API // acting as the user (window, CLI)

	wg sync.WaitGroup

	remoteMu    sync.Mutex // serialises Remote access toggles
	bridgeMu    sync.Mutex
	bridge      *bridge.Server
	bridgeAddr  string
	bridgeErr   error
	serveMode   bool
	allowRemote bool
}

// NewApp prepares an App for home; Start opens it.
func NewApp(home string, catalog *i18n.Catalog, lang, version string, ui fs.FS) *App {
	return &App{home: home, catalog: catalog, lang: lang, version: version, ui: ui}
}

// Start opens the store and builds the services. watch starts the file watcher, for
// long-running processes (desktop, serve); one-shot CLI commands skip it.
func (a *App) Start(ctx context.Context, watch bool) error {
	a.ctx, a.cancel = context.WithCancel(ctx)
	if err := os.MkdirAll(a.home, 0o700); err != nil {
		return fmt.Errorf("engram: unable to create home %s: %w", a.home, err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	st, err := memory.Open(a.ctx, a.home, memory.Options{Logger: logger})
	if err != nil {
		return err
	}
	a.Store = st
	a.Settings = settings.New(st, a.lang)
	a.Events = api.NewHub(st, a.Settings)
	// Long-running processes (desktop, serve) schedule and execute runs; one-shot CLI
	// processes are passive: a Run Now there is queued for the long-running process to take.
	org, err := organizer.New(organizer.Options{
		Store:    st,
		Logger:   logger,
		Passive:  !watch,
		Progress: func(p organizer.Progress) { a.Events.Publish(api.EventOrganizerProgress, p) },
	})
	if err != nil {
		st.Close()
		return err
	}
	if err := org.Start(a.ctx); err != nil {
		st.Close()
		return err
	}
	a.Organizer = org
	// Recall with the local embedder: no download, no network. Vectors are computed in the
	// background by long-running processes; a one-shot CLI searches with the vectors there are.
	emb, err := vector.Build(embed.Config{}, st, logger)
	if err != nil {
		a.Organizer.Stop()
		st.Close()
		return err
	}
	ropts := recall.Options{Logger: logger}
	if emb.Embedder != nil {
		ropts.Embedder, ropts.Vectors = emb.Embedder, emb.Searcher
		a.Indexer = vector.NewIndexer(st, emb.Embedder, vector.IndexerOptions{Sink: emb.Sink, Logger: logger,
			OnProgress: func(p vector.Progress) { a.Events.Publish(api.EventEmbeddingProgress, p) }})
	}
	a.Recall = recall.New(st, ropts)
	a.API = api.New(a.ctx, a.deps(), memory.ActorUser)
	if watch {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			if err := st.Watch(a.ctx, nil); err != nil {
				slog.Warn("engram: file watcher stopped", "err", err)
			}
		}()
		if a.Indexer != nil {
			stop := a.Indexer.Start(a.ctx)
			a.wg.Add(1)
			go func() {
				defer a.wg.Done()
				<-a.ctx.Done()
				stop()
			}()
		}
	}
	return nil
}

func (a *App) deps() api.Deps {
	return api.Deps{Recall: a.Recall, Indexer: a.Indexer, Store: a.Store, Catalog: a.catalog, Settings: a.Settings, Events: a.Events, Remote: a, Version: a.version,
		Organizer: a.Organizer}
}

// Stop ends background work, the bridge, and closes the store.
func (a *App) Stop() error {
	a.stopBridge()
	if a.Organizer != nil {
		_ = a.Organizer.Stop() // aborts an active run; queued runs wait for the next start
	}
	if a.cancel != nil {
		a.cancel()
	}
	a.wg.Wait()
	if a.Store != nil {
		return a.Store.Close()
	}
	return nil
}

// FollowRemoteSetting starts or stops the desktop app's bridge as Settings → Remote access says.
func (a *App) FollowRemoteSetting() {
	apply := func(s settings.Settings) {
		a.bridgeMu.Lock()
		running, addr := a.bridge != nil, a.bridgeAddr
		a.bridgeMu.Unlock()
		switch {
		case s.RemoteEnabled && (!running || addr != s.RemoteAddr):
			a.stopBridge()
			if err := a.StartBridge(s.RemoteAddr, false); err != nil {
				slog.Warn("engram: remote access could not start", "err", err)
			}
		case !s.RemoteEnabled && running:
			a.stopBridge()
		}
		a.remoteChanged()
	}
	a.Settings.OnChange(func(s settings.Settings) {
		// Updates apply one at a time and from the newest settings, so enable-then-disable
		// cannot finish with the bridge running while the setting says off.
		a.remoteMu.Lock()
		defer a.remoteMu.Unlock()
		if cur, err := a.Settings.Get(a.ctx); err == nil {
			s = cur
		}
		apply(s)
	})
	if s, err := a.Settings.Get(a.ctx); err == nil && s.RemoteEnabled {
		apply(s)
	}
}

// StartBridge runs the localhost bridge over an api acting as "bridge".
func (a *App) StartBridge(addr string, allowRemote bool) error {
	a.stopBridge() // never two bridges: a second start replaces the first
	a.bridgeMu.Lock()
	defer a.bridgeMu.Unlock()
	a.bridgeAddr, a.allowRemote = addr, allowRemote
	srv, err := bridge.New(bridge.Config{Addr: addr, AllowRemote: allowRemote, Home: a.home},
		api.New(a.ctx, a.deps(), memory.ActorBridge), a.Events, a.ui)
	if err == nil {
		err = srv.Start()
	}
	a.bridgeErr = err
	if err != nil {
		return err
	}
	a.bridge = srv
	return nil
}

func (a *App) stopBridge() {
	a.bridgeMu.Lock()
	srv := a.bridge
	a.bridge = nil
	a.bridgeMu.Unlock()
	if srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = srv.Stop(ctx)
	}
}

// RemoteStatus reports the bridge for Settings → Remote access (api.Remote).
func (a *App) RemoteStatus() api.RemoteStatus {
	a.bridgeMu.Lock()
	defer a.bridgeMu.Unlock()
	st := api.RemoteStatus{Addr: a.bridgeAddr, Clients: []api.RemoteClient{}}
	if s, err := a.Settings.Get(a.ctx); err == nil {
		st.Enabled = s.RemoteEnabled || a.serveMode
		if st.Addr == "" {
			st.Addr = s.RemoteAddr
		}
	}
	st.ServeMode = a.serveMode
	if a.bridge != nil {
		st.Running, st.URL, st.Token, st.Addr = true, a.bridge.URL(), a.bridge.Token(), a.bridge.Addr()
		for _, c := range a.bridge.Clients() {
			st.Clients = append(st.Clients, api.RemoteClient(c))
		}
	} else if tok, err := bridge.LoadOrCreateToken(a.home); err == nil {
		st.Token = tok
	}
	if a.bridgeErr != nil && a.bridge == nil {
		st.Error = a.bridgeError(a.bridgeErr)
	}
	return st
}

// bridgeError turns a start failure into a translated error a person can act on.
func (a *App) bridgeError(err error) *api.Error {
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return a.API.Error("bridge_address_in_use", map[string]any{"Addr": a.bridgeAddr})
	case errors.Is(err, bridge.ErrRemoteNotAllowed):
		return a.API.Error("bridge_remote_refused", map[string]any{"Addr": a.bridgeAddr})
	}
	return a.API.Error("internal", map[string]any{"Detail": err.Error()})
}

// RegenerateToken replaces the bridge token (api.Remote).
func (a *App) RegenerateToken() error {
	a.bridgeMu.Lock()
	srv := a.bridge
	a.bridgeMu.Unlock()
	var err error
	if srv != nil {
		_, err = srv.RegenerateToken()
	} else {
		_, err = bridge.RegenerateToken(a.home)
	}
	if err == nil {
		a.remoteChanged()
	}
	return err
}

// remoteChanged tells windows to refresh Settings → Remote access. The event carries no
// token or URL: every bridge client hears it, including ones a regenerate is meant to cut off.
func (a *App) remoteChanged() {
	if a.Events != nil {
		st := a.RemoteStatus()
		a.Events.Publish(api.EventRemoteChanged, map[string]any{"running": st.Running, "clients": len(st.Clients)})
	}
}
