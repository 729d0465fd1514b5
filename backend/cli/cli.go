// Package cli is the scripting transport over api/: each verb decodes flags into a method's
// params, calls the api, and prints a translated human line or, with --json, the result.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"engram/backend/api"
	"engram/backend/i18n"
)

// Env is what a CLI run needs from its process.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Version        string
	Catalog        *i18n.Catalog
	// Lang is the language for output before settings are readable.
	Lang string
	// Open builds the services on the home; close releases them.
	Open func(ctx context.Context) (a *api.API, close func() error, err error)
	// Serve runs the headless web UI and bridge; nil when this build has none.
	Serve func(ctx context.Context, args []string) int
	// ReadFile reads a file named on the command line ("-" is stdin).
	ReadFile func(path string) ([]byte, error)
}

type runner struct {
	env  Env
	api  *api.API
	json bool
	lang string
}

// verbs is the table of commands; each maps to api methods.
var verbs = map[string]func(r *runner, ctx context.Context, args []string) error{
	"write":   (*runner).write,
	"show":    (*runner).show,
	"list":    (*runner).list,
	"search":  (*runner).search,
	"accept":  refVerb("memory.accept", "cli.accepted"),
	"reject":  refVerb("memory.reject", "cli.rejected"),
	"delete":  refVerb("memory.delete", "cli.deleted"),
	"archive": refVerb("memory.archive", "cli.archived"),
	"restore": refVerb("memory.restore", "cli.restored"),
	"daily":   (*runner).daily,
	"quota":   (*runner).quota,
	"import":  (*runner).importFile,
	"export":  (*runner).export,
	"reindex": (*runner).reindex,
	"doctor":  (*runner).doctor,
	"history": (*runner).history,
	"bridge":  (*runner).bridgeCmd,
}

// Run executes one command line and returns the process exit code: 0 ok, 1 failed, 2 usage.
func Run(ctx context.Context, args []string, env Env) int {
	r := &runner{env: env, lang: i18n.Normalize(env.Lang)}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(env.Stdout, r.t("cli.usage", nil))
		return 0
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "version", "--version":
		fmt.Fprintln(env.Stdout, env.Version)
		return 0
	case "bench":
		if err := r.benchCmd(ctx, rest); err != nil {
			r.printErr(err)
			return 1
		}
		return 0
	case "serve":
		if env.Serve == nil {
			fmt.Fprintln(env.Stderr, r.t("cli.serve_unavailable", nil))
			return 1
		}
		return env.Serve(ctx, rest)
	}
	fn, ok := verbs[cmd]
	if !ok {
		fmt.Fprintln(env.Stderr, r.t("cli.unknown_command", map[string]any{"Command": cmd}))
		return 2
	}
	a, closeFn, err := env.Open(ctx)
	if err != nil {
		r.printErr(err)
		return 1
	}
	defer closeFn()
	r.api = a
	if info, err := a.App.Info(api.Empty{}); err == nil {
		r.lang = info.Language
		if rep := info.Repaired; rep != nil && cmd != "doctor" { // doctor prints it itself
			fmt.Fprintln(env.Stderr, rep.Message)
		}
	}
	if err := fn(r, ctx, rest); err != nil {
		var ue usageError
		if errors.Is(err, errSilent) {
			return 1
		}
		if errors.As(err, &ue) {
			fmt.Fprintln(env.Stderr, string(ue))
			return 2
		}
		r.printErr(err)
		return 1
	}
	return 0
}

type usageError string

func (u usageError) Error() string { return string(u) }

func (r *runner) t(key string, args map[string]any) string {
	if r.env.Catalog == nil {
		return key
	}
	return r.env.Catalog.T(r.lang, key, args)
}

func (r *runner) printErr(err error) {
	var ae *api.Error
	if errors.As(err, &ae) {
		if r.json {
			r.emitJSON(r.env.Stderr, map[string]any{"error": ae})
			return
		}
		fmt.Fprintln(r.env.Stderr, r.t("cli.error", map[string]any{"Message": ae.Message}))
		return
	}
	fmt.Fprintln(r.env.Stderr, r.t("cli.error", map[string]any{"Message": err.Error()}))
}

func (r *runner) emitJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// out prints v as JSON with --json, or the human text otherwise.
func (r *runner) out(v any, human func(w io.Writer)) {
	if r.json {
		r.emitJSON(r.env.Stdout, v)
		return
	}
	human(r.env.Stdout)
}

// flags parses args allowing flags after positional arguments (engram search foo --limit 3).
func (r *runner) flags(name string, args []string, define func(fs *flag.FlagSet)) ([]string, error) {
	fs := flag.NewFlagSet("engram "+name, flag.ContinueOnError)
	fs.SetOutput(r.env.Stderr)
	fs.BoolVar(&r.json, "json", false, "print JSON")
	if define != nil {
		define(fs)
	}
	var flagArgs, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		flagArgs = append(flagArgs, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			flagArgs = append(flagArgs, args[i+1])
			i++
		}
	}
	if err := fs.Parse(flagArgs); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, usageError("")
		}
		return nil, usageError(err.Error())
	}
	return pos, nil
}

func (r *runner) need(cmd, what string, pos []string, n int) error {
	if len(pos) < n {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": cmd, "What": what}))
	}
	return nil
}

func (r *runner) warnings(ws []api.Warning) {
	for _, w := range ws {
		fmt.Fprintln(r.env.Stderr, r.t("cli.warning", map[string]any{"Message": w.Message}))
	}
}

// errSilent fails the command without printing more (the output already said why).
var errSilent = silentError{}

type silentError struct{}

func (silentError) Error() string { return "" }
