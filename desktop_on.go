//go:build desktop

package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"engram/backend/i18n"
)

// runDesktop opens the window over the same App the CLI and serve use.
func runDesktop(home string, catalog *i18n.Catalog, lang string) int {
	dist, err := fs.Sub(assets, "frontend/dist")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	app := NewApp(home, catalog, lang, version)
	if err = app.Start(context.Background(), true); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer app.Stop()
	err = wails.Run(&options.App{
		Title:            "Engram",
		Width:            1280,
		Height:           800,
		MinWidth:         900,
		MinHeight:        560,
		AssetServer:      &assetserver.Options{Assets: dist},
		BackgroundColour: &options.RGBA{R: 248, G: 249, B: 251, A: 1},
		OnStartup: func(ctx context.Context) {
			// Forward service events to the window; EventsEmit does not block.
			app.Events.Subscribe(func(name string, data any) { runtime.EventsEmit(ctx, name, data) })
		},
		Bind:  app.API.Bindings(),
		Linux: &linux.Options{ProgramName: "engram"},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
