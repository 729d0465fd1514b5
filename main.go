// Command engram is the Engram desktop app and its command line. With no arguments it opens
// the desktop window; subcommands share the same services through api/.
package main

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"engram/backend/api"
	"engram/backend/bridge"
	"engram/backend/cli"
	"engram/backend/desktop"
	"engram/backend/i18n"
	"engram/backend/memory"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

//go:embed all:frontend/dist
var assets embed.FS

//go:embed locales/*.toml
var localeFiles embed.FS

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	locales, _ := fs.Sub(localeFiles, "locales")
	catalog, err := i18n.Load(locales)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	home, err := homeDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	lang := envLanguage()
	ui, _ := fs.Sub(assets, "frontend/dist")
	newApp := func() *App { return NewApp(home, catalog, lang, version, ui) }
	if len(args) == 0 {
		return runDesktop(newApp(), catalog, lang)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cli.Run(ctx, args, cli.Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Version: version, Catalog: catalog, Lang: lang,
		Open: func(ctx context.Context) (*apiHandle, func() error, error) {
			app := newApp()
			app.quietLog = true
			if err := app.Start(ctx, false); err != nil {
				return nil, nil, err
			}
			return app.API, app.Stop, nil
		},
		OpenRunner: func(ctx context.Context) (*apiHandle, func() error, error) {
			app := newApp()
			app.quietLog, app.runsOrganizer = true, true
			if err := app.Start(ctx, false); err != nil {
				return nil, nil, err
			}
			return app.API, app.Stop, nil
		},
		// serve's and mcp's flags (-h, a mistake) are said before the home opens: in its
		// language, read from its settings alone, as the CLI's help is.
		Serve: func(ctx context.Context, args []string) int {
			return serve(ctx, newApp(), catalog, api.HomeLanguage(ctx, home, lang), args)
		},
		MCP: func(ctx context.Context, args []string) int {
			return runMCP(ctx, newApp(), catalog, api.HomeLanguage(ctx, home, lang), args)
		},
		Bench: benchVerb,
		Home:  home,
		Brief: deferCollector,
		Forward: func(ctx context.Context, method string, params, result any) (bool, error) {
			return forward(ctx, home, method, params, result)
		},
		ReadFile: func(path string) ([]byte, error) {
			if path == "-" {
				return io.ReadAll(os.Stdin)
			}
			return os.ReadFile(path)
		},
	})
}

// runDesktop opens the window over the same App the CLI and serve use. One window per home:
// a second launch on the same home brings the first window forward and exits 0.
func runDesktop(app *App, catalog *i18n.Catalog, lang string) int {
	if !desktop.Available {
		fmt.Fprintln(os.Stderr, catalog.T(lang, "cli.desktop_unavailable", nil))
		return 2
	}
	inst, err := desktop.Claim(app.home, 5*time.Second)
	switch {
	case errors.Is(err, desktop.ErrRunning):
		fmt.Println(catalog.T(lang, "desktop.already_open", map[string]any{"Home": app.home}))
		return 0
	case errors.Is(err, desktop.ErrNoAnswer):
		fmt.Fprintln(os.Stderr, catalog.T(lang, "desktop.no_answer", map[string]any{"Home": app.home, "Detail": err.Error()}))
		return 1
	case err != nil:
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// The store opens while WebKit starts (the bound services wait for it): the window's
	// first paint no longer waits for the migrations of a fresh home.
	app.StartPending(context.Background())
	err = desktop.Run(desktop.Options{Title: "Engram", Assets: assets, Bind: app.API.Bindings(),
		Opened: func() (*api.Hub, error) {
			if err := app.Opened(); err != nil {
				return nil, err
			}
			return app.Events, nil
		},
		Home: app.home, Instance: inst, PaintMark: os.Getenv("ENGRAM_PAINT_MARK"),
		ProbeDir: os.Getenv("ENGRAM_SMOKE_PROBE"),
		// The file watcher, the vector indexer and the bridge wait until the page is up:
		// the first paint needs only the store.
		AfterShow: app.AfterShow,
		Log:       func(msg string) { fmt.Fprintln(os.Stderr, msg) }})
	_ = app.CloseWindow(inst) // as before: a failed close of the store is not the exit status
	// A store that could not open closed the window: its error is what the person is told,
	// as when it opened before the window.
	if oerr := app.Opened(); oerr != nil {
		fmt.Fprintln(os.Stderr, oerr)
		return 1
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// serve runs the services headless: the web UI and the bridge until interrupted.
func serve(ctx context.Context, app *App, catalog *i18n.Catalog, lang string, args []string) int {
	fset := flag.NewFlagSet("engram serve", flag.ContinueOnError)
	addr := fset.String("addr", bridge.DefaultAddr, "address to listen on (host:port)")
	allowRemote := fset.Bool("allow-remote", false, "allow a non-loopback address (reachable from other machines)")
	if err := (cli.FlagText{Catalog: catalog, Lang: lang, Verb: "serve", Name: "serve"}).Parse(fset, args, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, err)
		}
		return 2
	}
	if err := app.Start(ctx, true); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer app.Stop()
	if s, err := app.Settings.Get(ctx); err == nil {
		lang = s.Language
	}
	app.serveMode = true
	app.serveTokenNotice = func(url string) {
		fmt.Println(catalog.T(lang, "cli.serve_token_replaced", map[string]any{"URL": url}))
	}
	if err := app.StartBridge(*addr, *allowRemote); err != nil {
		fmt.Fprintln(os.Stderr, catalog.T(lang, "cli.error", map[string]any{"Message": app.bridgeError(err).Message}))
		return 1
	}
	st := app.RemoteStatus()
	if *allowRemote {
		fmt.Fprintln(os.Stderr, catalog.T(lang, "cli.serve_remote_warning", map[string]any{"Addr": *addr}))
	}
	fmt.Println(catalog.T(lang, "cli.serve_listening", map[string]any{"URL": st.URL}))
	<-ctx.Done()
	fmt.Fprintln(os.Stderr, catalog.T(lang, "cli.serve_stopping", nil))
	return 0
}

// homeDir is $ENGRAM_HOME, else ~/.engram.
func homeDir() (string, error) {
	if h := os.Getenv("ENGRAM_HOME"); h != "" {
		return h, nil
	}
	u, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("engram: unable to find the home folder (set ENGRAM_HOME): " + err.Error())
	}
	return u + "/.engram", nil
}

// envLanguage is the language of a fresh home, from the usual locale variables.
func envLanguage() string {
	for _, k := range []string{"ENGRAM_LANG", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(k); v != "" && v != "C" && v != "POSIX" {
			return i18n.Normalize(v)
		}
	}
	return i18n.DefaultLanguage
}

// forward runs one read-only api call in the process that watches home (cli.Env.Forward);
// false when none took it.
func forward(ctx context.Context, home, method string, params, result any) (bool, error) {
	res, errJSON, err := memory.ForwardCall(ctx, home, method, params)
	if err != nil {
		return false, nil // not run there: the CLI opens the home itself
	}
	if errJSON != nil {
		ae := &api.Error{}
		if err := json.Unmarshal(errJSON, ae); err != nil {
			return true, fmt.Errorf("engram: unreadable answer from the running process: %w", err)
		}
		return true, ae
	}
	if err := json.Unmarshal(res, result); err != nil {
		return true, fmt.Errorf("engram: unreadable answer from the running process: %w", err)
	}
	return true, nil
}

// briefHeapLimit is the heap a brief CLI call may reach before the collector runs after all:
// a cold search of 100k memories peaks near 190 MB.
const briefHeapLimit = 512 << 20

// deferCollector turns the garbage collector off up to briefHeapLimit for a CLI call that
// exits right after its answer: a cold `engram search` spent a sixth of its CPU collecting
// what the exit frees anyway (paired runs, medians: at 10k memories 62 → 56 ms wall, at 100k
// 286 → 276 ms with a peak of 175 → 187 MB). A GOGC or GOMEMLIMIT the user set is kept.
func deferCollector() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(briefHeapLimit)
}
