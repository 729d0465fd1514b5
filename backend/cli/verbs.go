package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"engram/backend/api"
	"engram/backend/memory"
)

type scopeFlags struct {
	scope, workdir, agent string
}

func (s *scopeFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&s.scope, "scope", "", "global | project | agent")
	fs.StringVar(&s.workdir, "workdir", "", "project folder (absolute) for project scope")
	fs.StringVar(&s.agent, "agent", "", "agent name for agent scope")
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, strings.Split(v, ",")...); return nil }

func (r *runner) write(_ context.Context, args []string) error {
	var sc scopeFlags
	var p api.WriteParams
	var typ, conf string
	var aliases, tags listFlag
	pos, err := r.flags("write", args, func(fs *flag.FlagSet) {
		sc.define(fs)
		fs.StringVar(&typ, "type", "", "user | feedback | project | reference | experience")
		fs.StringVar(&p.Slug, "slug", "", "slug")
		fs.StringVar(&p.Title, "title", "", "title")
		fs.StringVar(&p.Body, "body", "", "body (Markdown); - reads stdin")
		fs.StringVar(&p.SourceQuote, "quote", "", "verbatim evidence quote")
		fs.StringVar(&conf, "confidence", "", "high | medium | low")
		fs.StringVar(&p.Reasoning, "reasoning", "", "why this is worth remembering")
		fs.Var(&aliases, "alias", "alias (repeatable)")
		fs.Var(&tags, "tag", "tag (repeatable)")
	})
	if err != nil {
		return err
	}
	if p.Body == "-" || (p.Body == "" && len(pos) == 1 && pos[0] == "-") {
		b, err := io.ReadAll(io.LimitReader(r.env.Stdin, memory.MaxBodyBytes+1))
		if err != nil {
			return err
		}
		p.Body = string(b)
	}
	if sc.scope == "" {
		sc.scope = "global"
	}
	p.Scope, p.Workdir, p.Agent = memory.Scope(sc.scope), sc.workdir, sc.agent
	p.Type, p.Confidence, p.Aliases, p.Tags = memory.Type(typ), memory.Confidence(conf), aliases, tags
	res, err := r.api.Memory.Write(p)
	if err != nil {
		return err
	}
	r.out(res, func(w io.Writer) {
		r.warnings(res.Warnings)
		fmt.Fprintln(w, r.t("cli.written", map[string]any{"Slug": res.Slug, "ID": res.ID, "Confidence": res.AppliedConfidence}))
	})
	return nil
}

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
		// Not an id: a slug, global unless scope flags say otherwise.
		p.Slug, p.Scope = pos[0], memory.ScopeGlobal
		return p, nil
	}
	if sc.scope == "" {
		sc.scope = "global"
	}
	p.Slug, p.Scope, p.Workdir, p.Agent = pos[0], memory.Scope(sc.scope), sc.workdir, sc.agent
	return p, nil
}

func refVerb(method, doneKey string) func(*runner, context.Context, []string) error {
	return func(r *runner, _ context.Context, args []string) error {
		cmd := strings.TrimPrefix(method, "memory.")
		p, err := r.ref(cmd, args, nil)
		if err != nil {
			return err
		}
		var res api.ItemResult
		switch method {
		case "memory.accept":
			res, err = r.api.Memory.Accept(p)
		case "memory.reject":
			res, err = r.api.Memory.Reject(p)
		case "memory.delete":
			res, err = r.api.Memory.Delete(p)
		case "memory.archive":
			res, err = r.api.Memory.Archive(p)
		case "memory.restore":
			res, err = r.api.Memory.Restore(p)
		}
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			r.warnings(res.Warnings)
			fmt.Fprintln(w, r.t(doneKey, map[string]any{"Slug": res.Slug}))
		})
		return nil
	}
}

func (r *runner) show(_ context.Context, args []string) error {
	p, err := r.ref("show", args, nil)
	if err != nil {
		return err
	}
	res, err := r.api.Memory.Read(p)
	if err != nil {
		return err
	}
	m := res.Memory
	r.out(res, func(w io.Writer) {
		fmt.Fprintf(w, "# %s\n\n", m.Title)
		tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
		fmt.Fprintf(tw, "id\t%s\nslug\t%s\nscope\t%s\n", m.ID, m.Slug, scopeLabel(m.Scope, m.Workdir, m.Agent))
		fmt.Fprintf(tw, "type\t%s\nconfidence\t%s%s\nreviewed\t%v\n", m.Type, m.Confidence, downMark(m.AutoDowngraded), m.Reviewed)
		if m.SourceQuote != "" {
			fmt.Fprintf(tw, "source_quote\t%q\n", m.SourceQuote)
		}
		fmt.Fprintf(tw, "updated\t%s\npath\t%s\nversion\t%s\n", m.Updated.Local().Format("2006-01-02 15:04"), m.Path, m.Version)
		tw.Flush()
		fmt.Fprintf(w, "\n%s\n", m.Body)
	})
	return nil
}

func downMark(d bool) string {
	if d {
		return " (auto_downgraded)"
	}
	return ""
}

func scopeLabel(s memory.Scope, workdir, agent string) string {
	switch s {
	case memory.ScopeProject:
		return "project " + workdir
	case memory.ScopeAgent:
		return "agent " + agent
	}
	return string(s)
}

func (r *runner) list(_ context.Context, args []string) error {
	var sc scopeFlags
	var p api.ListParams
	var typ, reviewed string
	_, err := r.flags("list", args, func(fs *flag.FlagSet) {
		sc.define(fs)
		fs.StringVar(&typ, "type", "", "type")
		fs.StringVar(&reviewed, "reviewed", "", "true | false")
		fs.BoolVar(&p.Archived, "archived", false, "list archived memories")
		fs.IntVar(&p.Limit, "limit", 100, "at most this many")
		fs.IntVar(&p.Offset, "offset", 0, "skip this many")
	})
	if err != nil {
		return err
	}
	p.Scope, p.Workdir, p.Agent, p.Type = memory.Scope(sc.scope), sc.workdir, sc.agent, memory.Type(typ)
	switch reviewed {
	case "true", "yes", "1":
		v := true
		p.Reviewed = &v
	case "false", "no", "0":
		v := false
		p.Reviewed = &v
	}
	res, err := r.api.Memory.List(p)
	if err != nil {
		return err
	}
	r.out(res, func(w io.Writer) {
		if len(res.Items) == 0 {
			fmt.Fprintln(w, r.t("cli.no_memories", nil))
			return
		}
		tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
		for _, m := range res.Items {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.Slug, m.Type, reviewMark(m.Reviewed, string(m.Confidence)), m.Scope, m.Title)
		}
		tw.Flush()
		fmt.Fprintln(w, r.t("cli.list_total", map[string]any{"Shown": len(res.Items), "Total": res.Total}))
	})
	return nil
}

func reviewMark(reviewed bool, conf string) string {
	if reviewed {
		return conf
	}
	return "*" + conf[:1]
}

func (r *runner) search(_ context.Context, args []string) error {
	var sc scopeFlags
	var p api.SearchParams
	var typ string
	pos, err := r.flags("search", args, func(fs *flag.FlagSet) {
		sc.define(fs)
		fs.StringVar(&typ, "type", "", "type")
		fs.IntVar(&p.Limit, "limit", 10, "at most this many")
	})
	if err != nil {
		return err
	}
	if err := r.need("search", "QUERY", pos, 1); err != nil {
		return err
	}
	p.Query = strings.Join(pos, " ")
	p.Scope, p.Workdir, p.Agent, p.Type = memory.Scope(sc.scope), sc.workdir, sc.agent, memory.Type(typ)
	res, err := r.api.Memory.Search(p)
	if err != nil {
		return err
	}
	if r.json {
		type row struct {
			ID      string            `json:"id"`
			Slug    string            `json:"slug"`
			Title   string            `json:"title"`
			Scope   memory.Scope      `json:"scope"`
			Workdir string            `json:"workdir,omitempty"`
			Agent   string            `json:"agent,omitempty"`
			Type    memory.Type       `json:"type"`
			Conf    memory.Confidence `json:"confidence"`
			Review  bool              `json:"reviewed"`
			Score   float64           `json:"score"`
			Snippet string            `json:"snippet"`
			Via     []string          `json:"via"`
		}
		rows := make([]row, 0, len(res.Hits))
		for _, h := range res.Hits {
			m := h.Memory
			rows = append(rows, row{m.ID, m.Slug, m.Title, m.Scope, m.Workdir, m.Agent, m.Type, m.Confidence, m.Reviewed, h.Score, h.Snippet, h.Via})
		}
		r.emitJSON(r.env.Stdout, rows)
		return nil
	}
	w := r.env.Stdout
	if len(res.Hits) == 0 {
		fmt.Fprintln(w, r.t("cli.no_results", nil))
		return nil
	}
	for i, h := range res.Hits {
		fmt.Fprintf(w, "%2d. %s  [%s/%s]  %.4f\n    %s\n", i+1, h.Memory.Title, h.Memory.Scope, h.Memory.Slug, h.Score, h.Snippet)
	}
	return nil
}

func (r *runner) daily(_ context.Context, args []string) error {
	var agent string
	pos, err := r.flags("daily", args, func(fs *flag.FlagSet) {
		fs.StringVar(&agent, "agent", "", "who is writing")
	})
	if err != nil {
		return err
	}
	if err := r.need("daily", "append TEXT | show [DATE]", pos, 1); err != nil {
		return err
	}
	switch pos[0] {
	case "append":
		if err := r.need("daily append", "TEXT", pos, 2); err != nil {
			return err
		}
		res, err := r.api.Daily.Append(api.AppendParams{Text: strings.Join(pos[1:], " "), Agent: agent})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			r.warnings(res.Warnings)
			fmt.Fprintln(w, r.t("cli.daily_appended", map[string]any{"Day": res.Slug}))
		})
	case "show":
		p := api.DayParams{}
		if len(pos) > 1 {
			p.Date = pos[1]
		}
		res, err := r.api.Daily.Read(p)
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			fmt.Fprintf(w, "# %s\n\n", res.Date)
			if res.Memory != nil {
				fmt.Fprintln(w, res.Memory.Body)
			}
		})
	case "list":
		res, err := r.api.Daily.List(api.DayListParams{})
		if err != nil {
			return err
		}
		r.out(res, func(w io.Writer) {
			for _, d := range res.Days {
				fmt.Fprintf(w, "%s  %d\n", d.Date, d.Bytes)
			}
		})
	default:
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "daily", "What": "append TEXT | show [DATE] | list"}))
	}
	return nil
}

func (r *runner) quota(_ context.Context, args []string) error {
	if _, err := r.flags("quota", args, nil); err != nil {
		return err
	}
	q, err := r.api.Quota.Summary(api.Empty{})
	if err != nil {
		return err
	}
	r.out(q, func(w io.Writer) {
		fmt.Fprintln(w, r.t("cli.quota_header", nil))
		for _, s := range q.Scopes {
			name := string(s.Scope)
			if s.Key != "" {
				name += ":" + s.Key
			}
			fmt.Fprintf(w, "%-16s %5d  %5d  %8d  %-10s %d\n", name, s.Used, s.Limit, s.Headroom,
				r.t("quota.level."+s.Level, nil), s.Unreviewed)
		}
	})
	return nil
}

func (r *runner) importFile(_ context.Context, args []string) error {
	var keepReview bool
	pos, err := r.flags("import", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&keepReview, "keep-review", false, "keep reviewed and source as in the file (restoring your own Engram export)")
	})
	if err != nil {
		return err
	}
	if err := r.need("import", "FILE.jsonl", pos, 1); err != nil {
		return err
	}
	data, err := r.env.ReadFile(pos[0])
	if err != nil {
		return fmt.Errorf("%s", r.t("cli.read_file_failed", map[string]any{"Path": pos[0], "Detail": err.Error()}))
	}
	res, err := r.api.Memory.Import(api.ImportParams{JSONL: string(data), KeepReview: keepReview})
	if err != nil {
		return err
	}
	r.out(res, func(w io.Writer) {
		for _, le := range res.Errors {
			fmt.Fprintln(r.env.Stderr, r.t("cli.import_line_error", map[string]any{"Line": le.Line, "Message": le.Message}))
		}
		fmt.Fprintln(w, r.t("cli.import_done", map[string]any{"Imported": res.Imported, "Daily": res.Daily, "Lines": res.Lines, "Errors": len(res.Errors)}))
	})
	if len(res.Errors) > 0 {
		return errSilent // good lines are kept; the exit code still tells scripts something failed
	}
	return nil
}

func (r *runner) export(_ context.Context, args []string) error {
	var sc scopeFlags
	if _, err := r.flags("export", args, sc.define); err != nil {
		return err
	}
	res, err := r.api.Memory.Export(api.ExportParams{Scope: memory.Scope(sc.scope), Workdir: sc.workdir, Agent: sc.agent})
	if err != nil {
		return err
	}
	// Export is JSONL on stdout either way; the count goes to stderr for people.
	io.WriteString(r.env.Stdout, res.JSONL)
	if !r.json {
		fmt.Fprintln(r.env.Stderr, r.t("cli.export_done", map[string]any{"Count": res.Count}))
	}
	return nil
}

func (r *runner) reindex(_ context.Context, args []string) error {
	if _, err := r.flags("reindex", args, nil); err != nil {
		return err
	}
	rep, err := r.api.Index.Reindex(api.Empty{})
	if err != nil {
		return err
	}
	r.out(rep, func(w io.Writer) {
		fmt.Fprintln(w, r.t("cli.reindex_done", map[string]any{"Added": rep.Added, "Scanned": rep.Scanned, "Problems": rep.Problems}))
	})
	return nil
}

func (r *runner) doctor(_ context.Context, args []string) error {
	if _, err := r.flags("doctor", args, nil); err != nil {
		return err
	}
	rep, err := r.api.Index.Doctor(api.Empty{})
	if err != nil {
		return err
	}
	r.out(rep, func(w io.Writer) {
		fmt.Fprintln(w, r.t("cli.doctor_integrity", map[string]any{"Result": rep.Integrity}))
		if rep.ReadOnly {
			fmt.Fprintln(w, r.t("notice.home_read_only", nil))
		}
		if rep.Recovery != nil {
			fmt.Fprintln(w, rep.Recovery.Message)
			for _, st := range rep.Recovery.Tables {
				if st.Salvaged > 0 || st.Lost != 0 { // empty tables say nothing
					fmt.Fprintln(w, st.Message)
				}
			}
		}
		if len(rep.Problems) > 0 {
			fmt.Fprintln(w, r.t("cli.doctor_problems", map[string]any{"Count": len(rep.Problems)}))
			for _, p := range rep.Problems {
				fmt.Fprintln(w, r.t("cli.doctor_problem", map[string]any{"Path": p.Path, "Detail": p.Detail}))
			}
		} else if rep.OK {
			fmt.Fprintln(w, r.t("cli.doctor_ok", map[string]any{"Memories": rep.Memories}))
		}
	})
	if !rep.OK {
		return errSilent
	}
	return nil
}

func (r *runner) history(_ context.Context, args []string) error {
	var limit int
	pos, err := r.flags("history", args, func(fs *flag.FlagSet) { fs.IntVar(&limit, "limit", 50, "at most this many") })
	if err != nil {
		return err
	}
	p := api.HistoryParams{Limit: limit}
	if len(pos) > 0 {
		ref, err := r.ref("history", pos, nil)
		if err != nil {
			return err
		}
		if ref.ID == "" {
			m, err := r.api.Memory.Read(ref)
			if err != nil {
				return err
			}
			ref.ID = m.Memory.ID
		}
		p.ID = ref.ID
	}
	res, err := r.api.Memory.History(p)
	if err != nil {
		return err
	}
	r.out(res, func(w io.Writer) {
		tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
		for _, e := range res.Entries {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.TS, e.Op, e.Actor, e.Slug, e.Result)
		}
		tw.Flush()
	})
	return nil
}

func (r *runner) bridgeCmd(_ context.Context, args []string) error {
	var regen bool
	pos, err := r.flags("bridge", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&regen, "regenerate", false, "replace the token")
	})
	if err != nil {
		return err
	}
	if len(pos) == 0 || pos[0] != "token" {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "bridge", "What": "token"}))
	}
	var st api.RemoteStatus
	if regen {
		st, err = r.api.Remote.RegenerateToken(api.Empty{})
	} else {
		st, err = r.api.Remote.Status(api.Empty{})
	}
	if err != nil {
		return err
	}
	r.out(map[string]any{"token": st.Token}, func(w io.Writer) {
		key := "cli.bridge_token"
		if regen {
			key = "cli.bridge_token_regenerated"
		}
		fmt.Fprintln(w, r.t(key, map[string]any{"Token": st.Token}))
	})
	return nil
}
