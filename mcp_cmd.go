package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"engram/backend/api"
	"engram/backend/cli"
	"engram/backend/i18n"
	"engram/backend/mcp"
)

// runMCP serves one MCP client over stdin and stdout: `engram mcp [--agent NAME] [--workdir DIR]`.
// stdout carries the protocol only; everything else goes to stderr. The process watches the
// home like the desktop app, so writes from other processes reach its client as notifications.
func runMCP(ctx context.Context, app *App, catalog *i18n.Catalog, lang string, args []string) int {
	fset := flag.NewFlagSet("engram mcp", flag.ContinueOnError)
	fset.SetOutput(os.Stderr)
	agent := fset.String("agent", "", "the agent this server acts for (default: the client's name)")
	workdir := fset.String("workdir", "", "the project folder (default: the client's roots)")
	budget := fset.Int("max-tokens", mcp.DefaultBudgetTokens, "the most tokens one tool result may hold (longer results page)")
	if err := (cli.FlagText{Catalog: catalog, Lang: lang, Verb: "mcp", Name: "mcp"}).Parse(fset, args, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, err)
		}
		return 2
	}
	if *workdir != "" {
		abs, err := filepath.Abs(*workdir)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		*workdir = abs
		// A folder that is not there was taken without a word, and every project call then
		// failed (or a later folder of that name became the project): refused before serving.
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			fmt.Fprintln(os.Stderr, catalog.T(lang, "cli.mcp_bad_workdir", map[string]any{"Dir": abs}))
			return 2
		}
	}
	if *budget < mcp.MinBudgetTokens {
		// It was raised to the floor without a word (0 or -1, "no limit" to some, got 500).
		fmt.Fprintln(os.Stderr, catalog.T(lang, "cli.mcp_bad_max_tokens", map[string]any{"Value": *budget, "Min": mcp.MinBudgetTokens}))
		return 2
	}
	if *agent != "" && !api.ValidAgent(*agent) {
		fmt.Fprintln(os.Stderr, catalog.T(lang, "cli.mcp_bad_agent", map[string]any{"Agent": *agent}))
		return 2
	}
	app.agentServer = true
	if err := app.Start(ctx, true); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer app.Stop()
	srv, err := mcp.New(app.services.API(app.ctx, api.ActorTool), app.Events, mcp.Config{Agent: *agent, Workdir: *workdir,
		Transport: api.TransportStdio, BudgetTokens: *budget, Version: version,
		// stdout is the protocol's: the server's own warnings go to stderr, which clients log.
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer srv.Close()
	if err := srv.RunStdio(ctx, os.Stdin, nopCloser{os.Stdout}); err != nil {
		fmt.Fprintln(os.Stderr, catalog.T(lang, "cli.error", map[string]any{"Message": err.Error()}))
		return 1
	}
	return 0
}

// nopCloser keeps stdout open when the transport closes: the deferred shutdown may still log.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
