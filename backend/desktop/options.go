// Package desktop opens the Wails window. Only files built with the "desktop" tag import
// Wails and GTK, so a plain `go build` gives a CLI that runs on machines without them.
package desktop

import (
	"io/fs"

	"engram/backend/api"
)

// Options are what the window needs from the app.
type Options struct {
	Title string
	// Assets holds frontend/dist.
	Assets fs.FS
	// Bind are the api services exposed to the window.
	Bind []any
	// Events are forwarded to the window as Wails events.
	Events     *api.Hub
	OnShutdown func()
}
