package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"engram/backend/api"
)

// organizeRuns lists organizer runs, newest first (queued ones too), as the Organizer view
// does: when, the id, who asked, where it stands and what it changed.
func (r *runner) organizeRuns(ctx context.Context, args []string) error {
	var p api.OrganizerRunsParams
	pos, err := r.flags("organize runs", args, func(fs *flag.FlagSet) {
		fs.IntVar(&p.Limit, "limit", 20, "at most this many runs")
		fs.IntVar(&p.Offset, "offset", 0, "skip this many runs")
	})
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "organize runs", "What": "[--limit N] [--offset N]"}))
	}
	closeFn, err := r.openOrganizer(ctx, false)
	if err != nil {
		return err
	}
	defer closeFn()
	res, err := r.api.Organizer.Runs(p)
	if err != nil {
		return err
	}
	r.out(res, func(w io.Writer) {
		if len(res.Runs) == 0 {
			fmt.Fprintln(w, r.t("cli.organize.runs_none", nil))
			return
		}
		for _, s := range res.Runs {
			r.organizerRunHead(w, s)
		}
		fmt.Fprintln(w, r.t("cli.organize.runs_hint", nil))
	})
	return nil
}

// organizeRun shows one run with every decision of its report.
func (r *runner) organizeRun(ctx context.Context, args []string) error {
	pos, err := r.flags("organize run", args, nil)
	if err != nil {
		return err
	}
	if err := r.need("organize run", "ID", pos, 1); err != nil {
		return err
	}
	closeFn, err := r.openOrganizer(ctx, false)
	if err != nil {
		return err
	}
	defer closeFn()
	d, err := r.api.Organizer.Run(api.OrganizerRunParams{ID: pos[0]})
	if err != nil {
		return err
	}
	r.out(d, func(w io.Writer) { r.printOrganizerRun(w, d) })
	return nil
}

// organizerRunHead is a run's line: when, the id, trigger and mode, status (or phase), what
// it did, the scope it was limited to and why it failed.
func (r *runner) organizerRunHead(w io.Writer, s api.OrganizerRunSummary) {
	status := r.word("organizer.status", string(s.Status))
	if s.Status == api.OrganizerRunning && s.Phase != "" {
		status += " · " + r.word("organizer.phase", string(s.Phase))
	}
	scope := ""
	if f := s.ScopeFilter; f != nil {
		owner := f.Key
		if f.Workdir != "" {
			owner = f.Workdir
		} else if f.Agent != "" {
			owner = f.Agent
		}
		scope = " · " + r.t("cli.organize.run_scope", map[string]any{"Scope": f.Scope, "Owner": owner})
	}
	fmt.Fprintln(w, r.t("cli.organize.run_row", map[string]any{"Started": s.StartedAt.Local().Format(time.DateTime),
		"ID": s.ID, "Trigger": r.word("organizer.trigger", string(s.Trigger)), "Mode": r.word("organizer.mode", string(s.Mode)),
		"Status": status, "Decisions": s.Counts.Decisions, "Applied": s.Counts.Applied, "Failed": s.Counts.Failed,
		"Removed": s.Counts.Removed, "Scope": scope}))
	if s.Error != nil {
		fmt.Fprintln(w, r.t("cli.organize.run_error", map[string]any{"Message": r.runErrorText(s.Error)}))
	}
}

// runErrorText is a run's coded failure in the person's language (error.<code>).
func (r *runner) runErrorText(e *api.OrganizerRunError) string {
	key := "error." + e.Code
	if r.env.Catalog == nil || !r.env.Catalog.Has(key) {
		return e.Message
	}
	args := map[string]any{"Detail": e.Message}
	for k, v := range e.Args {
		args[k] = v
	}
	return api.CodedText(r.env.Catalog, r.lang, key, args)
}

// printOrganizerRun prints a run and its report: every decision with its action, the
// memories it touches by title and slug, risk, confidence, where it stands and why, in words.
func (r *runner) printOrganizerRun(w io.Writer, d api.OrganizerRunDetail) {
	r.organizerRunHead(w, d.RunSummary)
	if d.ReportError != nil {
		fmt.Fprintln(w, r.t("cli.organize.run_error", map[string]any{"Message": r.runErrorText(d.ReportError)}))
	}
	rep := d.Report
	if rep == nil {
		return
	}
	pending := 0
	for _, dec := range rep.Decisions {
		if dec.Status == api.OrganizerDecisionPending {
			pending++
		}
	}
	fmt.Fprintln(w, r.t("cli.organize.run_counts", map[string]any{"Scanned": rep.Counts.Scanned, "Scopes": rep.Counts.Scopes,
		"Decisions": rep.Counts.Decisions, "Applied": rep.Counts.Applied, "Pending": pending, "Dropped": rep.Counts.Dropped,
		"Failed": rep.Counts.Failed, "Removed": rep.Counts.Removed}))
	// A scope under quota pressure says so, with what the run could not free: a run that
	// changed nothing on an exhausted scope said only "0 changes proposed".
	for _, sc := range rep.Scopes {
		if sc.Level == "" || sc.Level == "normal" {
			continue
		}
		name := scopeName(r, string(sc.Scope), sc.Workdir, sc.Key, sc.Agent)
		fmt.Fprintln(w, r.t("cli.organize.run_quota", map[string]any{"Scope": name, "Used": sc.Used, "Limit": sc.Limit,
			"Level": r.word("quota.level", sc.Level), "Headroom": sc.Headroom, "Over": sc.OverTarget, "Target": sc.Target}))
	}
	r.printModelProblems(w, rep)
	for _, dec := range rep.Decisions {
		r.printDecision(w, dec)
	}
	switch {
	case rep.Undo != nil:
		fmt.Fprintln(w, r.t("cli.organize.run_undone", map[string]any{"At": rep.Undo.At.Local().Format("2006-01-02 15:04"),
			"Undone": len(rep.Undo.Decisions), "Restored": rep.Undo.Restored, "Reverted": rep.Undo.Reverted}))
	case pending > 0 && d.Status == api.OrganizerDone:
		fmt.Fprintln(w, r.t("cli.organize.apply_hint", map[string]any{"ID": d.ID}))
	}
	if rep.Undo == nil && rep.Counts.Applied > 0 && d.Status == api.OrganizerDone {
		fmt.Fprintln(w, r.t("cli.organize.undo_hint", map[string]any{"ID": d.ID}))
	}
}

// printDecision is one decision in three or more lines.
func (r *runner) printDecision(w io.Writer, d api.OrganizerDecision) {
	status := r.word("organizer.decision_status", string(d.Status))
	// The bucket says why the run left it to a person, or why it refused it (a model's merge
	// across scopes, of a memory it made up, …): a refusal said only "Not applicable".
	if (d.Status == api.OrganizerDecisionPending || d.Status == api.OrganizerDecisionDropped) && d.Bucket != "" {
		status += " — " + r.word("organizer.bucket", d.Bucket)
	}
	action := r.word("organizer.action", string(d.Action))
	if action == "" {
		action = r.t("cli.organize.unreadable_action", nil) // a decision that could not be decoded
	}
	fmt.Fprintln(w, r.t("cli.organize.decision", map[string]any{"ID": d.ID, "Action": action, "Status": status}))
	var targets []string
	for _, t := range d.Targets {
		targets = append(targets, entryLabel(t))
	}
	if d.Action == api.OrganizerActionMerge && d.Into != nil {
		fmt.Fprintln(w, r.t("cli.organize.decision_merge", map[string]any{"Targets": strings.Join(targets, ", "), "Into": entryLabel(*d.Into)}))
	} else if len(targets) > 0 {
		fmt.Fprintln(w, r.t("cli.organize.decision_targets", map[string]any{"Targets": strings.Join(targets, ", ")}))
	}
	if id, ok := d.Reason.Args["Unknown"].(string); ok && id != "" {
		fmt.Fprintln(w, r.t("cli.organize.decision_unknown", map[string]any{"ID": flatText(id)}))
	}
	fmt.Fprintln(w, r.t("cli.organize.decision_why", map[string]any{"Risk": r.word("organizer.risk", string(d.Risk)),
		"Confidence": fmt.Sprintf("%.2f", d.Confidence), "Reason": r.reasonText(d)}))
	if d.Hint != "" {
		fmt.Fprintln(w, r.t("cli.organize.decision_hint", map[string]any{"Hint": flatText(d.Hint)}))
	}
	if res := d.Result; res != nil && res.Code != "" {
		fmt.Fprintln(w, r.t("cli.organize.decision_failed", map[string]any{"Message": res.Message}))
	}
}

// reasonText is why a decision was proposed: organizer.reason.<code> with its arguments (the
// tier in words, the score with two decimals), else the planner's own text.
func (r *runner) reasonText(d api.OrganizerDecision) string {
	key := "organizer.reason." + d.Reason.Code
	if d.Reason.Code == "" || r.env.Catalog == nil || !r.env.Catalog.Has(key) {
		return flatText(d.Reason.Text)
	}
	args := map[string]any{}
	for k, v := range d.Reason.Args {
		args[k] = v
	}
	if tier, ok := args["Tier"].(string); ok {
		args["Tier"] = r.word("organizer.tier", tier)
	}
	if score, ok := args["Score"].(float64); ok {
		args["Score"] = fmt.Sprintf("%.2f", score)
	}
	text := r.t(key, args)
	if d.Reason.Text != "" && d.Reason.Text != text {
		text += " " + r.t("cli.organize.planner_said", map[string]any{"Text": flatText(d.Reason.Text)})
	}
	return text
}

// entryLabel names a memory of a report by title and slug.
func entryLabel(e api.OrganizerEntryRef) string {
	if e.Title == "" || e.Title == e.Slug {
		return e.Slug
	}
	return "“" + e.Title + "” (" + e.Slug + ")"
}

// printModelProblems says where the run could not use the model's answer: the model not used
// at all, a scope grouped by type instead of by topic, ids of its grouping that were not
// memories of the scope, and each group planned offline (or not at all) because its plan was
// refused — as text instead of a tool call, cut short, too many decisions. Without these lines
// the report showed the offline planner's changes as if they were the model's.
func (r *runner) printModelProblems(w io.Writer, rep *api.OrganizerReport) {
	if rep.LLMFallback != nil {
		fmt.Fprintln(w, r.t("cli.organize.model_unused", map[string]any{"Message": r.runErrorText(rep.LLMFallback)}))
	}
	for _, sc := range rep.Clustering {
		q := api.ScopeQuota{Scope: sc.Scope, Key: sc.Key}
		for _, s := range rep.Scopes {
			if s.Scope == sc.Scope && s.Key == sc.Key {
				q.Workdir, q.Agent = s.Workdir, s.Agent
			}
		}
		scope := quotaScopeName(r, q)
		if sc.Fallback != nil {
			fmt.Fprintln(w, r.t("cli.organize.grouped_by_type", map[string]any{"Scope": scope, "Message": r.runErrorText(sc.Fallback)}))
		}
		if sc.UnknownIDs+sc.RepeatedIDs > 0 {
			fmt.Fprintln(w, r.t("cli.organize.grouping_ignored", map[string]any{"Scope": scope, "Unknown": sc.UnknownIDs,
				"Repeated": sc.RepeatedIDs}))
		}
	}
	// The groups the run did not ask the model about, after it failed for good, are one line:
	// each said the same (63 lines over a full scope).
	var stopped []api.OrganizerClusterReport
	for _, c := range rep.Clusters {
		if c.Error != nil && c.Error.Code == api.OrganizerLLMStopped {
			stopped = append(stopped, c)
		}
	}
	for _, c := range rep.Clusters {
		if c.Error == nil || (c.Status != api.OrganizerClusterFallback && c.Status != api.OrganizerClusterFailed) ||
			c.Error.Code == api.OrganizerLLMStopped {
			continue
		}
		key := "cli.organize.cluster_fallback"
		if c.Status == api.OrganizerClusterFailed {
			key = "cli.organize.cluster_failed"
		}
		fmt.Fprintln(w, r.t(key, map[string]any{"ID": c.ID, "Size": c.Size, "Message": r.runErrorText(c.Error)}))
	}
	if len(stopped) > 0 {
		size := 0
		for _, c := range stopped {
			size += c.Size
		}
		fmt.Fprintln(w, r.t("cli.organize.clusters_stopped", map[string]any{"Count": len(stopped), "Size": size,
			"First": stopped[0].ID, "Last": stopped[len(stopped)-1].ID, "Group": stopped[0].Error.Args["Group"]}))
	}
}

// flatText puts a model's text (a reason, a hint, an id it named) on one line: its line breaks
// printed lines of their own, which could read as changes of the report ("  d099  Delete ·
// Applied").
func flatText(s string) string { return strings.Join(strings.Fields(s), " ") }
