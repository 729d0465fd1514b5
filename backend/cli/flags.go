package cli

import (
	"flag"
	"strings"

	"github.com/oklog/ulid/v2"

	"engram/backend/api"
)

type scopeFlags struct {
	scope, workdir, agent string
}

// orDefault is the scope the flags name for one memory (api.ScopeNamed: an agent alone is
// agent scope, a folder alone project scope, else global).
func (s scopeFlags) orDefault() string {
	return string(api.ScopeNamed(api.Scope(s.scope), s.workdir, s.agent))
}

func (s *scopeFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&s.scope, "scope", "", "global | project | agent")
	fs.StringVar(&s.workdir, "workdir", "", "project folder (absolute) for project scope")
	fs.StringVar(&s.agent, "agent", "", "agent name for agent scope")
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, strings.Split(v, ",")...); return nil }

// ref resolves a positional SLUG|ID with optional scope flags into RefParams.
func (r *runner) ref(cmd string, args []string, extra func(fs *flag.FlagSet)) (api.RefParams, error) {
	var sc scopeFlags
	var version string
	pos, err := r.flags(cmd, args, func(fs *flag.FlagSet) {
		sc.define(fs)
		fs.StringVar(&version, "expected-version", "", "refuse if the memory changed since this version")
		if extra != nil {
			extra(fs)
		}
	})
	if err != nil {
		return api.RefParams{}, err
	}
	if err := r.need(cmd, "SLUG|ID", pos, 1); err != nil {
		return api.RefParams{}, err
	}
	p := api.RefParams{ExpectedVersion: version}
	if sc.scope == "" && sc.workdir == "" && sc.agent == "" {
		m, err := r.api.Memory.Read(api.RefParams{ID: pos[0]})
		if err == nil {
			p.ID = m.Memory.ID
			return p, nil
		}
		// An id no live memory has (a deleted one, for restore): still an id, as ids are
		// shown (upper case; a slug is lower case).
		if _, perr := ulid.ParseStrict(pos[0]); perr == nil && strings.ToUpper(pos[0]) == pos[0] {
			p.ID = pos[0]
			return p, nil
		}
		// Not an id: a slug, global unless scope flags say otherwise.
		p.Slug, p.Scope = pos[0], api.ScopeGlobal
		r.globalSlug, r.verb = pos[0], cmd
		return p, nil
	}
	p.Slug, p.Scope, p.Workdir, p.Agent = pos[0], api.Scope(sc.orDefault()), sc.workdir, sc.agent
	return p, nil
}

// rejectParams reads `reject SLUG|ID [--reason TEXT]`: the reason is kept in the audit log.
func rejectParams(r *runner, args []string) (api.RejectParams, error) {
	var reason string
	ref, err := r.ref("reject", args, func(fs *flag.FlagSet) {
		fs.StringVar(&reason, "reason", "", "why the memory is rejected (kept in the audit log)")
	})
	return api.RejectParams{RefParams: ref, Reason: reason}, err
}

// refParams reads the command line of a verb on one memory (show, accept, reject, …).
func refParams(cmd string) func(r *runner, args []string) (api.RefParams, error) {
	return func(r *runner, args []string) (api.RefParams, error) { return r.ref(cmd, args, nil) }
}
