package organizer

import (
	"context"
	"encoding/json"

	"engram/backend/memory"
)

// applyDecisions snapshots the files ds will change, then applies every decision through
// memory.ApplyBatch as the organizer (one batch, or several of whole decisions when they hold
// more than memory.MaxBatchItems items), and records each decision's result. ds point into rep.
// The batch runs to its end even if ctx is cancelled: stopping between a merge's write and its
// deletes is exactly what group ordering exists to avoid.
func (s *Service) applyDecisions(ctx context.Context, runID string, rep *Report, all []*Decision, by string) error {
	now := s.clock.Now()
	// A decision whose entries changed or went away since the scan is not applied at all: a
	// merge must not write a keeper whose sources can no longer be removed as seen.
	var ds []*Decision
	for _, d := range all {
		if f := s.stale(ctx, d); f != nil {
			f.At, f.By = now, by
			d.Status, d.Result = DecisionFailed, f
			continue
		}
		ds = append(ds, d)
	}
	if len(ds) == 0 {
		rep.recount()
		return nil
	}
	var refs []EntryRef
	for _, d := range ds {
		if d.Into != nil {
			refs = append(refs, *d.Into)
		}
		refs = append(refs, d.Targets...)
	}
	dir, err := s.snaps.take(runID, refs)
	if err != nil {
		return wrapErr(CodeApplyFailed, err, "unable to snapshot the files before changing them")
	}
	if !contains(rep.Snapshots, dir) {
		rep.Snapshots = append(rep.Snapshots, dir)
	}
	results := make([]*DecisionResult, len(ds))
	for i := range ds {
		results[i] = &DecisionResult{At: now, By: by}
	}
	// One ApplyBatch holds at most memory.MaxBatchItems items, and a decision's items (a
	// merge's write and deletes: one group) must share a batch. A review applying more (a
	// manual run over a large store, "apply all") was refused whole with too_many_items.
	start := 0
	for start < len(ds) {
		var items []memory.Item
		var owner []int
		end := start
		for ; end < len(ds); end++ {
			its := itemsFor(ds[end])
			if len(items) > 0 && len(items)+len(its) > memory.MaxBatchItems {
				break
			}
			items = append(items, its...)
			for range its {
				owner = append(owner, end)
			}
		}
		res, err := s.store.ApplyBatch(context.WithoutCancel(ctx), memory.Batch{Items: items, Actor: memory.ActorOrganizer,
			Session: "organizer:" + runID})
		if err != nil {
			if start == 0 {
				return wrapErr(CodeApplyFailed, err, "unable to apply the decisions")
			}
			// Earlier batches were applied: those decisions keep their results, the rest fail
			// with the reason, and the report is saved so that it says what happened.
			f := wrapErr(CodeApplyFailed, err, "unable to apply the decisions")
			for i := start; i < len(ds); i++ {
				results[i].Code, results[i].I18nKey, results[i].Args, results[i].Message = f.Code, "error."+f.Code, f.Args, f.Error()
			}
			break
		}
		for k, ir := range res.Results {
			r := results[owner[k]]
			if ir.OK {
				switch items[k].Op {
				case memory.OpDelete:
					r.Removed++
				case memory.OpUpdate:
					if r.Versions == nil {
						r.Versions = map[string]string{}
					}
					r.Versions[items[k].ID] = ir.Version
				}
				continue
			}
			// The first real failure explains the decision; group_failed only follows from it.
			if r.Code == "" || (r.Code == memory.CodeGroupFailed && ir.Code != memory.CodeGroupFailed) {
				f := entryFailure(ir.Code, refFor(ds[owner[k]], items[k].ID), ir.Args, ir.Message)
				r.Code, r.I18nKey, r.Args, r.Message = f.Code, f.I18nKey, f.Args, f.Message
			}
		}
		start = end
	}
	for i, d := range ds {
		d.Result = results[i]
		d.Status = DecisionApplied
		if results[i].Code != "" {
			d.Status = DecisionFailed
		}
	}
	rep.recount()
	return nil
}

// stale checks a decision's entries against the index: each must still exist, live, at the
// version the run saw. It returns the failure of the first that does not, naming it.
func (s *Service) stale(ctx context.Context, d *Decision) *DecisionResult {
	refs := d.Targets
	if d.Into != nil {
		refs = append([]EntryRef{*d.Into}, refs...)
	}
	for _, ref := range refs {
		m, err := s.store.Get(ctx, ref.ID)
		switch {
		case err != nil && memory.CodeOf(err) == memory.CodeNotFound, err == nil && m.Archived:
			return entryFailure(memory.CodeNotFound, ref, nil,
				"organizer: unable to apply: "+ref.Slug+" was deleted or archived since the run read it")
		case err != nil:
			return entryFailure(memory.CodeOf(err), ref, errArgs(err), err.Error())
		case m.Version != ref.Version:
			return entryFailure(memory.CodeVersionConflict, ref, nil,
				"organizer: unable to apply: "+ref.Slug+" changed since the run read it")
		}
	}
	return nil
}

func contains(v []string, s string) bool {
	for _, x := range v {
		if x == s {
			return true
		}
	}
	return false
}

// ApplyParams choose decisions of a run's report to apply.
type ApplyParams struct {
	RunID       string   `json:"run_id"`
	DecisionIDs []string `json:"decision_ids"`
}

// DecisionOutcome is what applying one decision did. A failure has the shape of every coded
// error crossing api/: Code, the catalog key of its message (I18nKey), the Args that fill it
// (naming the memory at fault) and Message, English here and translated by api.
type DecisionOutcome struct {
	ID      string         `json:"id"`
	Status  DecisionStatus `json:"status"`
	Code    string         `json:"code,omitempty"`
	I18nKey string         `json:"i18n_key,omitempty"`
	Args    map[string]any `json:"args,omitempty"`
	Message string         `json:"message,omitempty"`
}

// ApplyResult is the outcome of ApplyReport.
type ApplyResult struct {
	RunID            string            `json:"run_id"`
	Decisions        []DecisionOutcome `json:"decisions"`
	Applied          int               `json:"applied"`
	Failed           int               `json:"failed"`
	FinalCount       int               `json:"final_count"`
	CompressionRatio float64           `json:"compression_ratio"`
	Snapshot         string            `json:"snapshot"`
}

// ApplyReport applies the chosen pending decisions of a finished run's report (a manual run's
// review, or what a scheduled run left for review): snapshot first, then one ApplyBatch as the
// organizer. Every decision is checked before anything changes; entries edited since the scan
// fail with version_conflict and a merge whose write fails deletes nothing.
func (s *Service) ApplyReport(ctx context.Context, runID string, decisionIDs []string) (ApplyResult, error) {
	if len(decisionIDs) == 0 {
		return ApplyResult{}, codeErr(CodeNoDecisions, nil, "unable to apply: no decisions chosen")
	}
	if err := s.acquireForReview(); err != nil {
		return ApplyResult{}, err
	}
	defer s.releaseForReview()

	row, err := s.runs.get(ctx, runID)
	if err != nil {
		return ApplyResult{}, err
	}
	if row.Status != StatusDone {
		return ApplyResult{}, codeErr(CodeReportUnavailable, map[string]any{"Run": runID, "Status": string(row.Status)},
			"unable to apply decisions of run %s: it is %s", runID, row.Status)
	}
	rep, err := parseReport(row.report)
	if err != nil {
		return ApplyResult{}, err
	}
	if rep == nil {
		return ApplyResult{}, codeErr(CodeReportUnavailable, map[string]any{"Run": runID, "Status": string(row.Status)},
			"unable to apply decisions of run %s: it has no report", runID)
	}
	if rep.Undo != nil {
		// A person took the run back: its waiting changes were planned on memories the undo
		// has since put back, and a second undo would be refused.
		return ApplyResult{}, codeErr(CodeRunUndone, map[string]any{"Run": runID}, "unable to apply decisions of run %s: it was undone", runID)
	}
	byID := map[string]*Decision{}
	for i := range rep.Decisions {
		byID[rep.Decisions[i].ID] = &rep.Decisions[i]
	}
	var picked []*Decision
	seen := map[string]bool{}
	for _, id := range decisionIDs {
		d, ok := byID[id]
		if !ok {
			return ApplyResult{}, codeErr(CodeDecisionNotFound, map[string]any{"Run": runID, "Decision": id},
				"unable to find decision %s in run %s", id, runID)
		}
		if d.Status != DecisionPending {
			return ApplyResult{}, codeErr(CodeDecisionNotPending, map[string]any{"Decision": id, "Status": string(d.Status)},
				"unable to apply decision %s: it is %s", id, d.Status)
		}
		if !seen[id] {
			seen[id] = true
			picked = append(picked, d)
		}
	}
	if err := s.applyDecisions(ctx, runID, rep, picked, "review"); err != nil {
		return ApplyResult{}, err
	}
	final := row.InitialCount - rep.Counts.Removed
	raw, _ := json.Marshal(rep)
	if err := s.runs.saveReport(context.WithoutCancel(ctx), runID, final, ratio(final, row.InitialCount), string(raw)); err != nil {
		return ApplyResult{}, err
	}
	out := ApplyResult{RunID: runID, FinalCount: final, CompressionRatio: ratio(final, row.InitialCount),
		Decisions: make([]DecisionOutcome, 0, len(picked)), Snapshot: ".snapshots/" + runID}
	for _, d := range picked {
		o := DecisionOutcome{ID: d.ID, Status: d.Status}
		if d.Result != nil {
			o.Code, o.I18nKey, o.Args, o.Message = d.Result.Code, d.Result.I18nKey, d.Result.Args, d.Result.Message
		}
		if d.Status == DecisionApplied {
			out.Applied++
		} else {
			out.Failed++
		}
		out.Decisions = append(out.Decisions, o)
	}
	return out, nil
}

// itemsFor renders a decision as apply_batch items: a merge is the keeper's replace-update
// and the others' deletes under one group_id, so the merged write lands before any delete and
// no delete happens if it failed. Every item carries the version seen at scan time.
func itemsFor(d *Decision) []memory.Item {
	var items []memory.Item
	switch d.Action {
	case ActionMergeInto:
		p := d.Preserved
		body, quote := p.Body, p.SourceQuote
		upd := memory.Item{Op: memory.OpUpdate, ID: d.Into.ID, GroupID: d.ID, Mode: "replace", Body: &body,
			Aliases: nonNil(p.Aliases), Tags: nonNil(p.Tags), Supersedes: nonNil(p.Supersedes), SourceQuote: &quote,
			Confidence: p.Confidence, ExpectedVersion: d.Into.Version}
		if p.Unreview {
			f := false
			upd.Reviewed = &f
		}
		items = append(items, upd)
		for _, t := range d.Targets {
			items = append(items, memory.Item{Op: memory.OpDelete, ID: t.ID, GroupID: d.ID, ExpectedVersion: t.Version})
		}
	case ActionDelete:
		for _, t := range d.Targets {
			items = append(items, memory.Item{Op: memory.OpDelete, ID: t.ID, GroupID: d.ID, ExpectedVersion: t.Version})
		}
	case ActionMarkReview:
		for _, t := range d.Targets {
			f := false
			items = append(items, memory.Item{Op: memory.OpUpdate, ID: t.ID, GroupID: d.ID, Mode: "merge",
				Tags: []string{ReviewTag}, Reviewed: &f, ExpectedVersion: t.Version})
		}
	}
	return items
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}
