//go:build desktop

// Command hello is the smallest Wails v2 window: the baseline the desktop start-up bench
// (build/scripts/bench-desktop.sh) measures Engram beside, built with the same tags in the
// same run. It shows one line of text and, like Engram, writes the time of its first paint
// to $ENGRAM_PAINT_MARK.
package main

import (
	"context"
	"embed"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

//go:embed dist
var assets embed.FS

func main() {
	dist, _ := fs.Sub(assets, "dist")
	mark := os.Getenv("ENGRAM_PAINT_MARK")
	err := wails.Run(&options.App{
		Title:            "Hello",
		Width:            1280,
		Height:           800,
		AssetServer:      &assetserver.Options{Assets: dist},
		BackgroundColour: &options.RGBA{R: 248, G: 249, B: 251, A: 1},
		OnStartup: func(ctx context.Context) {
			if mark == "" {
				return
			}
			runtime.EventsOn(ctx, "engram:painted", func(...any) {
				_ = os.WriteFile(mark, []byte(strconv.FormatInt(time.Now().UnixNano(), 10)+"\n"), 0o600)
			})
		},
	})
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
}
