// Command engram is the Engram desktop app and its command line. With no arguments it opens
// the desktop window; subcommands share the same services through api/.
package main

import (
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"engram/backend/cli"
	"engram/backend/i18n"
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
	if len(args) == 0 {
		return runDesktop(home, catalog, lang)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cli.Run(ctx, args, cli.Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Version: version, Catalog: catalog, Lang: lang,
		Open: func(ctx context.Context) (*apiHandle, func() error, error) {
			app := NewApp(home, catalog, lang, version)
			if err := app.Start(ctx, false); err != nil {
				return nil, nil, err
			}
			return app.API, app.Stop, nil
		},
		ReadFile: func(path string) ([]byte, error) {
			if path == "-" {
				return io.ReadAll(os.Stdin)
			}
			return os.ReadFile(path)
		},
	})
}

// homeDir is $ENGRAM_HOME, else ~/.engram.
func homeDir() (string, error) {
	if h := os.Getenv("ENGRAM_HOME"); h != "" {
		return h, nil
	}
	u, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("engram: unable to find the home folder (set ENGRAM_HOME): %w", err)
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
