package organizer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"

	"engram/backend/memory"
)

// errAborted stops a run: Abort was called here, or another process marked the row aborted.
var errAborted = errors.New("organizer: unable to continue: the run was aborted")

// scopeGroup is the live ordinary memories of one scope instance at scan time.
type scopeGroup struct {
	inst    ScopeInstance
	scan    int // index into report.Scopes
	entries []*memory.Memory
}

// runner executes one run: scan → cluster → plan → gate → apply, recording each phase.
type runner struct {
	s       *Service
	id      string
	trigger Trigger
	mode    Mode
	// only limits the run to one scope instance (nil: every scope).
	only     *ScopeInstance
	settings Settings
	report   *Report

	// The run's clusterer (nil: structural groups) and planner, chosen at its start; fallback
	// plans a cluster the planner failed on (the offline planner behind a model).
	clusterer Clusterer
	planner   Planner
	fallback  Planner

	entries map[string]*memory.Memory
	// restored holds the entries a person restored after the organizer removed them.
	restored map[string]bool
	// llmStop stops asking the model once it has failed for good.
	llmStop breaker
	// corpus is every entry scanned, analysed once, and how rare each word is in the store.
	corpus   *Corpus
	groups   []*scopeGroup
	clusters []Cluster
	inv      []InventoryItem

	phase    Phase
	initial  int
	headroom int
	tokens   int
	applied  bool // the apply batch ran: the run must finish as done whatever else happens
	done     int
	total    int
}

// addUsage adds what a phase's model calls cost to the run's total and the report's phase.
func (r *runner) addUsage(ph Phase, u Usage) {
	if u.Total() <= 0 {
		return
	}
	r.tokens += u.Total()
	if r.report.TokenUsage == nil {
		r.report.TokenUsage = map[Phase]Usage{}
	}
	t := r.report.TokenUsage[ph]
	t.InputTokens += u.InputTokens
	t.OutputTokens += u.OutputTokens
	r.report.TokenUsage[ph] = t
}

func (r *runner) row() progressRow {
	raw, _ := json.Marshal(r.report)
	final := r.initial - r.report.Counts.Removed
	return progressRow{phase: r.phase, initial: r.initial, final: final, ratio: ratio(final, r.initial),
		headroom: r.headroom, tokens: r.tokens, report: string(raw), reportChange: true}
}

// ratio is final_count / initial_count: 1 when nothing was removed, lower when the store shrank.
func ratio(final, initial int) float64 {
	if initial <= 0 {
		return 1
	}
	return math.Round(float64(final)/float64(initial)*10000) / 10000
}

// enter starts a phase: it records the row (noticing an abort from another process) and
// tells the progress listener.
func (r *runner) enter(ctx context.Context, ph Phase, total int) error {
	if err := ctx.Err(); err != nil {
		return errAborted
	}
	r.phase, r.done, r.total = ph, 0, total
	ok, err := r.s.runs.update(context.WithoutCancel(ctx), r.id, r.row())
	if err != nil {
		return err
	}
	if !ok {
		return errAborted
	}
	r.s.progress(Progress{RunID: r.id, Phase: ph, Status: StatusRunning, Done: 0, Total: total})
	return nil
}

// step reports progress inside a phase and checks for an abort.
func (r *runner) step(ctx context.Context, done int, checkRow bool) error {
	r.done = done
	r.s.progress(Progress{RunID: r.id, Phase: r.phase, Status: StatusRunning, Done: done, Total: r.total})
	if ctx.Err() != nil {
		return errAborted
	}
	if checkRow {
		p := r.row()
		p.reportChange = false
		ok, err := r.s.runs.update(context.WithoutCancel(ctx), r.id, p)
		if err != nil {
			return err
		}
		if !ok {
			return errAborted
		}
	}
	return nil
}

// run executes the pipeline. A panic inside becomes a failed run, never a crashed app.
func (r *runner) run(ctx context.Context) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.s.log.Error("organizer: run panicked", "run", r.id, "panic", p, "stack", string(debug.Stack()))
			err = codeErr(CodeInternal, map[string]any{"Detail": fmt.Sprint(p)}, "unable to finish the run: %v", p)
		}
	}()
	if err := r.enter(ctx, PhaseScan, 0); err != nil {
		return err
	}
	if n, err := r.s.snaps.prune(r.s.retention); err != nil {
		r.s.log.Warn("organizer: unable to prune snapshots", "err", err)
	} else if n > 0 {
		r.s.log.Info("organizer: pruned old snapshots", "count", n)
	}
	if err := r.scan(ctx); err != nil {
		if ctx.Err() != nil {
			return errAborted
		}
		return err
	}

	if err := r.enter(ctx, PhaseCluster, len(r.groups)); err != nil {
		return err
	}
	for i, g := range r.groups {
		cs, err := r.cluster(ctx, g)
		if err != nil {
			return errAborted // only cancellation fails structural clustering
		}
		for _, c := range cs {
			c.ID = fmt.Sprintf("c%03d", len(r.clusters)+1)
			r.clusters = append(r.clusters, c)
		}
		if err := r.step(ctx, i+1, false); err != nil {
			return err
		}
	}
	r.report.Counts.Clusters = len(r.clusters)
	clusterOf := make(map[string]string, len(r.entries))
	for _, c := range r.clusters {
		for _, m := range c.Entries {
			clusterOf[m.ID] = c.ID
		}
	}
	for i := range r.inv {
		r.inv[i].Cluster = clusterOf[r.inv[i].ID]
	}

	if err := r.enter(ctx, PhasePlan, len(r.clusters)); err != nil {
		return err
	}
	proposals := make([][]Proposal, len(r.clusters))
	for i, c := range r.clusters {
		planner, skipped := r.planner, r.fallback != nil && r.llmStop.tripped != nil
		if skipped {
			planner = r.fallback // the model failed for good earlier in this run
		}
		out, err := r.plan(ctx, planner, c)
		cr := ClusterReport{ID: c.ID, Key: c.Key, Topic: c.Topic, Scope: c.Scope.Scope, ScopeKey: c.Scope.Key, Size: len(c.Entries),
			EntryIDs: make([]string, 0, len(c.Entries)), Status: ClusterOK, Planner: planner.Name()}
		for _, m := range c.Entries {
			cr.EntryIDs = append(cr.EntryIDs, m.ID)
		}
		r.addUsage(PhasePlan, out.Usage)
		switch {
		case skipped:
			cr.Status, cr.Error = ClusterFallback, r.llmStop.stopped()
			r.report.Counts.ClustersFallback++
		case r.fallback != nil && ctx.Err() == nil:
			r.llmStop.note(c.ID, runErrorOf(err))
		}
		if err != nil && ctx.Err() == nil && r.fallback != nil && !skipped {
			// The model failed this cluster only: the offline planner plans it instead.
			cr.Status, cr.Error, cr.Planner = ClusterFallback, runErrorOf(err), r.fallback.Name()
			r.report.Counts.ClustersFallback++
			r.s.log.Warn("organizer: the model failed a cluster; planning it offline", "run", r.id, "cluster", c.Key, "err", err)
			out, err = r.plan(ctx, r.fallback, c)
		}
		if err != nil {
			if ctx.Err() != nil {
				return errAborted
			}
			cr.Status, cr.Error = ClusterFailed, runErrorOf(err)
			r.report.Counts.ClustersFailed++
			r.s.log.Warn("organizer: cluster failed; the run goes on", "run", r.id, "cluster", c.Key, "err", err)
		} else {
			proposals[i] = out.Proposals
		}
		r.report.Clusters = append(r.report.Clusters, cr)
		if err := r.step(ctx, i+1, true); err != nil {
			return err
		}
	}

	if err := r.enter(ctx, PhaseGate, len(r.clusters)); err != nil {
		return err
	}
	r.gate(proposals)
	r.limitBatch()

	var auto []*Decision
	for i := range r.report.Decisions {
		if r.report.Decisions[i].Outcome == OutcomeAuto {
			auto = append(auto, &r.report.Decisions[i])
		}
	}
	if err := r.enter(ctx, PhaseApply, len(auto)); err != nil {
		return err
	}
	if r.trigger == TriggerScheduled && len(auto) > 0 {
		r.applied = true
		if err := r.s.applyDecisions(ctx, r.id, r.report, auto, "run"); err != nil {
			return err
		}
		r.done = len(auto)
		r.s.progress(Progress{RunID: r.id, Phase: PhaseApply, Status: StatusRunning, Done: len(auto), Total: len(auto)})
	}
	return nil
}
