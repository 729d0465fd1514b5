package cli

import (
	"context"
	"io"
	"reflect"

	"engram/backend/api"
)

// methodVerb is a verb that calls exactly one method of the api table: it turns the command
// line into that method's params, invokes it through the table, and prints its result.
type methodVerb struct {
	name, method string
	params       reflect.Type // *P, checked against the table by the tests and by api.Invoke
	run          func(r *runner, args []string) error
	// forward, set for read-only verbs whose params need no api (search), hands the call to
	// the running process that watches the home (Env.Forward) before any home is opened;
	// handled is false when none took it.
	forward func(ctx context.Context, r *runner, args []string) (handled bool, err error)
}

// verb builds a methodVerb. params reads the command line (it may read the api to resolve
// a slug); print shows the result for people or, with --json, as JSON.
func verb[P, R any](name, method string, params func(r *runner, args []string) (P, error), print func(r *runner, res R) error) methodVerb {
	return methodVerb{name: name, method: method, params: reflect.TypeOf(new(P)),
		run: func(r *runner, args []string) error {
			p, err := params(r, args)
			if err != nil {
				return err
			}
			res, err := r.api.Invoke(method, &p)
			if err != nil {
				return err
			}
			return print(r, res.(R))
		}}
}

// forwarded is verb whose call may run in the process watching the home (Env.Forward): a
// search there uses its warm index and the vectors it holds, and ranks as the app does because
// it is the app. params must not read the api (there is none when the call is forwarded).
func forwarded[P, R any](name, method string, params func(r *runner, args []string) (P, error), print func(r *runner, res R) error) methodVerb {
	v := verb(name, method, params, print)
	v.forward = func(ctx context.Context, r *runner, args []string) (bool, error) {
		p, err := params(r, args)
		if err != nil {
			return true, err
		}
		var info api.AppInfo
		if ok, err := r.env.Forward(ctx, "app.info", api.Empty{}, &info); !ok || err != nil {
			return false, nil
		}
		var res R
		ok, err := r.env.Forward(ctx, method, &p, &res)
		if !ok {
			return false, nil
		}
		if err != nil {
			return true, err
		}
		r.lang = info.Language
		return true, print(r, res)
	}
	return v
}

// methodVerbs are the verbs that are one api method each, in the order help lists them.
var methodVerbs = []methodVerb{
	verb("write", "memory.write", writeParams, printDone("cli.written")),
	verb("update", "memory.update", updateParams, printDone("cli.updated")),
	verb("show", "memory.read", refParams("show"), printShow),
	verb("list", "memory.list", listParams, printList),
	forwarded("search", "memory.search", searchParams, printSearch),
	verb("accept", "memory.accept", refParams("accept"), printDone("cli.accepted")),
	verb("reject", "memory.reject", rejectParams, printDone("cli.rejected")),
	verb("delete", "memory.delete", refParams("delete"), printDone("cli.deleted")),
	verb("archive", "memory.archive", refParams("archive"), printDone("cli.archived")),
	verb("restore", "memory.restore", refParams("restore"), printDone("cli.restored")),
	verb("quota", "quota.summary", noParams("quota"), printQuota),
	verb("export", "memory.export", exportParams, printExport),
	verb("reindex", "index.reindex", noParams("reindex"), printReindex),
	verb("doctor", "index.doctor", noParams("doctor"), printDoctor),
	verb("project", "memory.project", projectParams, printProject),
	subverbs(verb("extract", "extraction.request", extractParams, printExtract),
		map[string]func(r *runner, args []string) error{"runs": extractRuns, "run": extractRun}),
	verb("usage", "usage.summary", usageParams, printUsage),
}

// command is a verb that is not one api method: it calls several (daily, bridge token) or
// none, running beside the services rather than through them (version, serve, bench).
type command struct {
	name string
	// home: the services are opened on the home before run.
	home bool
	// late: the verb opens the home itself once it read its command line (r.open), because
	// what it asks for decides how (organize: whether this process runs the organizer).
	late bool
	run  func(r *runner, ctx context.Context, args []string) error
	// forward tries the call in the process watching the home first (methodVerb.forward).
	forward func(ctx context.Context, r *runner, args []string) (handled bool, err error)
}

// commands is the one table of the verbs that are not one method.
var commands = []command{
	{name: "version", run: (*runner).version},
	{name: "--version", run: (*runner).version},
	{name: "serve", run: (*runner).serve},
	{name: "mcp", run: (*runner).mcp},
	{name: "bench", run: (*runner).bench},
	{name: "daily", home: true, run: (*runner).daily},
	// import reads JSONL or another tool's memories and applies them, or with --dry-run only
	// previews them (memory.import or memory.importPreview).
	{name: "import", home: true, run: (*runner).importCmd},
	{name: "kv", home: true, run: (*runner).kv},
	{name: "graph", home: true, run: (*runner).graph},
	{name: "bridge", home: true, run: (*runner).bridgeToken},
	{name: "sessions", home: true, run: (*runner).sessions},
	// hook opens the home itself, only when there is work: it must never fail the agent.
	{name: "hook", run: (*runner).hook},
	{name: "llm", home: true, run: (*runner).llm},
	{name: "embeddings", home: true, run: (*runner).embeddings},
	{name: "backup", home: true, run: (*runner).backup},
	// history shows versions from git (or the audit log) and turns git history on and off;
	// sync pulls, merges and pushes it (history.* methods).
	{name: "history", home: true, run: (*runner).history},
	{name: "sync", home: true, run: (*runner).sync},
	{name: "vacuum", home: true, run: (*runner).vacuum},
	{name: "cleanup", home: true, run: (*runner).cleanup},
	// organize runs the organizer and reviews its runs (organizer.* methods); it opens the
	// home itself: a run it waits for executes here when no other process is running one.
	{name: "organize", late: true, run: (*runner).organize},
}

// briefVerbs make one short call on the home and exit (Env.Brief): not the verbs that read or
// write every memory (reindex, export, import, doctor, backup, sync), nor those that run on.
var briefVerbs = map[string]bool{"write": true, "update": true, "show": true, "list": true, "search": true, "accept": true,
	"reject": true, "delete": true, "archive": true, "restore": true, "quota": true, "project": true, "daily": true, "kv": true}

// lookup finds the verb called name in either table; ok is false for an unknown verb.
func lookup(name string) (c command, ok bool) {
	for _, v := range methodVerbs {
		if v.name == name {
			return command{name: name, home: true, forward: v.forward, run: func(r *runner, _ context.Context, args []string) error {
				return v.run(r, args)
			}}, true
		}
	}
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// noParams reads a command line that takes only --json.
func noParams(name string) func(r *runner, args []string) (api.Empty, error) {
	return func(r *runner, args []string) (api.Empty, error) {
		_, err := r.flags(name, args, nil)
		return api.Empty{}, err
	}
}

// printJSONOr prints res as JSON with --json, else through human.
func printJSONOr[R any](human func(r *runner, w io.Writer, res R)) func(r *runner, res R) error {
	return func(r *runner, res R) error {
		r.out(res, func(w io.Writer) { human(r, w, res) })
		return nil
	}
}
