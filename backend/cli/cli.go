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
	"strconv"
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
	// OpenRunner is Open for `engram organize`, which waits for its run: the organizer there
	// executes runs (one at a time across processes, by the home's run lock) rather than only
	// queueing them for the app. Nil: Open.
	OpenRunner func(ctx context.Context) (a *api.API, close func() error, err error)
	// Serve runs the headless web UI and bridge; nil when this build has none.
	Serve func(ctx context.Context, args []string) int
	// MCP serves the MCP server over stdin and stdout; nil when this build has none.
	MCP func(ctx context.Context, args []string) int
	// Bench runs the benchmark harness; nil in the shipped binaries (it builds with -tags
	// bench, package main hands it in).
	Bench func(ctx context.Context, req BenchRequest) error
	// ReadFile reads a file named on the command line ("-" is stdin).
	ReadFile func(path string) ([]byte, error)
	// Home is the home folder, for what must be logged there before (or without) opening
	// the services: a hook's failures.
	Home string
	// Forward runs one read-only api call in the running process that watches the home (the
	// desktop app, engram serve, engram mcp), after that process made its index current; ok
	// is false when no such process took it, and the CLI opens the home itself. Nil: never.
	Forward func(ctx context.Context, method string, params, result any) (ok bool, err error)
	// Brief is called before a verb that makes one short call on the home (briefVerbs): the
	// process ends right after, so package main defers the garbage collector, whose work would
	// all be thrown away at exit. Nil: nothing (tests run many verbs in one process).
	Brief func()
}

type runner struct {
	env  Env
	api  *api.API
	json bool
	// csv is `engram usage --csv`.
	csv  bool
	lang string
	// globalSlug is the slug ref looked up as global for lack of scope flags, and verb the
	// command that did: a not_found then says where memories of that slug are (scopeHint).
	globalSlug, verb string
}

// Run executes one command line and returns the process exit code: 0 ok, 1 failed, 2 usage.
// The verb comes from one of two tables (table.go): the api methods the CLI names one for
// one, and the commands that are not one method.
func Run(ctx context.Context, args []string, env Env) int {
	// Everything printed shows control characters instead of sending them (safeout.go); JSON
	// and JSONL hold none raw, so only text for people changes.
	env.Stdout, env.Stderr = controlSafe(env.Stdout), controlSafe(env.Stderr)
	r := &runner{env: env, lang: i18n.Normalize(env.Lang)}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		r.homeLanguage(ctx)
		fmt.Fprintln(env.Stdout, r.t("cli.usage", nil))
		return 0
	}
	cmd, rest := args[0], args[1:]
	c, ok := lookup(cmd)
	if !ok {
		r.homeLanguage(ctx)
		fmt.Fprintln(env.Stderr, r.t("cli.unknown_command", map[string]any{"Command": cmd}))
		return 2
	}
	if briefVerbs[cmd] && env.Brief != nil {
		env.Brief()
	}
	if c.forward != nil && env.Forward != nil {
		// A watching process answers without this one opening the home (no index open, no
		// vectors loaded): the call costs a round trip on a unix socket.
		if handled, err := c.forward(ctx, r, rest); handled {
			return r.exit(err)
		}
		r.json = false // the flags are read again below
	}
	if asksHelp(rest) && (c.home || c.late || c.name == "hook") {
		// A verb's flags are described without opening the home: help must work on a home
		// that cannot be opened (another build's index, a disk that is gone) — that is when
		// people read it. Every verb reads its flags before it calls the api
		// (TestHelpNeedsNoHome). Its language is the home's, read from its settings alone.
		// hook opens the home itself, but its help comes this way too, in that language.
		r.homeLanguage(ctx)
		return r.exit(c.run(r, ctx, rest))
	}
	if c.home {
		closeFn, err := r.open(ctx, env.Open, cmd)
		if err != nil {
			r.printErr(err)
			return 1
		}
		defer closeFn()
	}
	return r.exit(c.run(r, ctx, rest))
}

// open opens the services on the home with open (Env.Open, or Env.OpenRunner) and speaks the
// home's language from then on. A verb that opens the home late (command.late: after reading
// its command line) calls it too.
func (r *runner) open(ctx context.Context, open func(ctx context.Context) (*api.API, func() error, error), cmd string) (func() error, error) {
	a, closeFn, err := open(ctx)
	if err != nil {
		return nil, err
	}
	r.api = a
	if info, err := a.App.Info(api.Empty{}); err == nil {
		r.lang = info.Language
		if rep := info.Repaired; rep != nil && cmd != "doctor" { // doctor prints it itself
			fmt.Fprintln(r.env.Stderr, rep.Message)
		}
	}
	return closeFn, nil
}

// homeLanguage takes the language set in the home's settings for what is said before (or
// without) opening the home: help, a verb's flags, an unknown verb. The settings row is read
// alone (api.HomeLanguage), so help stays as quick as before and works on a home that cannot
// be opened; a fresh home keeps the environment's language, as the home itself will.
func (r *runner) homeLanguage(ctx context.Context) {
	r.lang = i18n.Normalize(api.HomeLanguage(ctx, r.env.Home, r.lang))
}

// exit turns a command's error into its exit code, printing what was not said yet.
func (r *runner) exit(err error) int {
	var code exitCode
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &code):
		return int(code)
	case errors.Is(err, errSilent):
		return 1
	case errors.As(err, &ue):
		if ue != "" {
			fmt.Fprintln(r.env.Stderr, string(ue))
		}
		return 2
	}
	r.printErr(err)
	r.scopeHint(err)
	return 1
}

// asksHelp reports whether a verb's arguments ask for its flags (-h, -help, --help) before
// any "--".
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

type usageError string

// errSilentUsage ends a command with the usage exit code after it printed what it had to (a
// verb's flags, asked with -h).
const errSilentUsage = usageError("")

func (u usageError) Error() string { return string(u) }

// reason adds why err happened to args, in the person's words when it is a file-system
// failure (api.Reason), for a message the CLI translates itself.
func (r *runner) reason(args map[string]any, err error) map[string]any {
	args = api.Reason(args, err)
	if key, ok := args[api.DetailKey].(string); ok && r.env.Catalog != nil && r.env.Catalog.Has(key) {
		args["Detail"] = r.t(key, args)
	}
	return args
}

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
	// A coded error from below the api (a home that cannot be made) is said in words too.
	fmt.Fprintln(r.env.Stderr, r.t("cli.error", map[string]any{"Message": r.message(err)}))
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
// settingFlag is a boolean flag that sets a setting to true or false (optBool), not a switch.
type settingFlag interface{ settingValue() }

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
			// A setting's true/false (--streaming false) takes the word after it, as people
			// type it: it was read as a stray argument and the verb answered with its usage.
			// A plain switch (--json) never does, so `search --json false` still searches.
			if _, setting := f.Value.(settingFlag); setting && i+1 < len(args) {
				if _, err := strconv.ParseBool(args[i+1]); err == nil {
					flagArgs[len(flagArgs)-1] = a + "=" + args[i+1]
					i++
				}
			}
			continue
		}
		if i+1 < len(args) {
			flagArgs = append(flagArgs, args[i+1])
			i++
		}
	}
	ft := FlagText{Catalog: r.env.Catalog, Lang: r.lang, Verb: strings.Fields(name)[0], Name: name}
	if err := ft.Parse(fs, flagArgs, r.env.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			r.verbHelp(name)
			return nil, errSilentUsage
		}
		return nil, usageError(err.Error())
	}
	return pos, nil
}

// verbHelp follows a verb's flags (-h) with what its output means, when the catalog says
// (cli.help.<verb>): list's marks and columns were explained nowhere.
func (r *runner) verbHelp(name string) {
	key := "cli.help." + strings.ReplaceAll(name, " ", "_")
	if r.env.Catalog != nil && r.env.Catalog.Has(key) {
		fmt.Fprintln(r.env.Stderr, "\n"+r.t(key, nil))
	}
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
