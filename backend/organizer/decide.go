package organizer

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"time"

	"engram/backend/memory"
)

// BucketBatchLimit: an auto decision left for review because the run's one batch was full.
const BucketBatchLimit = "batch_limit"

// plan runs the planner on one cluster; a panic fails the cluster only.
func (r *runner) plan(ctx context.Context, c Cluster) (out PlanOutput, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.s.log.Error("organizer: planner panicked", "cluster", c.Key, "panic", p, "stack", string(debug.Stack()))
			err = codeErr(CodeInternal, map[string]any{"Detail": fmt.Sprint(p)}, "unable to plan cluster %s: %v", c.Key, p)
		}
	}()
	var sq ScopeScan
	for _, s := range r.report.Scopes {
		if s.Scope == c.Scope.Scope && s.Key == c.Scope.Key {
			sq = s
		}
	}
	return r.s.planner.Plan(ctx, PlanInput{RunID: r.id, Trigger: r.trigger, Mode: r.mode, Cluster: c, Inventory: r.inv,
		Quota: sq, Now: r.s.clock.Now(), ReviewAfter: timeDays(r.settings.ReviewAfterDays)})
}

// gate validates every proposal, recomputes its risk and decides its outcome.
func (r *runner) gate(props [][]Proposal) {
	claimed := map[string]bool{}
	for ci, ps := range props {
		for _, p := range ps {
			if p.Action == ActionKeep {
				r.report.Counts.Keep += len(p.Targets)
				continue
			}
			d := decide(r.trigger, r.mode, r.clusters[ci], p, r.entries, claimed)
			d.ID = fmt.Sprintf("d%03d", len(r.report.Decisions)+1)
			r.report.Decisions = append(r.report.Decisions, d)
		}
	}
	r.report.recount()
}

// limitBatch keeps the auto decisions within one ApplyBatch; the rest wait for review.
func (r *runner) limitBatch() {
	n := 0
	for i := range r.report.Decisions {
		d := &r.report.Decisions[i]
		if d.Outcome != OutcomeAuto {
			continue
		}
		k := len(itemsFor(d))
		if n+k > memory.MaxBatchItems {
			d.Outcome, d.Bucket = OutcomeQueue, BucketBatchLimit
			continue
		}
		n += k
	}
	r.report.recount()
}

// decide turns one proposal into a gated decision. claimed holds the entries earlier
// decisions act on; a proposal touching one of them again is dropped as conflicting.
func decide(trigger Trigger, mode Mode, c Cluster, p Proposal, entries map[string]*memory.Memory, claimed map[string]bool) Decision {
	d := Decision{ClusterID: c.ID, Action: p.Action, Confidence: clamp01(p.Confidence), Tier: p.Tier, Score: p.Score,
		Reason: p.Reason, Hint: p.Hint, Targets: []EntryRef{}, Status: DecisionDropped, Outcome: OutcomeDrop}
	if d.Reason.Code == "" {
		d.Reason.Code = ReasonPlanner
	}
	drop := func(bucket string) Decision {
		d.Outcome, d.Bucket, d.Status, d.Risk = OutcomeDrop, bucket, DecisionDropped, RiskHigh
		return d
	}
	if !p.Action.Valid() {
		return drop(BucketInvalidTarget)
	}
	var targets []*memory.Memory
	seen := map[string]bool{}
	for _, id := range p.Targets {
		m, ok := entries[id]
		if !ok {
			return drop(BucketInvalidTarget)
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		targets = append(targets, m)
		d.Targets = append(d.Targets, refOf(m))
	}
	if len(targets) == 0 {
		return drop(BucketInvalidTarget)
	}
	var into *memory.Memory
	if p.Action == ActionMergeInto {
		m, ok := entries[p.Into]
		if !ok || seen[p.Into] {
			return drop(BucketInvalidTarget)
		}
		into = m
		ref := refOf(m)
		d.Into = &ref
	}
	all := targets
	if into != nil {
		all = append([]*memory.Memory{into}, targets...)
	}
	for _, m := range all {
		if claimed[m.ID] {
			return drop(BucketConflicting)
		}
	}
	in := RiskInput{Action: p.Action, Confidence: d.Confidence}
	for _, m := range all {
		if m.Scope != c.Scope.Scope || m.ScopeKey() != c.Scope.Key {
			in.CrossScope = true
		}
		if m.Reviewed {
			in.TouchesReviewed = true
		}
	}
	for _, m := range targets {
		if m.Reviewed && (p.Action == ActionDelete || p.Action == ActionMergeInto) {
			in.RemovesReviewed = true
		}
	}
	d.Risk = ComputeRisk(in)
	if p.Action == ActionMergeInto {
		pres, bucket := preserve(into, targets, p.Body)
		if bucket != "" {
			return drop(bucket)
		}
		d.Preserved = pres
	}
	d.Outcome, d.Bucket = Gate(trigger, mode, p.Action, d.Risk, d.Confidence)
	if d.Outcome == OutcomeDrop {
		d.Status = DecisionDropped
		return d
	}
	d.Status = DecisionPending
	for _, m := range all {
		claimed[m.ID] = true
	}
	return d
}

func clamp01(f float64) float64 {
	switch {
	case math.IsNaN(f) || f < 0:
		return 0
	case f > 1:
		return 1
	}
	return f
}

func timeDays(days int) time.Duration { return time.Duration(days) * 24 * time.Hour }
