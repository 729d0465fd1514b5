package cli

import (
	"flag"
	"fmt"
	"io"
	"time"

	"engram/backend/api"
)

// subverbs gives a one-method verb sub-verbs that call other methods: `engram extract runs`
// (extraction.runs) and `engram extract run ID` (extraction.run) beside `engram extract FILE`
// (extraction.request). A file named like a sub-verb is given as ./runs.
func subverbs(v methodVerb, subs map[string]func(r *runner, args []string) error) methodVerb {
	run := v.run
	v.run = func(r *runner, args []string) error {
		if len(args) > 0 {
			if sub, ok := subs[args[0]]; ok {
				return sub(r, args[1:])
			}
		}
		return run(r, args)
	}
	return v
}

// extractRuns lists recorded extraction runs, newest first, as Activity → Extraction does:
// when, the status, what was applied and refused and why, the agent and the session. Before,
// a CLI-only person could not see why a turn left no memory.
func extractRuns(r *runner, args []string) error {
	var p api.ExtractionRunsParams
	pos, err := r.flags("extract runs", args, func(fs *flag.FlagSet) {
		fs.StringVar(&p.Session, "session", "", "only this session's runs")
		fs.StringVar(&p.Status, "status", "", "only runs with this status: done | partial | noop | skipped | failed | running | queued")
		fs.IntVar(&p.Limit, "limit", 20, "at most this many runs")
		fs.IntVar(&p.Offset, "offset", 0, "skip this many runs")
	})
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "extract runs", "What": "[--status S] [--session ID] [--limit N] [--offset N]"}))
	}
	res, err := r.api.Extraction.Runs(p)
	if err != nil {
		return err
	}
	r.out(res, func(w io.Writer) {
		if len(res.Runs) == 0 {
			fmt.Fprintln(w, r.t("cli.runs_none", nil))
			return
		}
		for _, d := range res.Runs {
			r.runHeader(w, d)
			r.runItems(w, d, false)
		}
		fmt.Fprintln(w, r.t("cli.runs_total", map[string]any{"Shown": len(res.Runs), "Total": res.Total}))
	})
	return nil
}

// extractRun shows one run with every memory it applied and every item it refused.
func extractRun(r *runner, args []string) error {
	pos, err := r.flags("extract run", args, nil)
	if err != nil {
		return err
	}
	if err := r.need("extract run", "ID", pos, 1); err != nil {
		return err
	}
	d, err := r.api.Extraction.Run(api.ExtractionRunParams{ID: pos[0]})
	if err != nil {
		return err
	}
	r.out(d, func(w io.Writer) {
		r.runHeader(w, d)
		if d.InputTokens+d.OutputTokens > 0 {
			fmt.Fprintln(w, r.t("cli.run_model", map[string]any{"Model": d.Model, "In": d.InputTokens, "Out": d.OutputTokens}))
		}
		r.runItems(w, d, true)
	})
	return nil
}

// runHeader is a run's line: when, its id, status with counts and reason, agent and session.
func (r *runner) runHeader(w io.Writer, d api.ExtractionRun) {
	reason := ""
	if d.ReasonText != "" {
		reason = " — " + d.ReasonText
	}
	fmt.Fprintln(w, r.t("cli.runs_row", map[string]any{"Started": d.StartedAt.Local().Format(time.DateTime), "ID": d.ID,
		"Status": d.StatusText, "Applied": d.Applied, "Rejected": d.Rejected, "Agent": d.Agent, "Session": d.Session,
		"Reason": reason}))
}

// runItems prints what a run refused (with the reason in words) and, when all, what it
// applied too.
func (r *runner) runItems(w io.Writer, d api.ExtractionRun, all bool) {
	if all {
		for _, a := range d.Report.Applied {
			fmt.Fprintln(w, r.appliedLine(a))
		}
	}
	for _, x := range d.Report.Rejected {
		fmt.Fprintln(w, r.t("cli.extract_rejected", map[string]any{"Slug": x.Slug, "Code": x.Code, "Message": x.Message}))
	}
}

// appliedLine is one applied item of a run in words, by what it did: "+" a memory written,
// "~" one updated, "×" one deleted (to the trash). Every item used to read "+ … unreviewed",
// so a model's delete looked like a new memory.
func (r *runner) appliedLine(a api.ExtractionApplied) string {
	key := "cli.extract_applied"
	switch a.Action {
	case "update":
		key = "cli.extract_applied_update"
	case "delete":
		key = "cli.extract_applied_delete"
	}
	return r.t(key, map[string]any{"Slug": a.Slug, "Scope": a.Scope, "Type": a.Type, "Title": a.Title, "Confidence": r.word("cli.confidence", string(a.Confidence))})
}
