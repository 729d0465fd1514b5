package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"engram/backend/api"
)

// organizeSubs are the sub-verbs of `engram organize`, each one organizer.* method; without
// one, `engram organize` runs the organizer now (organizer.runNow) and waits for the run.
// Before, only the desktop app and engram serve's web UI reached the organizer.
var organizeSubs = map[string]func(r *runner, ctx context.Context, args []string) error{
	"runs":     (*runner).organizeRuns,
	"run":      (*runner).organizeRun,
	"apply":    (*runner).organizeApply,
	"undo":     (*runner).organizeUndo,
	"abort":    (*runner).organizeAbort,
	"settings": (*runner).organizeSettings,
	"status":   (*runner).organizeStatus,
}

// organizeWaitPoll is how often a waiting `engram organize` reads where its run stands.
const organizeWaitPoll = 200 * time.Millisecond

// organize dispatches `engram organize [SUB] …`.
func (r *runner) organize(ctx context.Context, args []string) error {
	if len(args) > 0 {
		if sub, ok := organizeSubs[args[0]]; ok {
			return sub(r, ctx, args[1:])
		}
	}
	return r.organizeNow(ctx, args)
}

// openOrganizer opens the home once the command line is read: with Env.OpenRunner when the
// run is waited for (this process may then execute it), else with Env.Open.
func (r *runner) openOrganizer(ctx context.Context, runs bool) (func() error, error) {
	open := r.env.Open
	if runs && r.env.OpenRunner != nil {
		open = r.env.OpenRunner
	}
	return r.open(ctx, open, "organize")
}

func (r *runner) organizeUsage() error {
	return usageError(r.t("cli.missing_arg", map[string]any{"Command": "organize", "What": r.t("cli.organize.usage", nil)}))
}

// organizeNow asks for a run (manual: a report to review; --scheduled: what the gate allows is
// applied, as the timer's runs do) for every scope or the one the scope flags name. It waits
// for the run, telling its phases on stderr, and prints its report; --no-wait only queues it
// for the app or engram serve (or the next engram organize). A run already under way on the
// home (in the app, serve or another engram organize) is waited for: the home's run lock lets
// one run at a time, and the queued run is taken once, by whichever process is free first.
func (r *runner) organizeNow(ctx context.Context, args []string) error {
	var sc scopeFlags
	var noWait, scheduled bool
	pos, err := r.flags("organize", args, func(fs *flag.FlagSet) {
		sc.define(fs)
		fs.BoolVar(&noWait, "no-wait", false, "only ask for the run: the app, engram serve or the next engram organize runs it")
		fs.BoolVar(&scheduled, "scheduled", false, "apply what the mode allows on its own, as a scheduled run does")
	})
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return r.organizeUsage()
	}
	p := api.OrganizerRunNowParams{}
	if sc.scope != "" || sc.workdir != "" || sc.agent != "" {
		p.Scope, p.Workdir, p.Agent = api.Scope(sc.orDefault()), sc.workdir, sc.agent
	}
	if scheduled {
		p.Trigger = api.OrganizerTriggerScheduled
	}
	closeFn, err := r.openOrganizer(ctx, !noWait)
	if err != nil {
		return err
	}
	defer closeFn()
	ref, err := r.api.Organizer.RunNow(p)
	if err != nil {
		return err
	}
	if noWait {
		r.out(ref, func(w io.Writer) {
			fmt.Fprintln(w, r.t("cli.organize.queued", map[string]any{"ID": ref.ID}))
		})
		return nil
	}
	d, err := r.waitOrganizer(ctx, ref.ID)
	if err != nil {
		return err
	}
	r.out(d, func(w io.Writer) { r.printOrganizerRun(w, d) })
	if d.Status != api.OrganizerDone {
		return errSilent
	}
	return nil
}

// waitOrganizer reads the run until it has ended, saying on stderr when it waits for another
// run and each phase it enters. Ctrl-C stops waiting: a run under way in this process is
// stopped as the process closes; one queued behind another process's run stays queued.
func (r *runner) waitOrganizer(ctx context.Context, id string) (api.OrganizerRunDetail, error) {
	tick := time.NewTicker(organizeWaitPoll)
	defer tick.Stop()
	said := ""
	for {
		d, err := r.api.Organizer.Run(api.OrganizerRunParams{ID: id})
		if err != nil {
			if ctx.Err() != nil {
				return d, fmt.Errorf("%s", r.t("cli.organize.interrupted", map[string]any{"ID": id}))
			}
			return d, err
		}
		line := ""
		switch d.Status {
		case api.OrganizerDone, api.OrganizerFailed, api.OrganizerAborted:
			return d, nil
		case api.OrganizerQueued:
			line = r.organizeWaitingLine(id)
		case api.OrganizerRunning:
			line = r.t("cli.organize.phase", map[string]any{"Phase": r.word("organizer.phase", string(d.Phase))})
			if pr := d.Progress; pr != nil && pr.Total > 0 {
				line = r.t("cli.organize.phase_count", map[string]any{"Phase": r.word("organizer.phase", string(d.Phase)),
					"Done": pr.Done, "Total": pr.Total})
			}
		}
		if line != "" && line != said {
			fmt.Fprintln(r.env.Stderr, line)
			said = line
		}
		select {
		case <-ctx.Done():
			return d, fmt.Errorf("%s", r.t("cli.organize.interrupted", map[string]any{"ID": id}))
		case <-tick.C:
		}
	}
}

// organizeWaitingLine says what the queued run waits for: a run in another process, one
// asked for earlier that this process runs first, or a process holding the run lock with no
// run under way (a review being applied).
func (r *runner) organizeWaitingLine(id string) string {
	st, err := r.api.Organizer.Status(api.Empty{})
	switch {
	case err != nil || st.Active == nil:
		return r.t("cli.organize.waiting_lock", map[string]any{"ID": id})
	case st.Active.Progress != nil: // only this process knows a run's progress
		return r.t("cli.organize.waiting_earlier", map[string]any{"ID": id, "Active": st.Active.ID})
	}
	return r.t("cli.organize.waiting", map[string]any{"ID": id, "Active": st.Active.ID})
}

// organizeAbort stops a run: the named one (queued or running, in this or another process)
// or, without ID, the one under way. A run that has ended is said to have ended.
func (r *runner) organizeAbort(ctx context.Context, args []string) error {
	pos, err := r.flags("organize abort", args, nil)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "organize abort", "What": "[ID]"}))
	}
	closeFn, err := r.openOrganizer(ctx, false)
	if err != nil {
		return err
	}
	defer closeFn()
	p := api.OrganizerAbortParams{}
	if len(pos) == 1 {
		p.RunID = pos[0]
	}
	ref, err := r.api.Organizer.Abort(p)
	if err != nil {
		var ae *api.Error
		if p.RunID != "" && errors.As(err, &ae) && ae.Code == api.OrganizerNothingToAbort {
			if d, derr := r.api.Organizer.Run(api.OrganizerRunParams{ID: p.RunID}); derr == nil {
				return fmt.Errorf("%s", r.t("cli.organize.abort_ended", map[string]any{"ID": d.ID,
					"Status": r.word("organizer.status", string(d.Status))}))
			}
		}
		return err
	}
	r.out(ref, func(w io.Writer) {
		key := "cli.organize.aborted"
		if ref.Status == api.OrganizerRunning {
			key = "cli.organize.abort_applying"
		}
		fmt.Fprintln(w, r.t(key, map[string]any{"ID": ref.ID}))
	})
	return nil
}

// organizeApply applies chosen decisions of a finished run's report (a person's review: the
// CLI acts as the user), or with --all every one still waiting for review.
func (r *runner) organizeApply(ctx context.Context, args []string) error {
	var all bool
	pos, err := r.flags("organize apply", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&all, "all", false, "apply every change still waiting for review")
	})
	if err != nil {
		return err
	}
	what := "ID DECISION... | ID --all"
	if err := r.need("organize apply", what, pos, 1); err != nil {
		return err
	}
	if all == (len(pos) > 1) {
		return usageError(r.t("cli.missing_arg", map[string]any{"Command": "organize apply", "What": what}))
	}
	closeFn, err := r.openOrganizer(ctx, false)
	if err != nil {
		return err
	}
	defer closeFn()
	p := api.OrganizerApplyParams{RunID: pos[0], DecisionIDs: pos[1:]}
	if all {
		d, err := r.api.Organizer.Run(api.OrganizerRunParams{ID: p.RunID})
		if err != nil {
			return err
		}
		if d.Report != nil {
			for _, dec := range d.Report.Decisions {
				if dec.Status == api.OrganizerDecisionPending {
					p.DecisionIDs = append(p.DecisionIDs, dec.ID)
				}
			}
		}
		if len(p.DecisionIDs) == 0 && d.Status == api.OrganizerDone {
			r.out(api.OrganizerApplyResult{RunID: d.ID, Decisions: []api.OrganizerApplyOutcome{}}, func(w io.Writer) {
				fmt.Fprintln(w, r.t("cli.organize.nothing_pending", map[string]any{"ID": d.ID}))
			})
			return nil
		}
	}
	res, err := r.api.Organizer.ApplyReport(p)
	if err != nil {
		return err
	}
	r.out(res, func(w io.Writer) {
		for _, o := range res.Decisions {
			if o.Status == api.OrganizerDecisionApplied {
				fmt.Fprintln(w, r.t("cli.organize.apply_done", map[string]any{"Decision": o.ID}))
			} else {
				fmt.Fprintln(w, r.t("cli.organize.apply_failed", map[string]any{"Decision": o.ID, "Message": o.Message}))
			}
		}
		fmt.Fprintln(w, r.t("cli.organize.apply_summary", map[string]any{"ID": res.RunID, "Applied": res.Applied,
			"Failed": res.Failed, "Snapshot": res.Snapshot}))
	})
	if res.Failed > 0 {
		return errSilent
	}
	return nil
}

// word is the catalog's word for a value of a vocabulary (organizer.phase.scan), or the value
// itself when the catalog has none.
func (r *runner) word(section, value string) string {
	key := section + "." + value
	if value == "" || r.env.Catalog == nil || !r.env.Catalog.Has(key) {
		return value
	}
	return r.t(key, nil)
}
