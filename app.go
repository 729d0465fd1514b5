package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"syscall"
	"time"

	"engram/backend/api"
	"engram/backend/bridge"
	"engram/backend/i18n"
	"engram/backend/mcp"
	"engram/backend/settings"
	"engram/backend/wire"
)

type apiHandle = api.API

// App owns the services of one home (built by wire.Open) and the bridge. The desktop window,
// `engram serve` and the CLI all run the same App.
type App struct {
	home    string
	catalog *i18n.Catalog
	// quietLog keeps the store's warnings off a one-shot CLI verb's stderr (set by main).
	quietLog bool
	// runsOrganizer is set by main for `engram organize`: a one-shot process whose organizer
	// executes the run it waits for (wire.Options.RunsOrganizer).
	runsOrganizer bool
	lang          string
	version       string
	ui            fs.FS // the built web UI (frontend/dist), for the bridge

	ctx      context.Context
	cancel   context.CancelFunc
	services *wire.Services
	Settings *settings.Service
	Events   *api.Hub
	API      *api.API // acting as the user (window, CLI)

	remoteMu   sync.Mutex // serialises Remote access toggles
	bridgeMu   sync.Mutex
	bridge     *bridge.Server
	mcp        *mcp.Server // /mcp on the bridge
	bridgeAddr string
	bridgeErr  error
	serveMode  bool
	// serveTokenNotice, set by `engram serve`, prints the new URL after a regenerate.
	serveTokenNotice func(url string)
	// agentServer is set for `engram mcp`: a long-running process that watches the home but
	// leaves organizer runs to the app or serve (one stdio server runs per agent).
	agentServer bool
	allowRemote bool
	// opened is closed once StartPending's store opened or failed to (openErr); nil when
	// Start opened it in line.
	opened         chan struct{}
	openErr        error
	backgroundOnce sync.Once
	// lifeMu guards stopping, set when Stop begins; starts counts the start-up work under
	// way (Background, the bridge following Remote access), which Stop waits for. Nothing
	// starts once stopping is set: the services may be closing.
	lifeMu   sync.Mutex
	stopping bool
	starts   sync.WaitGroup
}

// NewApp prepares an App for home; Start opens it.
func NewApp(home string, catalog *i18n.Catalog, lang, version string, ui fs.FS) *App {
	return &App{home: home, catalog: catalog, lang: lang, version: version, ui: ui}
}

// Start opens the store and builds the services. watch starts the file watcher and the
// vector indexer, for long-running processes (serve, `engram mcp`); one-shot CLI commands skip
// them, and their organizer is passive: a Run Now there is queued for the long-running
// process to take.
func (a *App) Start(ctx context.Context, watch bool) error {
	a.ctx, a.cancel = context.WithCancel(ctx)
	svc, err := a.open(!watch || a.agentServer)
	if err != nil {
		return err
	}
	a.API = svc.API(a.ctx, api.ActorUser)
	if watch {
		a.Background()
	}
	return nil
}

// StartPending is Start for the desktop window: a.API exists when it returns, for Wails to
// bind as it starts, while the store opens concurrently with the web view's own start-up
// (36–45 ms on a fresh home). Calls the page makes before then wait for it; Opened reports
// how it went. The file watcher and the vector indexer are left to Background, which the
// window runs after its first paint.
func (a *App) StartPending(ctx context.Context) {
	a.ctx, a.cancel = context.WithCancel(ctx)
	a.API = api.NewPending(a.ctx, a.catalog, a.lang, api.ActorUser)
	a.opened = make(chan struct{})
	go func() {
		defer close(a.opened)
		svc, err := a.open(false)
		if err != nil {
			a.openErr = err
			a.API.Fail(err)
			return
		}
		a.API.Open(svc.Deps())
	}()
}

// Opened waits until StartPending's store is open and answers the open error, if any.
func (a *App) Opened() error {
	if a.opened == nil {
		return nil
	}
	<-a.opened
	return a.openErr
}

// open opens the store of a.home and builds its services.
func (a *App) open(passive bool) (*wire.Services, error) {
	opts := wire.Options{Home: a.home, Lang: a.lang, Catalog: a.catalog, Version: a.version, Passive: passive, Remote: a,
		RunsOrganizer: a.runsOrganizer}
	if a.quietLog {
		// A one-shot CLI verb reports what it found in the person's language (doctor's and
		// reindex's problems); the store's English warnings about the same files were noise.
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	}
	svc, err := wire.Open(a.ctx, opts)
	if err != nil {
		return nil, err
	}
	a.services, a.Settings, a.Events = svc, svc.Settings, svc.Events
	return svc, nil
}

// Background starts the file watcher and the vector indexer (once): from Start, or for the
// desktop window after its first paint, which needs only the store.
func (a *App) Background() {
	if !a.begin() {
		return
	}
	defer a.starts.Done()
	a.backgroundOnce.Do(a.services.Background)
}

// begin is called by start-up work that can run beside Stop (the window's AfterShow, a
// Remote access change): false once Stop began, else Stop waits until a.starts.Done.
func (a *App) begin() bool {
	a.lifeMu.Lock()
	defer a.lifeMu.Unlock()
	if a.stopping {
		return false
	}
	a.starts.Add(1)
	return true
}

// AfterShow starts what the desktop window leaves until its first paint: the file watcher,
// the vector indexer, and the bridge when Settings → Remote access is on. Nothing when the
// store did not open, or once Stop began (the window closed while the store was opening: the
// same open lets both go).
func (a *App) AfterShow() {
	if a.Opened() != nil {
		return
	}
	a.Background()
	a.FollowRemoteSetting()
}

// CloseWindow ends the desktop app once its window closed. The window's hold on the home
// (inst) goes first: the store may still be opening (a long migration, another process
// holding it), and Stop waits for that; a launch meanwhile opens its own window, whose store
// waits for this process's, instead of being told a window is open when none is. The open is
// not cancelled: a migration under way finishes, so the next start does not redo it.
func (a *App) CloseWindow(inst io.Closer) error {
	_ = inst.Close()
	return a.Stop()
}

// Stop ends background work, the bridge, and closes the store (once StartPending's store
// finished opening).
func (a *App) Stop() error {
	a.lifeMu.Lock()
	a.stopping = true
	a.lifeMu.Unlock()
	a.starts.Wait()
	_ = a.Opened()
	a.stopBridge()
	var err error
	if a.services != nil {
		err = a.services.Close() // aborts an active run; queued runs wait for the next start
	}
	if a.cancel != nil {
		a.cancel()
	}
	return err
}

// FollowRemoteSetting starts or stops the desktop app's bridge as Settings → Remote access
// says; not once Stop began (no bridge starts after Stop stopped it).
func (a *App) FollowRemoteSetting() {
	if !a.begin() {
		return
	}
	defer a.starts.Done()
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
		if !a.begin() {
			return
		}
		defer a.starts.Done()
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
	mcpSrv, err := mcp.New(a.services.API(a.ctx, api.ActorTool), a.Events, mcp.Config{Transport: api.TransportHTTP, Version: a.version, Home: a.home})
	if err != nil {
		return err
	}
	srv, err := bridge.New(bridge.Config{Addr: addr, AllowRemote: allowRemote, Home: a.home, MCP: mcpSrv.Handler(),
		OnTokenChange: a.tokenReplaced},
		a.services.API(a.ctx, api.ActorBridge), a.Events, a.ui)
	if err == nil {
		err = srv.Start()
	}
	a.bridgeErr = err
	if err != nil {
		mcpSrv.Close()
		return err
	}
	a.bridge, a.mcp = srv, mcpSrv
	return nil
}

func (a *App) stopBridge() {
	a.bridgeMu.Lock()
	srv, mcpSrv := a.bridge, a.mcp
	a.bridge, a.mcp = nil, nil
	a.bridgeMu.Unlock()
	if srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = srv.Stop(ctx)
	}
	// After the bridge: the MCP sessions' last calls are written once no request is left.
	if mcpSrv != nil {
		mcpSrv.Close()
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
	case errors.Is(err, bridge.ErrInvalidAddr):
		return a.API.Error("bridge_invalid_addr", map[string]any{"Addr": a.bridgeAddr})
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
// tokenReplaced hears the bridge take up a token the CLI wrote: the window's Remote access shows
// the new URL, and `engram serve` prints it (serveTokenNotice).
func (a *App) tokenReplaced() {
	a.remoteChanged()
	if a.serveTokenNotice != nil {
		a.serveTokenNotice(a.RemoteStatus().URL)
	}
}

func (a *App) remoteChanged() {
	if a.Events != nil {
		st := a.RemoteStatus()
		a.Events.Publish(api.EventRemoteChanged, map[string]any{"running": st.Running, "clients": len(st.Clients)})
	}
}
