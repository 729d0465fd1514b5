package organizer

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"engram/backend/memory"
)

// Codes of an undo refused whole.
const (
	// CodeUndoPersonOnly: only a person (the window, the CLI, a browser through the bridge)
	// undoes a run; an agent never takes back what a person or the organizer decided.
	CodeUndoPersonOnly = "organizer_undo_person_only"
	// CodeUndoDone: the run was undone already; a second undo would put back what the first
	// one brought back.
	CodeUndoDone = "organizer_undo_done"
	// CodeNothingToUndo: the run applied no change (a manual run not reviewed, nothing applied).
	CodeNothingToUndo = "organizer_nothing_to_undo"
	// CodeRunUndone refuses applying a decision of a run that was undone.
	CodeRunUndone = "organizer_run_undone"
)

// Catalog keys saying why one change of a run was left as it is by an undo, naming the memory
// ({{.Title}}, {{.Slug}}) and the change ({{.Decision}}).
const (
	KeyUndoChanged    = "organizer.undo.changed"
	KeyUndoGone       = "organizer.undo.gone"
	KeyUndoNoSnapshot = "organizer.undo.no_snapshot"
	// KeyUndoNotInTrash: a memory the run removed is no longer in the trash (emptied since).
	KeyUndoNotInTrash = "organizer.undo.not_in_trash"
)

// Where an undone change stands (UndoItem.Status).
const (
	UndoReady    = "ready"    // a preview: it would be undone
	UndoDone     = "undone"   // it was undone
	UndoConflict = "conflict" // a memory changed after the run: left as it is
	UndoFailed   = "failed"   // the store refused putting something back
)

// UndoParams name the run to undo; DryRun previews it without changing anything.
type UndoParams struct {
	RunID  string `json:"run_id"`
	DryRun bool   `json:"dry_run"`
}

// UndoItem is one applied change of the run and what undoing it does: the memories that come
// back from the trash (Restore), those whose earlier text and fields are put back (Revert),
// those already back (AlreadyBack, restored by a person since), and why it was left (Problems).
type UndoItem struct {
	Decision    string            `json:"decision"`
	Action      Action            `json:"action"`
	Status      string            `json:"status"`
	Restore     []EntryRef        `json:"restore"`
	Revert      []EntryRef        `json:"revert"`
	AlreadyBack []EntryRef        `json:"already_back"`
	Problems    []*DecisionResult `json:"problems"`
}

// UndoResult is what UndoRun did (or, for a preview, would do).
type UndoResult struct {
	RunID     string     `json:"run_id"`
	DryRun    bool       `json:"dry_run"`
	Items     []UndoItem `json:"items"`
	Undone    int        `json:"undone"`
	Conflicts int        `json:"conflicts"`
	Restored  int        `json:"restored"`
	Reverted  int        `json:"reverted"`
}

// UndoRecord is stored in the run's report once it was undone.
type UndoRecord struct {
	At        time.Time `json:"at"`
	By        string    `json:"by"`
	Decisions []string  `json:"decisions"`
	Conflicts int       `json:"conflicts"`
	Restored  int       `json:"restored"`
	Reverted  int       `json:"reverted"`
}

// UndoRun takes back what an applied run changed: the memories it merged away or deleted come
// back from the trash, and the memories it rewrote (a merge's keeper with the aliases and
// supersedes it added, a mark_review's tag) get their earlier file back from the run's snapshot.
//
// A change whose memories moved after the run (edited by a person or an agent, deleted,
// archived, or its snapshot pruned) is left whole as it is and reported by memory, while the
// other changes are undone. A trustworthy store never overwrites a later write with an older
// copy, and never takes half a merge back (its sources live again beside a keeper still saying
// it replaced them); but holding every other change hostage to one edited memory would leave
// the person with no undo at all. Each change is independent (the run applied it as one group),
// so undoing change by change keeps every memory whole. DryRun returns the same plan without
// changing anything: the window's confirmation shows it.
//
// The changes are made as actor (a person only: CodeUndoPersonOnly otherwise) under the session
// "organizer-undo:<run>", so Activity lists every one; a restored memory counts as restored by a
// person, so later runs leave it alone. The run's report records the undo; a second one is
// refused (CodeUndoDone). Nothing is recorded when no change could be undone.
func (s *Service) UndoRun(ctx context.Context, p UndoParams, actor string) (UndoResult, error) {
	if actor != memory.ActorUser && actor != memory.ActorBridge {
		return UndoResult{}, codeErr(CodeUndoPersonOnly, map[string]any{"Run": p.RunID}, "only a person may undo run %s", p.RunID)
	}
	if err := s.acquireForReview(); err != nil {
		return UndoResult{}, err
	}
	defer s.releaseForReview()
	row, err := s.runs.get(ctx, p.RunID)
	if err != nil {
		return UndoResult{}, err
	}
	rep, err := parseReport(row.report)
	if err != nil {
		return UndoResult{}, err
	}
	if row.Status != StatusDone || rep == nil {
		return UndoResult{}, codeErr(CodeNothingToUndo, map[string]any{"Run": p.RunID}, "run %s changed nothing to undo", p.RunID)
	}
	if rep.Undo != nil {
		return UndoResult{}, codeErr(CodeUndoDone, map[string]any{"Run": p.RunID, "At": rep.Undo.At.Format(time.RFC3339)},
			"run %s was undone already", p.RunID)
	}
	out := UndoResult{RunID: p.RunID, DryRun: p.DryRun, Items: []UndoItem{}}
	var plans []*undoPlan
	for i := range rep.Decisions {
		d := &rep.Decisions[i]
		if d.Status != DecisionApplied || (d.Action != ActionMergeInto && d.Action != ActionDelete && d.Action != ActionMarkReview) {
			continue
		}
		plans = append(plans, s.planUndo(ctx, p.RunID, d))
	}
	if len(plans) == 0 {
		return UndoResult{}, codeErr(CodeNothingToUndo, map[string]any{"Run": p.RunID}, "run %s changed nothing to undo", p.RunID)
	}
	batch := func(items []memory.Item) (memory.BatchResult, error) {
		return s.store.ApplyBatch(context.WithoutCancel(ctx), memory.Batch{Items: items, Actor: actor, Session: "organizer-undo:" + p.RunID})
	}
	var undone []string
	for _, pl := range plans {
		if pl.item.Status == UndoReady && !p.DryRun {
			pl.apply(batch)
		}
		switch pl.item.Status {
		case UndoReady, UndoDone:
			out.Undone++
			out.Restored += len(pl.item.Restore)
			out.Reverted += len(pl.item.Revert)
			if pl.item.Status == UndoDone {
				undone = append(undone, pl.item.Decision)
			}
		default:
			out.Conflicts++
		}
		out.Items = append(out.Items, pl.item)
	}
	if p.DryRun || len(undone) == 0 {
		return out, nil
	}
	rep.Undo = &UndoRecord{At: s.clock.Now(), By: actor, Decisions: undone, Conflicts: out.Conflicts,
		Restored: out.Restored, Reverted: out.Reverted}
	final := row.FinalCount + out.Restored
	raw, _ := json.Marshal(rep)
	if err := s.runs.saveReport(context.WithoutCancel(ctx), p.RunID, final, ratio(final, row.InitialCount), string(raw)); err != nil {
		return out, err
	}
	return out, nil
}

// undoPlan is one change to take back: its item (what the caller sees) and the updates that
// put the rewritten memories back, each at the version checked.
type undoPlan struct {
	item    UndoItem
	reverts []memory.Item
}

// planUndo checks a decision's memories against the store and the run's snapshot.
func (s *Service) planUndo(ctx context.Context, runID string, d *Decision) *undoPlan {
	pl := &undoPlan{item: UndoItem{Decision: d.ID, Action: d.Action, Status: UndoReady, Restore: []EntryRef{},
		Revert: []EntryRef{}, AlreadyBack: []EntryRef{}, Problems: []*DecisionResult{}}}
	problem := func(key string, ref EntryRef, msg string) {
		f := entryFailure(memory.CodeVersionConflict, ref, map[string]any{"Decision": d.ID}, msg)
		f.I18nKey = key
		pl.item.Problems = append(pl.item.Problems, f)
	}
	var removed, rewritten []EntryRef
	switch d.Action {
	case ActionMergeInto:
		removed, rewritten = d.Targets, []EntryRef{*d.Into}
	case ActionDelete:
		removed = d.Targets
	case ActionMarkReview:
		rewritten = d.Targets
	}
	for _, ref := range removed {
		m, err := s.store.Get(ctx, ref.ID)
		switch {
		case err == nil && !m.Archived:
			pl.item.AlreadyBack = append(pl.item.AlreadyBack, ref)
		case err == nil:
			// Brought back and archived since: a person's later choice, kept.
			problem(KeyUndoGone, ref, "organizer: unable to undo: "+ref.Slug+" was archived after the run")
		case memory.CodeOf(err) == memory.CodeNotFound:
			// In the trash (the restore says so if it is no longer there).
			pl.item.Restore = append(pl.item.Restore, ref)
		default:
			pl.item.Problems = append(pl.item.Problems, entryFailure(memory.CodeOf(err), ref, errArgs(err), err.Error()))
		}
	}
	for _, ref := range rewritten {
		m, err := s.store.Get(ctx, ref.ID)
		if (err != nil && memory.CodeOf(err) == memory.CodeNotFound) || (err == nil && m.Archived) {
			problem(KeyUndoGone, ref, "organizer: unable to undo: "+ref.Slug+" was deleted or archived after the run")
			continue
		}
		if err != nil {
			pl.item.Problems = append(pl.item.Problems, entryFailure(memory.CodeOf(err), ref, errArgs(err), err.Error()))
			continue
		}
		if !leftByRun(d, m) {
			problem(KeyUndoChanged, ref, "organizer: unable to undo: "+ref.Slug+" was changed after the run")
			continue
		}
		old, ok := s.snaps.find(runID, ref.ID, ref.Version)
		if !ok {
			problem(KeyUndoNoSnapshot, ref, "organizer: unable to undo: the run's copy of "+ref.Slug+" is gone")
			continue
		}
		body, quote := old.Body, old.SourceQuote
		reviewed := old.Reviewed
		pl.reverts = append(pl.reverts, memory.Item{Op: memory.OpUpdate, ID: ref.ID, Mode: "replace", Body: &body,
			Aliases: nonNil(old.Aliases), Tags: nonNil(old.Tags), Supersedes: nonNil(old.Supersedes), SourceQuote: &quote,
			Confidence: old.Confidence, Reviewed: &reviewed, ExpectedVersion: m.Version})
		pl.item.Revert = append(pl.item.Revert, ref)
	}
	if len(pl.item.Problems) > 0 {
		pl.item.Status = UndoConflict
	}
	return pl
}

// leftByRun reports whether m is as decision d left it: at the version the run recorded, or,
// for a run applied before versions were recorded, holding what the change wrote.
func leftByRun(d *Decision, m *memory.Memory) bool {
	if d.Result != nil && d.Result.Versions != nil {
		v, ok := d.Result.Versions[m.ID]
		return ok && v == m.Version
	}
	switch d.Action {
	case ActionMergeInto:
		p := d.Preserved
		return p != nil && strings.TrimSpace(m.Body) == strings.TrimSpace(p.Body) &&
			slices.Equal(nonNil(m.Aliases), nonNil(p.Aliases)) && slices.Equal(nonNil(m.Supersedes), nonNil(p.Supersedes))
	case ActionMarkReview:
		return !m.Reviewed && contains(m.Tags, ReviewTag)
	}
	return false
}

// apply restores the removed memories first, then puts the rewritten ones back: a keeper loses
// the merged text only once every memory it came from is live again.
func (pl *undoPlan) apply(batch func([]memory.Item) (memory.BatchResult, error)) {
	add := func(it memory.Item, code string, args map[string]any, msg string) {
		f := entryFailure(code, pl.refOf(it.ID), args, msg)
		f.Args["Decision"] = pl.item.Decision
		switch {
		case code == memory.CodeVersionConflict:
			f.I18nKey = KeyUndoChanged
		case code == memory.CodeNotFound && it.Op == memory.OpRestore:
			f.I18nKey = KeyUndoNotInTrash
		case code == memory.CodeNotFound:
			f.I18nKey = KeyUndoGone
		}
		pl.item.Problems = append(pl.item.Problems, f)
	}
	fail := func(items []memory.Item, res memory.BatchResult, err error) bool {
		failed := false
		for k, it := range items {
			switch {
			case err != nil:
				add(it, memory.CodeOf(err), errArgs(err), err.Error())
				return true
			case k < len(res.Results) && !res.Results[k].OK:
				ir := res.Results[k]
				add(it, ir.Code, ir.Args, ir.Message)
				failed = true
			}
		}
		return failed
	}
	var restores []memory.Item
	for _, ref := range pl.item.Restore {
		restores = append(restores, memory.Item{Op: memory.OpRestore, ID: ref.ID})
	}
	for _, step := range [][]memory.Item{restores, pl.reverts} {
		if len(step) == 0 {
			continue
		}
		res, err := batch(step)
		if fail(step, res, err) {
			pl.item.Status = UndoFailed
			return
		}
	}
	pl.item.Status = UndoDone
}

func (pl *undoPlan) refOf(id string) EntryRef {
	for _, refs := range [][]EntryRef{pl.item.Restore, pl.item.Revert} {
		for _, r := range refs {
			if r.ID == id {
				return r
			}
		}
	}
	return EntryRef{ID: id}
}

// find reads the file a run snapshotted for memory id at version.
func (sn snapshots) find(runID, id, version string) (*memory.Memory, bool) {
	dir := sn.dir(runID)
	raw, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return nil, false
	}
	var man snapshotManifest
	if json.Unmarshal(raw, &man) != nil {
		return nil, false
	}
	for _, f := range man.Files {
		if f.ID != id || f.Version != version {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.File)))
		if err != nil {
			return nil, false
		}
		m, err := memory.Parse(data)
		if err != nil || m.ID != id {
			return nil, false
		}
		return m, true
	}
	return nil, false
}
