package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"

	"engram/backend/api"
	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/settings"
)

type apiHandle = api.API

// App builds every service by constructor injection and owns their lifetimes. The desktop
// window, `engram serve` and the CLI all run the same App.
type App struct {
	home    string
	catalog *i18n.Catalog
	lang    string
	version string

	ctx      context.Context
	cancel   context.CancelFunc
	Store    *memory.Store
	Settings *settings.Service
	Events   *api.Hub
	API      *api.API

	wg sync.WaitGroup
}

// NewApp prepares an App for home; Start opens it.
func NewApp(home string, catalog *i18n.Catalog, lang, version string) *App {
	return &App{home: home, catalog: catalog, lang: lang, version: version}
}

// Start opens the store and builds the services. watch starts the file watcher, for
// long-running processes (desktop, serve); one-shot CLI commands skip it.
func (a *App) Start(ctx context.Context, watch bool) error {
	a.ctx, a.cancel = context.WithCancel(ctx)
	if err := os.MkdirAll(a.home, 0o700); err != nil {
		return fmt.Errorf("engram: unable to create home %s: %w", a.home, err)
	}
	st, err := memory.Open(a.ctx, a.home, memory.Options{
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return err
	}
	a.Store = st
	a.Settings = settings.New(st.DB(), a.lang)
	a.Events = api.NewHub(st, a.Settings)
	a.API = api.New(a.ctx, api.Deps{Store: st, Catalog: a.catalog, Settings: a.Settings, Events: a.Events, Version: a.version}, memory.ActorUser)
	if watch {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			if err := st.Watch(a.ctx, nil); err != nil {
				slog.Warn("engram: file watcher stopped", "err", err)
			}
		}()
	}
	return nil
}

// Stop ends background work and closes the store.
func (a *App) Stop() error {
	if a.cancel != nil {
		a.cancel()
	}
	a.wg.Wait()
	if a.Store != nil {
		return a.Store.Close()
	}
	return nil
}
