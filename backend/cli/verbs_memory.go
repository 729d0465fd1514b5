package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"engram/backend/api"
)

func writeParams(r *runner, args []string) (api.WriteParams, error) {
	var sc scopeFlags
	var p api.WriteParams
	var typ, conf string
	var aliases, tags listFlag
	pos, err := r.flags("write", args, func(fs *flag.FlagSet) {
		sc.define(fs)
		fs.StringVar(&typ, "type", "", "user | feedback | project | reference | experience")
		fs.StringVar(&p.Slug, "slug", "", "slug (default: made from the title)")
		fs.StringVar(&p.Title, "title", "", "title")
		fs.StringVar(&p.Body, "body", "", "body (Markdown); - reads stdin")
		fs.StringVar(&p.SourceQuote, "quote", "", "verbatim evidence quote")
		fs.StringVar(&conf, "confidence", "", "high | medium | low")
		fs.StringVar(&p.Reasoning, "reasoning", "", "why this is worth remembering")
		fs.Var(&aliases, "alias", "alias (repeatable)")
		fs.Var(&tags, "tag", "tag (repeatable)")
	})
	if err != nil {
		return p, err
	}
	if p.Body == "-" || (p.Body == "" && len(pos) == 1 && pos[0] == "-") {
		// One byte over the limit lets the api refuse the body with its real size.
		if p.Body, err = r.stdinText(api.MaxBodyBytes + 1); err != nil {
			return p, err
		}
	}
	if typ == "" {
		// Without it the store answered "Unknown type “”", which names no flag.
		return p, usageError(r.t("cli.missing_arg", map[string]any{"Command": "write", "What": "--type user | feedback | project | reference | experience"}))
	}
	p.Scope, p.Workdir, p.Agent = api.Scope(sc.orDefault()), sc.workdir, sc.agent
	p.Type, p.Confidence, p.Aliases, p.Tags = api.Type(typ), api.Confidence(conf), aliases, tags
	return p, nil
}

// printDone prints a mutation's warnings and its doneKey line (Slug, ID, Confidence).
func printDone(doneKey string) func(r *runner, res api.ItemResult) error {
	return printJSONOr(func(r *runner, w io.Writer, res api.ItemResult) {
		r.warnings(res.Warnings)
		fmt.Fprintln(w, r.t(doneKey, map[string]any{"Slug": res.Slug, "ID": res.ID, "Confidence": r.word("cli.confidence", string(res.AppliedConfidence))}))
	})
}

var printShow = printJSONOr(func(r *runner, w io.Writer, res api.ReadResult) {
	m := res.Memory
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

func downMark(d bool) string {
	if d {
		return " (auto_downgraded)"
	}
	return ""
}

func scopeLabel(s api.Scope, workdir, agent string) string {
	switch s {
	case api.ScopeProject:
		return "project " + workdir
	case api.ScopeAgent:
		return "agent " + agent
	}
	return string(s)
}

func listParams(r *runner, args []string) (api.ListParams, error) {
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
		return p, err
	}
	p.Scope, p.Workdir, p.Agent, p.Type = api.Scope(sc.scope), sc.workdir, sc.agent, api.Type(typ)
	switch reviewed {
	case "true", "yes", "1":
		v := true
		p.Reviewed = &v
	case "false", "no", "0":
		v := false
		p.Reviewed = &v
	case "":
	default:
		// "--reviewed maybe" listed everything: a filter that was not understood must say so.
		return p, usageError(r.t("cli.flag_bad_value", map[string]any{"Flag": "-reviewed", "Value": reviewed}))
	}
	return p, nil
}

var printList = printJSONOr(func(r *runner, w io.Writer, res api.ListResult) {
	if len(res.Items) == 0 {
		fmt.Fprintln(w, r.t("cli.no_memories", nil))
		return
	}
	// The owner column says whose an agent or project memory is (before, nothing did, and
	// engram show SLUG looked only among the global ones); list -h explains the columns.
	rows := make([][]string, 0, len(res.Items))
	for _, m := range res.Items {
		rows = append(rows, []string{m.Slug, string(m.Type), reviewMark(m.Reviewed, string(m.Confidence)), string(m.Scope),
			owner(m.Scope, m.Workdir, m.Agent), m.Title})
	}
	printColumns(w, rows, nil)
	fmt.Fprintln(w, r.t("cli.list_total", map[string]any{"Shown": len(res.Items), "Total": res.Total}))
})

func reviewMark(reviewed bool, conf string) string {
	if reviewed {
		return conf
	}
	return "*" + conf[:1]
}

func searchParams(r *runner, args []string) (api.SearchParams, error) {
	var sc scopeFlags
	var p api.SearchParams
	var typ string
	pos, err := r.flags("search", args, func(fs *flag.FlagSet) {
		sc.define(fs)
		fs.StringVar(&typ, "type", "", "type")
		fs.IntVar(&p.Limit, "limit", 10, "at most this many")
	})
	if err != nil {
		return p, err
	}
	if err := r.need("search", "QUERY", pos, 1); err != nil {
		return p, err
	}
	p.Query = strings.Join(pos, " ")
	p.Scope, p.Workdir, p.Agent, p.Type = api.Scope(sc.scope), sc.workdir, sc.agent, api.Type(typ)
	return p, nil
}

// printSearch prints the hits for people, or with --json the flat rows scripts read.
func printSearch(r *runner, res api.SearchResult) error {
	if r.json {
		r.emitJSON(r.env.Stdout, res.Rows())
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

func historyParams(r *runner, args []string) (api.HistoryParams, error) {
	var limit int
	pos, err := r.flags("history", args, func(fs *flag.FlagSet) { fs.IntVar(&limit, "limit", 50, "at most this many") })
	if err != nil {
		return api.HistoryParams{}, err
	}
	p := api.HistoryParams{Limit: limit}
	if len(pos) > 0 {
		// The ref is read from the positionals alone; --json was already read above.
		jsonOut := r.json
		ref, err := r.ref("history", pos, nil)
		r.json = jsonOut
		if err != nil {
			return p, err
		}
		if ref.ID == "" {
			m, err := r.api.Memory.Read(ref)
			if err != nil {
				return p, err
			}
			ref.ID = m.Memory.ID
		}
		p.ID = ref.ID
	}
	return p, nil
}

var printHistory = printJSONOr(func(r *runner, w io.Writer, res api.HistoryResult) {
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	for _, e := range res.Entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.TS, e.Op, e.Actor, e.Slug, e.Result)
	}
	tw.Flush()
})
