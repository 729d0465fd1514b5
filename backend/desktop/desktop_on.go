//go:build desktop || bindings

package desktop

import (
	"context"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Available reports whether this build can open a window.
const Available = true

// geometryPoll is how often the window's size and position are checked: Wails v2 has no
// move or resize event on Linux, so a change is noticed (and saved) within this time.
const geometryPoll = time.Second

// afterShowLatest is when Options.AfterShow runs at the latest, painted or not.
const afterShowLatest = 10 * time.Second

// Run opens the window and blocks until it closes.
func Run(o Options) error {
	dist, err := fs.Sub(o.Assets, "frontend/dist")
	if err != nil {
		return err
	}
	logf := o.Log
	if logf == nil {
		logf = func(string) {}
	}
	saved, restore := Geometry{}, false
	if o.Home != "" {
		saved, restore = LoadGeometry(o.Home)
	}
	width, height := DefaultWidth, DefaultHeight
	if restore {
		g := saved.Clamp(0, 0) // the screen is not known before the window exists
		width, height = g.Width, g.Height
	}
	var (
		mu   sync.Mutex
		last = saved
		stop = make(chan struct{})
		done sync.WaitGroup
		// afterShow runs o.AfterShow once, at the first DOM ready.
		afterShow   sync.Once
		restoreOnce sync.Once
		// domReady is closed at the first DOM ready: GTK's main loop runs by then, so the
		// window can be closed (gtk_main_quit before gtk_main would be lost).
		domReady     = make(chan struct{})
		domReadyOnce sync.Once
		// openOK is set once the services opened: until then the geometry is not saved, so a
		// start that fails (the window closes, it was never the person's window) leaves none,
		// however long its open took.
		openOK atomic.Bool
		// afterShowTimer runs AfterShow should the page never report ready; stopped at shutdown.
		afterShowTimer *time.Timer
		// closing is set when shutdown begins: the poller asks the window nothing after it.
		closing atomic.Bool
	)
	if o.Opened == nil {
		openOK.Store(true)
	}
	// save records the window's geometry when it changed. A maximised or minimised window
	// keeps the last normal size and position, with the maximised flag.
	// The window is asked without mu held: each question waits for GTK's main loop, and
	// OnShutdown (on that loop's thread, once it has quit) takes mu — held across a question,
	// the two waited on each other for good.
	save := func(ctx context.Context) {
		if o.Home == "" || !openOK.Load() || closing.Load() || runtime.WindowIsMinimised(ctx) {
			return
		}
		mu.Lock()
		g := last
		mu.Unlock()
		if runtime.WindowIsMaximised(ctx) {
			g.Maximised = true
		} else if !runtime.WindowIsFullscreen(ctx) {
			g.X, g.Y = runtime.WindowGetPosition(ctx)
			g.Width, g.Height = runtime.WindowGetSize(ctx)
			g.Maximised = false
		}
		mu.Lock()
		defer mu.Unlock()
		if g == last || g.Width <= 0 || g.Height <= 0 {
			return
		}
		if err := SaveGeometry(o.Home, g); err != nil {
			logf(err.Error())
			return
		}
		last = g
	}
	err = wails.Run(&options.App{
		Title:            o.Title,
		Width:            width,
		Height:           height,
		MinWidth:         MinWidth,
		MinHeight:        MinHeight,
		AssetServer:      &assetserver.Options{Assets: dist},
		BackgroundColour: &options.RGBA{R: 248, G: 249, B: 251, A: 1},
		OnStartup: func(ctx context.Context) {
			// Forward service events to the window once the services are open; EventsEmit
			// does not block. Services that failed to open close the window.
			if o.Opened != nil {
				opened := make(chan bool, 1)
				go tellWhileOpening(ctx, opened, storeWaitingEvery, func(name string, data ...any) { runtime.EventsEmit(ctx, name, data...) })
				go func() {
					hub, err := o.Opened()
					opened <- err == nil
					if err != nil {
						select {
						case <-domReady:
						case <-time.After(afterShowLatest):
						}
						runtime.Quit(ctx)
						return
					}
					openOK.Store(true)
					hub.Subscribe(func(name string, data any) { runtime.EventsEmit(ctx, name, data) })
				}()
			}
			if o.PaintMark != "" {
				pm := paintMark{path: o.PaintMark}
				for _, kind := range []string{PaintedEvent, ShellPaintedEvent} {
					runtime.EventsOn(ctx, kind, func(...any) {
						if err := pm.write(kind, time.Now()); err != nil {
							logf("desktop: unable to write the paint mark: " + err.Error())
						}
					})
				}
			}
			var probeTick <-chan time.Time
			pr := probe{dir: o.ProbeDir}
			if pr.dir != "" {
				runtime.EventsOn(ctx, ProbeEvent, func(data ...any) {
					if len(data) > 0 {
						if v, ok := data[0].(string); ok {
							pr.answer(v)
						}
					}
				})
				pt := time.NewTicker(100 * time.Millisecond)
				probeTick = pt.C
				go func() { <-stop; pt.Stop() }()
			}
			// Should the page never report ready (a load error), background work starts anyway.
			if o.AfterShow != nil {
				// The app's first view on screen starts what it left for later. Not the page's
				// DOM ready: the page's load no longer waits for the app's script (the copy of
				// its first frame shows first, frontend/src/shell/loader.js), so that work would
				// compete with the app's own start.
				start := func() { afterShow.Do(func() { go o.AfterShow() }) }
				runtime.EventsOn(ctx, PaintedEvent, func(...any) { start() })
				mu.Lock()
				afterShowTimer = time.AfterFunc(afterShowLatest, start)
				mu.Unlock()
			}
			done.Add(1)
			go func() {
				defer done.Done()
				t := time.NewTicker(geometryPoll)
				defer t.Stop()
				var focus <-chan struct{}
				if o.Instance != nil {
					focus = o.Instance.Focus()
				}
				for {
					select {
					case <-stop:
						return
					case <-t.C:
						save(ctx)
					case <-probeTick:
						if body, ok := pr.next(); ok {
							runtime.WindowExecJS(ctx, pr.wrap(body))
						}
					case <-focus:
						// A second launch on this home: bring this window forward instead.
						logf("desktop: a second launch asked this window to come forward")
						runtime.WindowUnminimise(ctx)
						runtime.WindowShow(ctx)
					}
				}
			}()
		},
		OnDomReady: func(ctx context.Context) {
			domReadyOnce.Do(func() { close(domReady) })
			// The window is realised by now (its screen is known): put it back where it was.
			// Also on a reload of the page: the restore runs once.
			if restore {
				restoreOnce.Do(func() { restoreGeometry(ctx, saved) })
			}
		},
		OnBeforeClose: func(ctx context.Context) bool {
			save(ctx)
			return false
		},
		OnShutdown: func(context.Context) {
			closing.Store(true)
			// A window that closes before its page was ready starts no background work now.
			afterShow.Do(func() {})
			mu.Lock()
			if afterShowTimer != nil {
				afterShowTimer.Stop()
			}
			mu.Unlock()
			close(stop)
			if !waitStopped(&done, pollerStopWait) {
				logf("desktop: the window's poller was waiting on the closed window; shutting down without it")
			}
			if o.OnShutdown != nil {
				o.OnShutdown()
			}
		},
		Bind:  o.Bind,
		Linux: &linux.Options{ProgramName: "engram", WebviewGpuPolicy: gpuPolicy()},
	})
	// The caller may still wait (for a store that is opening) and a launch may open a new
	// window meanwhile: the closed one leaves the screen now.
	flushClosedWindow()
	return err
}

// restoreGeometry puts the window where it was, fitted on the screen it opens on.
func restoreGeometry(ctx context.Context, g Geometry) {
	sw, sh := 0, 0
	if screens, err := runtime.ScreenGetAll(ctx); err == nil {
		for _, s := range screens {
			if s.IsCurrent || (sw == 0 && s.IsPrimary) {
				sw, sh = s.Size.Width, s.Size.Height
			}
		}
	}
	g = g.Clamp(sw, sh)
	runtime.WindowSetSize(ctx, g.Width, g.Height)
	runtime.WindowSetPosition(ctx, g.X, g.Y)
	if g.Maximised {
		runtime.WindowMaximise(ctx)
	}
}

// gpuPolicy is the web view's hardware acceleration. Off by default: composited layers cost
// the web process about 100 MB more at idle (measured under Xvfb with `make bench-desktop`)
// for an app of lists and text, and the Graph view's WebGL still draws without them.
// ENGRAM_WEBVIEW_GPU=always turns it back on (a GPU that the person wants used).
func gpuPolicy() linux.WebviewGpuPolicy {
	if os.Getenv("ENGRAM_WEBVIEW_GPU") == "always" {
		return linux.WebviewGpuPolicyAlways
	}
	return linux.WebviewGpuPolicyNever
}
