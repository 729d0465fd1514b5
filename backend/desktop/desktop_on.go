//go:build desktop || bindings

package desktop

import (
	"context"
	"io/fs"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Available reports whether this build can open a window.
const Available = true

// Run opens the window and blocks until it closes.
func Run(o Options) error {
	dist, err := fs.Sub(o.Assets, "frontend/dist")
	if err != nil {
		return err
	}
	return wails.Run(&options.App{
		Title:            o.Title,
		Width:            1280,
		Height:           800,
		MinWidth:         900,
		MinHeight:        560,
		AssetServer:      &assetserver.Options{Assets: dist},
		BackgroundColour: &options.RGBA{R: 248, G: 249, B: 251, A: 1},
		OnStartup: func(ctx context.Context) {
			// Forward service events to the window; EventsEmit does not block.
			if o.Events != nil {
				o.Events.Subscribe(func(name string, data any) { runtime.EventsEmit(ctx, name, data) })
			}
		},
		OnShutdown: func(context.Context) {
			if o.OnShutdown != nil {
				o.OnShutdown()
			}
		},
		Bind:  o.Bind,
		Linux: &linux.Options{ProgramName: "engram"},
	})
}
