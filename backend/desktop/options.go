// Package desktop opens the Wails window. Only files built with the "desktop" tag import
// Wails and GTK, so a plain `go build` gives a CLI that runs on machines without them.
package desktop

import (
	"io/fs"
	"time"

	"engram/backend/api"
)

// Options are what the window needs from the app.
type Options struct {
	Title string
	// Assets holds frontend/dist.
	Assets fs.FS
	// Bind are the api services exposed to the window.
	Bind []any
	// Opened blocks until the app's services are open (they open while the window starts up,
	// and the bound services hold calls back until then); their events are then forwarded
	// to the window as Wails events. An error closes the window: the caller reports it.
	Opened func() (*api.Hub, error)
	// Home keeps the window's size and position (window.json) between starts.
	Home string
	// Instance, when set, brings the window to the front each time a second launch asks.
	Instance *Instance
	// PaintMark, when set, is a file the start-up benchmark reads: one line for each first
	// paint the page reports, "<Unix ns> app" when the app's first view is on screen and
	// "<Unix ns> shell" when the copy of it that the page shows before the app runs is
	// (frontend/src/shell/loader.js), in the order they came.
	PaintMark string
	// ProbeDir, when set (ENGRAM_SMOKE_PROBE, tests only), runs scripts the smoke test
	// drops there in the page (see probe.go).
	ProbeDir string
	// AfterShow runs once the app's first view is on screen (PaintedEvent; at the latest 10 s
	// after the start): start-up work the first paint does not need.
	AfterShow  func()
	OnShutdown func()
	// Log receives one line per window event worth knowing (a focus request, a failed save).
	Log func(msg string)
}

// PaintedEvent is the event the UI emits once after its first paint (frontend util/painted.ts).
const PaintedEvent = "engram:painted"

// StoreWaitingEvent tells the page, once a second, that the store has not opened yet (the
// seconds waited); StoreOpenEvent that it has. The page says why it waits meanwhile.
const (
	StoreWaitingEvent = "store.waiting"
	StoreOpenEvent    = "store.open"
	storeWaitingEvery = time.Second
)

// ShellPaintedEvent is the event the page emits once the copy of the app's first frame it
// showed before the app's script ran is on screen (frontend src/shell/loader.js).
const ShellPaintedEvent = "engram:shell-painted"
